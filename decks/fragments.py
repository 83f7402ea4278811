"""The editor's repeated fragments, rendered in Python: deck lines, card-browser rows, add-ability hints.

The card browser shows 30 results and every change redraws the deck and 30 hints: as template
partials (`{% for %}` over `{% partial %}`) these took about a third of a change's and half of a
search's server time, almost all of it variable lookups. Here every value goes through
html.escape (what django.utils.html.escape does, without its lazy-string wrapper, which is most
of format_html's cost), and the markup is the one the partials had. templates/decks/editor.html
calls these through the tags of decks/templatetags/editor_fragments.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from django.utils.safestring import SafeString, mark_safe

from decks.rules.registry import RULES

if TYPE_CHECKING:
    from .selectors import BrowserRow, CardHint, DeckLine


def _hint(hint: CardHint, oob: bool) -> str:
    in_deck = ""
    if hint.over_limit:
        # Not the green "fine" badge: the deck already breaks the copy limit for this card.
        in_deck = (
            f'<span class="in-deck over-limit">{hint.in_deck} in deck'
            '<span class="visually-hidden"> (over the copy limit)</span></span>'
        )
    elif hint.in_deck:
        in_deck = f'<span class="in-deck">{hint.in_deck} in deck</span>'
    blockers = ""
    if hint.blockers:
        blockers = '<ul class="blockers">' + "".join(f"<li>{escape(r)}</li>" for r in hint.blockers) + "</ul>"
    swap = ' hx-swap-oob="true"' if oob else ""
    addable = "true" if hint.addable else "false"
    return f'<div class="hint" id="why-{escape(hint.ref)}" data-addable="{addable}"{swap}>{in_deck}{blockers}</div>\n'


def card_hint(hint: CardHint, *, oob: bool = False) -> SafeString:
    """Whether one more copy can be added and, if not, why (`why-<ref>`; out of band after a change)."""
    return mark_safe(_hint(hint, oob))


def card_hints(hints: Iterable[CardHint], *, oob: bool = False) -> SafeString:
    return mark_safe("".join(_hint(hint, oob) for hint in hints))


def _row(row: BrowserRow) -> str:
    card = row.card
    ref, name, number, section = escape(row.ref), escape(row.facts.name), escape(row.number), escape(row.section)
    name_ja = f' <span class="result-ja" lang="ja">{escape(card.name_ja)}</span>' if card.name_ja else ""
    text = f'<p class="result-text">{escape(card.text)}</p>' if card.text else ""
    others = "".join(
        f' <button name="op" value="add {section} {escape(n)}" class="alt" aria-describedby="r-{ref}">+ {escape(n)}</button>'
        for n in row.other_numbers
    )
    return (
        f'<li class="result" tabindex="0" data-row data-card-name="{name}" data-number="{number}">\n'
        f'<div class="result-head"><span class="result-name" id="r-{ref}">{name}</span>{name_ja}</div>\n'
        f'<div class="result-meta">{escape(row.meta)}</div>\n'
        f"{text}\n"
        f"{_hint(row, False)}"
        f'<div class="result-actions"><button name="op" value="add {section} {number}" data-key="+" data-add '
        f'aria-describedby="r-{ref} why-{ref}">+ Add</button> <button name="op" value="add considering {number}" '
        f'aria-describedby="r-{ref}">Consider</button>{others}</div>\n'
        "</li>\n"
    )


def browser_row(row: BrowserRow) -> SafeString:
    """One search result: name, Japanese name, meta, text, its hint and the add buttons."""
    return mark_safe(_row(row))


def browser_rows(rows: Iterable[BrowserRow]) -> SafeString:
    return mark_safe("".join(_row(row) for row in rows))


# What a flagged deck line says of each rule that names its card (the validation panel has the
# full message): each rule's line_label in the engine's registry; the code stays in data-rule.
RULE_LABELS = {rule.code: rule.line_label for rule in RULES if rule.line_label}
# Rules that name (nearly) every card: said once in the validation panel, not on every line.
_DECK_WIDE = frozenset({"deck_size", "level_cap"})


def rule_label(rule: str) -> str:
    """Plain words for a rule code; a code without a label yet is shown as words."""
    return RULE_LABELS.get(rule) or rule.replace("_", " ").capitalize()


def _problems(rules: Iterable[str]) -> str:
    return "; ".join(
        f'<span data-rule="{escape(rule)}">{escape(rule_label(rule))}</span>'
        for rule in rules
        if rule not in _DECK_WIDE
    )


def _line(line: DeckLine) -> str:
    key, dom, number = escape(line.key), escape(line.dom_id), escape(line.number)
    rules = f' data-rules="{escape(" ".join(line.rules))}"' if line.rules else ""
    problem = f'<span class="line-problem">{_problems(line.rules)}</span>' if line.flagged else ""
    if line.section == "considering":
        actions = (
            f'<button name="op" value="to_deck {escape(line.target_section)} {number}" data-key="+" '
            f'aria-describedby="{dom}">Into deck</button> '
            f'<button name="op" value="remove {key}" data-key="-" aria-describedby="{dom}">Drop</button>'
        )
    else:
        actions = (
            f'<button name="op" value="remove {key}" data-key="-" aria-label="Remove one" aria-describedby="{dom}">'
            "−</button> "
            f'<button name="op" value="add {key}" data-key="+" aria-label="Add one" aria-describedby="{dom}">+</button> '
            f'<button name="op" value="to_considering {key}" aria-describedby="{dom}">Consider</button>'
        )
    name = escape(line.facts.name)
    return (
        f'<li class="line{" flagged" if line.flagged else ""}" tabindex="0" data-row data-card-name="{name}" '
        f'data-number="{number}" data-section="{escape(line.section)}" data-count="{line.count}"{rules}>\n'
        f'<span class="line-count">{line.count}×</span> <span class="line-name" id="{dom}">{name}</span> '
        f'<span class="line-meta">{escape(line.meta)}</span>\n'
        f"{problem}\n"
        f'<span class="line-actions">{actions}</span>\n'
        "</li>\n"
    )


def deck_line(line: DeckLine) -> SafeString:
    """One printing of the deck, the resources or the considering board, with its buttons."""
    return mark_safe(_line(line))


def deck_lines(lines: Iterable[DeckLine]) -> SafeString:
    return mark_safe("".join(_line(line) for line in lines))
