"""Deck lists as text and as links: the text players paste and export, the JSON body, the share link."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext

from cards.models import Attribute, Card, Geas, Printing, Ruler
from cards.rules_selectors import rules_choice_get
from decks.decklists.link import DeckLinkError, LinkedDeck, decode_deck_link, encode_deck_link
from decks.decklists.text import (
    LineError,
    ParsedDeck,
    TextCard,
    Vocabulary,
    format_deck_text,
    line_fixed,
    parse_deck_text,
)
from decks.drafts import card_facts_by_number
from decks.editor.state import DeckEditorState, deck_editor_state
from decks.models import MAX_LINE_COUNT, DeckDraft
from decks.rules.ruleset import RulesInForce
from decks.wording import word
from gatesite.errors import ApplicationError


def deck_text_vocabulary() -> Vocabulary:
    """Every name a pasted deck list may use (decks.decklists.text): cards, rulers, geases, attributes. Four queries."""
    cards: dict[str, str] = {}
    for name, name_ja in Card.objects.order_by().values_list("name", "name_ja"):
        cards[name] = name
        if name_ja:
            cards.setdefault(name_ja, name)
    rulers: dict[str, str] = {}
    for slug, name, name_ja, code in Ruler.objects.values_list("slug", "name", "name_ja", "code"):
        for alias in (name, name_ja, slug, code, f"{code} {name}" if code else ""):
            if alias:
                rulers.setdefault(alias, name)
    geases: dict[str, str] = {}
    for slug, name in Geas.objects.values_list("slug", "name"):
        geases[name] = name
        geases.setdefault(slug, name)
    return Vocabulary(
        cards=cards,
        rulers=rulers,
        geases=geases,
        attributes=list(Attribute.objects.values_list("name", flat=True)),
    )


def deck_draft_text(*, draft: DeckDraft) -> str:
    """A draft (or a saved deck's, see deck_draft_of) as the plain-text list players paste (decks.decklists.text)."""
    facts = card_facts_by_number(draft.numbers())
    ruler = Ruler.objects.filter(slug=draft.ruler).values_list("name", flat=True).first() or draft.ruler
    geas = None
    if draft.geas:
        geas = Geas.objects.filter(slug=draft.geas).values_list("name", flat=True).first() or draft.geas

    def cards(section: str) -> list[TextCard]:
        return [
            TextCard(count, facts[number].name, facts[number].type, facts[number].level)
            for number, count in draft.section(section).items()
            if number in facts
        ]

    return format_deck_text(
        ruler=ruler,
        geas=geas,
        attribute=draft.attribute,
        rules_date=draft.rules_date,
        name=draft.name,
        main=cards("main"),
        resources=cards("resources"),
    )


def deck_draft_validate_body(*, draft: DeckDraft) -> dict[str, Any]:
    """A draft as the body POST /api/v1/decks/validate/ takes (printings by collector number)."""
    return {
        "ruler": draft.ruler,
        "geas": draft.geas,
        "as_of": draft.rules_date.isoformat() if draft.rules_date else None,
        "attribute": draft.attribute or None,
        "main": [{"number": n, "count": c} for n, c in sorted(draft.main.items())],
        "resources": [{"number": n, "count": c} for n, c in sorted(draft.resources.items())],
    }


@dataclass(frozen=True)
class TextImport:
    """What pasting a deck list would make of a draft, before the player confirms it.

    `draft` is the draft the text makes (None when a blocking line, a ruler or geas that
    cannot be used, leaves nothing to confirm); `errors` every line left out; `kept` what the
    text does not say and the current draft keeps.
    """

    parsed: ParsedDeck
    draft: DeckDraft | None
    state: DeckEditorState | None
    errors: tuple[LineError, ...]
    kept: tuple[str, ...]
    # The text read: the one pasted, or with one line fixed to its suggestion (deck_text_import's `fix`).
    text: str = ""

    @property
    def blocked(self) -> bool:
        return self.draft is None

    @property
    def fingerprint(self) -> str:
        """Names this exact result, so a confirm can tell the result has not changed since the preview."""
        if self.draft is None:
            return ""
        raw = json.dumps(self.draft.to_session(), sort_keys=True).encode()
        return hashlib.sha256(raw).hexdigest()[:32]


# Headings that decide which rules judge the deck: with one of them wrong there is no deck to confirm.
_BLOCKING_FIELDS = frozenset({"ruler", "geas", "attribute", "rules_date", "heading"})


def deck_text_import(*, text: str, draft: DeckDraft, today: date | None = None, fix: int | None = None) -> TextImport:
    """Read a pasted deck list against the catalog and make the draft it describes (nothing is saved).

    1. Parse the text with every known name (decks.decklists.text.parse_deck_text).
    2. Headings: a text that names its ruler describes the whole deck, so a missing Geas,
       Attribute or Rules date line means none; a text without a Ruler line keeps the
       draft's ruler, geas, attribute and rules date unless it gives them.
    3. Each card name becomes printings: the draft's own printings of that name in that section
       (keeping their split when the count is unchanged), else the newest printing in the
       ruler's collector-number pool, else the newest printing.
    4. The considering board, name and description stay the draft's.

    `fix`: a line number whose "Did you mean …?" the player accepted: that line takes its
    suggestion first, and the result reads the fixed text (TextImport.text).
    """
    vocabulary = deck_text_vocabulary()
    parsed = parse_deck_text(text, vocabulary, max_count=MAX_LINE_COUNT)
    if fix is not None:
        for error in parsed.errors:
            if error.number == fix and error.suggestion:
                text = line_fixed(text, error)
                parsed = parse_deck_text(text, vocabulary, max_count=MAX_LINE_COUNT)
                break
    errors = list(parsed.errors)
    ruler_slug, geas_slug, attribute, rules_date, kept = _text_headings(parsed=parsed, draft=draft)
    if any(e.field in _BLOCKING_FIELDS for e in errors):
        return TextImport(parsed, None, None, tuple(errors), tuple(kept), text)
    try:
        choice = rules_choice_get(
            ruler_slug=ruler_slug, geas_slug=geas_slug, on=rules_date or today or timezone.localdate()
        )
    except ApplicationError as exc:
        where = "geas" if geas_slug and "geas" in parsed.heading_lines else "ruler"
        number = parsed.heading_lines.get(where, 0)
        errors.append(LineError(number, "", exc.message, field=where))
        return TextImport(parsed, None, None, tuple(errors), tuple(kept), text)
    sections = _text_printings(parsed=parsed, draft=draft, rules=choice.rules)
    missing = sorted({name for s in (parsed.main, parsed.resources) for name in s} - sections.pop("_named", set()))
    for line in parsed.lines:
        if line.name in missing:
            message = gettext("“%(name)s” has no printing in the catalog.") % {"name": line.name}
            errors.append(LineError(line.number, "", message, field="card"))
    new = replace(
        draft,
        ruler=ruler_slug,
        geas=geas_slug,
        attribute=attribute,
        rules_date=rules_date,
        name=parsed.name if parsed.name is not None else draft.name,
        main=sections["main"],
        resources=sections["resources"],
    )
    state = deck_editor_state(draft=new, today=today)
    return TextImport(parsed, new, state, tuple(sorted(errors, key=lambda e: e.number)), tuple(kept), text)


def _text_headings(*, parsed: ParsedDeck, draft: DeckDraft) -> tuple[str, str | None, str, date | None, list[str]]:
    """The ruler, geas, attribute and rules date a pasted list gives (deck_text_import, step 2), and
    what it leaves to the draft."""
    if parsed.ruler is not None:
        ruler_slug = Ruler.objects.filter(name=parsed.ruler).values_list("slug", flat=True).get()
        geas_slug = _geas_slug(parsed.geas) if parsed.geas else None
        return ruler_slug, geas_slug, parsed.attribute or "", parsed.rules_date, []
    geas_slug = _geas_slug(parsed.geas) if parsed.geas is not None else draft.geas
    attribute = parsed.attribute if parsed.attribute is not None else draft.attribute
    rules_date = parsed.rules_date if "rules_date" in parsed.heading_lines else draft.rules_date
    kept = ["ruler"] + [
        k.replace("_", " ") for k in ("geas", "attribute", "rules_date") if k not in parsed.heading_lines
    ]
    return draft.ruler, geas_slug, attribute, rules_date, kept


def _geas_slug(name: str) -> str | None:
    return Geas.objects.filter(name=name).values_list("slug", flat=True).first() if name else None


def _text_printings(*, parsed: ParsedDeck, draft: DeckDraft, rules: RulesInForce) -> dict[str, Any]:
    """Copies per collector number for each section of a parsed text (see deck_text_import, step 3). One query."""
    names = {name for section in (parsed.main, parsed.resources) for name in section}
    rows = (
        Printing.objects.filter(Q(card__name__in=names) | Q(collector_number__in=draft.numbers()))
        .order_by(F("card_set__release_date").desc(nulls_last=True), "-collector_number")
        .values_list("card__name", "collector_number")
    )
    newest: dict[str, list[str]] = {}
    name_of: dict[str, str] = {}
    for name, number in rows:
        newest.setdefault(name, []).append(number)
        name_of[number] = name
    pool = rules.deck.card_pool
    prefixes = pool.collector_number_prefixes if pool is not None and pool.collector_number_prefixes else None
    out: dict[str, Any] = {"_named": {name for name in names if name in newest}}
    for section in ("main", "resources"):
        have: dict[str, dict[str, int]] = {}
        for number, count in draft.section(section).items():
            if number in name_of:
                have.setdefault(name_of[number], {})[number] = count
        counts: dict[str, int] = {}
        for name, total in parsed.section(section).items():
            printings = newest.get(name)
            if not printings:
                continue
            own = have.get(name)
            if own:
                counts.update(_split(own, total))
                continue
            in_pool = [n for n in printings if prefixes and n.startswith(prefixes)]
            number = (in_pool or printings)[0]
            counts[number] = counts.get(number, 0) + total
        out[section] = counts
    return out


def _split(own: dict[str, int], total: int) -> dict[str, int]:
    """`total` copies over the printings a deck already has: the same split if the count is unchanged,
    else more or fewer of its most-used printing first."""
    ordered = sorted(own.items(), key=lambda kv: (-kv[1], kv[0]))
    have = sum(own.values())
    if total >= have:
        first, count = ordered[0]
        return {**own, first: count + total - have}
    out: dict[str, int] = {}
    left = total
    for number, count in ordered:
        if left <= 0:
            break
        out[number] = min(count, left)
        left -= out[number]
    return out


def deck_draft_link(*, draft: DeckDraft) -> str:
    """The share code of a draft (decks.decklists.link): the whole deck, no account or database row needed."""
    return encode_deck_link(
        LinkedDeck(
            ruler=draft.ruler,
            geas=draft.geas,
            attribute=draft.attribute,
            rules_date=draft.rules_date,
            main=draft.main,
            resources=draft.resources,
            name=draft.name,
        )
    )


def deck_draft_from_link(*, code: str) -> DeckDraft:
    """The draft a share code carries; ApplicationError (the DeckLinkError's message) if it is not one."""
    try:
        linked = decode_deck_link(code)
    except DeckLinkError as exc:
        # Worded here, in the player's language: the pure link module keeps the template and values.
        raise ApplicationError(word(exc.args[0])) from exc
    return DeckDraft(
        ruler=linked.ruler,
        geas=linked.geas,
        attribute=linked.attribute,
        rules_date=linked.rules_date,
        name=linked.name,
        main=dict(linked.main),
        resources=dict(linked.resources),
    )
