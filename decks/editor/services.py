"""Writes of the deck editor: one change to a draft, and a change judged (and saved, for a saved deck).

A change is one DraftChange (decks/editor/forms.py parses it from a request). For the session's
draft, editor_draft_change judges the changed draft; for a saved deck, editor_deck_change also
saves it, refused with StaleDeck when the page was based on an older version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.games import game_get
from cards.models import Geas
from cards.selectors import attribute_exists
from decks.card_facts import card_facts_by_number, rules_choice_of
from decks.models import MAX_LINE_COUNT, MAX_LINES, Deck, DeckDraft, Section
from decks.rules.games import GameDefinition
from decks.saved_drafts import DeckLines, deck_draft_of, deck_lines_of
from decks.services import deck_update
from decks.wording import game_name
from gatesite.clock import site_today
from gatesite.errors import ApplicationError

from .state import (
    EARLIEST_RULES_YEAR,
    SET_ATTRIBUTE,
    SET_GEAS,
    SET_RULER,
    SET_RULES_DATE,
    DeckEditorState,
    deck_editor_state,
    editor_offers,
)
from .undo import RESTORE, draft_restored

ADD = "add"
REMOVE = "remove"
TO_CONSIDERING = "to_considering"
TO_DECK = "to_deck"
# The number of copies of a printing, in one change (a playset button, a number key on a focused card).
SET_COUNT = "set_count"
RENAME = "rename"
# The changes of a card's copies, in any game's sections and its considering board.
CARD_ACTIONS = (ADD, REMOVE, TO_CONSIDERING, TO_DECK, SET_COUNT)
# The owner's scratch board: kept with the deck, never judged, counted, exported or in a version.
CONSIDERING = Section.CONSIDERING.value
# RESTORE (decks/editor/undo.py): an undo or redo, the whole deck set back to a state's code (`state`).
ACTIONS = (
    ADD,
    REMOVE,
    TO_CONSIDERING,
    TO_DECK,
    SET_COUNT,
    SET_RULER,
    SET_GEAS,
    SET_ATTRIBUTE,
    SET_RULES_DATE,
    RENAME,
    RESTORE,
)
# The changes after which the rules pickers and the card browser's results are drawn again (a restore may
# bring other rules back).
RULES_ACTIONS = frozenset({SET_RULER, SET_GEAS, SET_ATTRIBUTE, SET_RULES_DATE, RESTORE})


@dataclass(frozen=True)
class DraftChange:
    """One edit a player makes: `number` and `section` (any of the game's) for card moves, `value` for the
    copies a set_count wants and for the rules choices of a ruler's game."""

    action: str
    number: str = ""
    section: str = "main"
    value: str = ""
    name: str = ""
    description: str = ""
    # The code of the state a RESTORE (an undo or redo) brings back (decks/editor/undo.py).
    state: str = ""


def deck_draft_change(*, draft: DeckDraft, change: DraftChange) -> DeckDraft:
    """The draft with one change applied (a new draft; the given one is not modified).

    Raises ApplicationError, with a message for the player, for a section the game does not have, a
    card that is not in the game's catalog, rules that are not in force on the rules date, a geas for
    another ruler, a rules choice in a game whose identity is not a ruler, a line or deck grown past
    the sizes a draft keeps.
    """
    action = change.action
    game = game_get(draft.game)
    if action in CARD_ACTIONS:
        return _move(draft, game, change)
    if action == RENAME:
        return replace(draft, name=change.name.strip(), description=change.description.strip())
    if action == RESTORE:
        changed = draft_restored(draft=draft, code=change.state)
    elif action not in editor_offers(game).rules_changes:
        raise ApplicationError(_("Unknown change '%(action)s'.") % {"action": action}, field="action")
    elif action == SET_RULER:
        # A geas belongs to one ruler: a new ruler starts without one.
        changed = replace(draft, ruler=change.value, geas=None)
    elif action == SET_GEAS:
        changed = replace(draft, geas=change.value or None)
    elif action == SET_ATTRIBUTE:
        if change.value and not attribute_exists(change.value):
            raise ApplicationError(_("Unknown attribute '%(value)s'.") % {"value": change.value}, field="value")
        return replace(draft, attribute=change.value)
    else:
        changed = replace(draft, rules_date=_parse_date(change.value))
    # Refuse a choice the rules cannot judge by (unknown ruler, geas not in force on the date, …); a game
    # whose identity is a card has no rules choice to refuse.
    rules_choice_of(game, ruler=changed.ruler, geas=changed.geas, on=changed.rules_date or site_today())
    return changed


def _parse_date(value: str) -> date | None:
    if not value:
        return None
    try:
        parsed = date.fromisoformat(value)
    except ValueError as exc:
        raise ApplicationError(_("'%(value)s' is not a date (YYYY-MM-DD).") % {"value": value}, field="value") from exc
    if parsed.year < EARLIEST_RULES_YEAR:
        # A year half-typed (0002, 0020): refused, so the rules date is never a date the player did not mean.
        raise ApplicationError(
            _("%(value)s is not a rules date: type the year in four digits (%(year)s or later).")
            % {"value": value, "year": EARLIEST_RULES_YEAR},
            field="value",
        )
    return parsed


def _move(draft: DeckDraft, game: GameDefinition, change: DraftChange) -> DeckDraft:
    number, section = change.number, change.section
    if section not in (*game.section_keys(), CONSIDERING):
        raise ApplicationError(
            _("A %(game)s deck has no section '%(section)s'.") % {"game": game_name(game.name), "section": section},
            field="section",
        )
    # Only a printing new to the draft is looked up.
    adding = change.action in (ADD, SET_COUNT) and number not in draft.numbers()
    if adding and not card_facts_by_number(game, [number]):
        raise ApplicationError(
            _("No %(game)s card with collector number '%(number)s'.")
            % {"game": game_name(game.name), "number": number},
            field="number",
        )
    if change.action == ADD:
        return _add(draft, section, number, 1)
    if change.action == SET_COUNT:
        return _add(draft, section, number, copies_wanted(change.value) - draft.section(section).get(number, 0))
    if change.action == REMOVE:
        return _add(draft, section, number, -1)
    if change.action == TO_CONSIDERING:
        # One copy from a section of the deck to the considering board.
        if section == CONSIDERING:
            raise ApplicationError(_("A card moves to the considering board from a section of the deck."))
        return _add(_add(draft, section, number, -1), CONSIDERING, number, 1)
    # TO_DECK: one copy from the considering board into `section` (the one its type belongs in, as the button says).
    if section == CONSIDERING:
        raise ApplicationError(_("A card moves from the considering board into a section of the deck."))
    return _add(_add(draft, CONSIDERING, number, -1), section, number, 1)


def copies_wanted(value: str) -> int:
    """The number of copies a set_count change asks for; ApplicationError unless 0 to MAX_LINE_COUNT."""
    if not value.isdigit() or int(value) > MAX_LINE_COUNT:
        raise ApplicationError(
            _("'%(value)s' is not a number of copies (0 to %(n)s).") % {"value": value, "n": MAX_LINE_COUNT},
            field="value",
        )
    return int(value)


def _add(draft: DeckDraft, section: str, number: str, delta: int) -> DeckDraft:
    counts = dict(draft.section(section))
    have = counts.get(number, 0)
    if delta < 0 and have < -delta:
        words = _SECTION_WORDS.get(section)
        if words is None:
            message = _("There is no %(number)s in %(section)s to take out.") % {"number": number, "section": section}
        else:
            message = words % {"number": number}
        raise ApplicationError(message, field="number")
    if have + delta > MAX_LINE_COUNT:
        raise ApplicationError(
            _("A deck keeps at most %(n)s copies of one printing.") % {"n": MAX_LINE_COUNT}, field="number"
        )
    if have == 0 and len(draft.numbers() | {number}) > MAX_LINES:
        raise ApplicationError(_("A deck keeps at most %(n)s different printings.") % {"n": MAX_LINES}, field="number")
    counts[number] = have + delta
    return draft.with_section(section, counts)


# Whole sentences per section, so a translation need not assemble one from a section's name.
_SECTION_WORDS = {
    "main": gettext_lazy("There is no %(number)s in the deck to take out."),
    "resources": gettext_lazy("There is no %(number)s in the resources to take out."),
    "considering": gettext_lazy("There is no %(number)s in the considering board to take out."),
}


@dataclass(frozen=True)
class ChangedDraft:
    state: DeckEditorState
    # What the change did besides what was asked (change_notice), for the player to read.
    notice: str = ""


def editor_draft_change(*, draft: DeckDraft, change: DraftChange, shown: Sequence[str] = ()) -> ChangedDraft:
    """The session's draft with one change applied, judged; the caller keeps `state.draft` in the session.

    `shown`: the printings the card browser shows, whose facts the judgement fetches along
    (their hints are redrawn after the change, decks/editor/browser.py deck_card_hints).
    """
    changed = deck_draft_change(draft=draft, change=change)
    return ChangedDraft(deck_editor_state(draft=changed, also=shown), change_notice(before=draft, change=change))


def change_notice(*, before: DeckDraft, change: DraftChange) -> str:
    """What a change did besides what was asked, for the player to read: a new ruler drops the geas."""
    if change.action != SET_RULER or not before.geas or change.value == before.ruler:
        return ""
    geas = Geas.objects.filter(slug=before.geas).select_related("ruler").first()
    if geas is None:
        return ""
    return _(
        "The geas %(geas)s was dropped: a geas changes the rules of the one ruler it targets, %(ruler)s. "
        "Pick a geas for the new ruler if you want one."
    ) % {"geas": geas.name, "ruler": game_name(geas.ruler.name)}


@dataclass(frozen=True)
class SavedChange:
    deck: Deck
    state: DeckEditorState
    # What the change did besides what was asked (change_notice).
    notice: str = ""


def editor_deck_change(
    *, deck: Deck, change: DraftChange, base_version: int, shown: Sequence[str] = (), lines: DeckLines | None = None
) -> SavedChange:
    """A saved deck with one change applied, judged and saved at once (every change is saved).

    Raises StaleDeck (decks.services) when the deck is no longer at `base_version`, the version
    the player's page showed: the change is then refused, never written over another one.
    `lines`: the deck's lines if the caller read them with it (deck_and_lines_for_owner); read here if not.
    """
    if lines is None:
        lines = deck_lines_of(deck=deck)
    before = deck_draft_of(deck=deck, lines=lines)
    changed = deck_draft_change(draft=before, change=change)
    state = deck_editor_state(draft=changed, also=shown)
    saved = deck_update(
        deck=deck, draft=changed, base_version=base_version, judgement=state.judgement, autosave=True, lines=lines
    )
    return SavedChange(saved, state, change_notice(before=before, change=change))
