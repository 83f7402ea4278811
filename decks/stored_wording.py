"""A violation message stored in English (a deck's `verdict_reason`), worded again in the player's language.

Saved verdicts keep the first violation's English message only (decks.revalidation writes it in
bulk). Every such message was filled from one of the engine's templates, so the template and
its values can be read back from the text: each template marked with gettext_noop in
decks/rules/ becomes a pattern (`%(level)s` a group), the first that matches the whole message
gives the values, and decks.wording words them. A text no template matches is shown as it is.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from cards.games import games
from decks.rules.wording import Label, Wording

RULES_DIR = Path(__file__).resolve().parent / "rules"
_PLACEHOLDER = re.compile(r"%\\\((\w+)\\\)s")
# Values that were lists of names, joined ", " in English: split again to word each name.
_LISTS = frozenset({"cards", "factions"})


@lru_cache(maxsize=1)
def engine_templates() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, template) for every template with placeholders that decks/rules/ marks, longest first."""
    templates = set()
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "%(" in node.args[0].value
            ):
                templates.add(node.args[0].value)
    ordered = sorted(templates, key=lambda t: (-len(t), t))
    return tuple((re.compile("^" + _PLACEHOLDER.sub(r"(?P<\1>.+?)", re.escape(t)) + "$", re.S), t) for t in ordered)


def stored_wording(text: str) -> Wording | None:
    """The Wording an English engine message was filled from, or None when no template matches it."""
    for pattern, template in engine_templates():
        match = pattern.match(text)
        if match is not None:
            labels = game_labels()
            values: dict[str, object] = {
                key: tuple(value.split(", ")) if key in _LISTS else labels.get(value, value)
                for key, value in match.groupdict().items()
            }
            return Wording(template, values)
    return None


@lru_cache(maxsize=1)
def game_labels() -> dict[str, Label]:
    """The games' labels (sections as messages call them, card types, fields) by their English text: a stored
    message's "main deck" is worded again as the game's data words it ("メインデッキ")."""
    labels: dict[str, Label] = {}
    for game in games().values():
        for section in game.sections:
            labels.setdefault(str(section.called()), section.called())
        for _where, label in game.labels():
            labels.setdefault(str(label), label)
    return labels
