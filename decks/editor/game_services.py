"""Writes of the game editor: one change to a deck of a game whose identity is a card, judged (and
saved at once for a saved deck, as the Gate Ruler editor does: deck_update with autosave). The owner's
considering board is saved with the deck too (DeckDraft.considering), as Gate Ruler's is."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from cards.games import game_get
from decks.drafts import game_card_facts
from decks.models import MAX_LINE_COUNT, MAX_LINES, Deck, DeckDraft, Section
from decks.rules.games import GameDefinition
from decks.saved_drafts import DeckLines, deck_draft_of, deck_lines_of
from decks.services import deck_update
from gatesite.errors import ApplicationError

from .game_state import GameEditorState, game_editor_state
from .services import copies_wanted

ADD = "add"
REMOVE = "remove"
# One copy between a section of the deck and the owner's considering board, as in the Gate Ruler editor.
TO_CONSIDERING = "to_considering"
TO_DECK = "to_deck"
# The number of copies of a printing in one change (a number key on a focused card).
SET_COUNT = "set_count"
RENAME = "rename"
CARD_ACTIONS = (ADD, REMOVE, TO_CONSIDERING, TO_DECK, SET_COUNT)
GAME_ACTIONS = (*CARD_ACTIONS, RENAME)
# The owner's scratch board: kept with the deck, never judged, counted, exported or in a version
# (DeckDraft.to_snapshot, decks.drafts.game_snapshot_of judge the game's own sections only).
CONSIDERING = Section.CONSIDERING.value


@dataclass(frozen=True)
class GameChange:
    """One edit: copies of printing `number` into, out of or between `section` and the considering board
    (`count`: the copies a set_count wants), or a new name and description."""

    action: str
    number: str = ""
    section: str = "main"
    name: str = ""
    description: str = ""
    count: str = ""


def game_draft_change(*, draft: DeckDraft, change: GameChange) -> DeckDraft:
    """The draft with one change applied (a new draft).

    ApplicationError, in words for the player, for a section the game does not have, a card that
    is not in this game's catalog, a copy to take out that is not there, or a draft grown past
    the sizes a deck keeps.
    """
    if change.action == RENAME:
        return replace(draft, name=change.name.strip(), description=change.description.strip())
    if change.action not in CARD_ACTIONS:
        raise ApplicationError(_("Unknown change '%(action)s'.") % {"action": change.action}, field="action")
    game = game_get(draft.game)
    number, section = change.number, change.section
    if section not in (*game.section_keys(), CONSIDERING):
        raise ApplicationError(
            _("A %(game)s deck has no section '%(section)s'.") % {"game": game.name, "section": section},
            field="section",
        )
    if change.action == ADD:
        return _moved(draft, game, section, number, 1)
    if change.action == REMOVE:
        return _moved(draft, game, section, number, -1)
    if change.action == SET_COUNT:
        return _moved(draft, game, section, number, copies_wanted(change.count) - draft.section(section).get(number, 0))
    if change.action == TO_CONSIDERING:
        if section == CONSIDERING:
            raise ApplicationError(_("A card moves to the considering board from a section of the deck."))
        return _moved(_moved(draft, game, section, number, -1), game, CONSIDERING, number, 1)
    # TO_DECK: one copy from the considering board into `section` (the one its type belongs in, as the button says).
    if section == CONSIDERING:
        raise ApplicationError(_("A card moves from the considering board into a section of the deck."))
    return _moved(_moved(draft, game, CONSIDERING, number, -1), game, section, number, 1)


def _moved(draft: DeckDraft, game: GameDefinition, section: str, number: str, delta: int) -> DeckDraft:
    counts = dict(draft.section(section))
    have = counts.get(number, 0)
    if have + delta < 0:
        if section == CONSIDERING:
            message = _("There is no %(number)s in the considering board to take out.") % {"number": number}
        else:
            message = _("There is no %(number)s in %(section)s to take out.") % {"number": number, "section": section}
        raise ApplicationError(message, field="number")
    if delta > 0 and number not in game_card_facts(game):
        raise ApplicationError(
            _("No %(game)s card with collector number '%(number)s'.") % {"game": game.name, "number": number},
            field="number",
        )
    if have + delta > MAX_LINE_COUNT:
        raise ApplicationError(
            _("A deck keeps at most %(n)s copies of one printing.") % {"n": MAX_LINE_COUNT}, field="number"
        )
    if have == 0 and delta > 0 and len(draft.numbers() | {number}) > MAX_LINES:
        raise ApplicationError(_("A deck keeps at most %(n)s different printings.") % {"n": MAX_LINES}, field="number")
    counts[number] = have + delta
    return draft.with_section(section, counts)


def editor_game_draft_change(*, draft: DeckDraft, change: GameChange) -> GameEditorState:
    """The session's game draft with one change applied, judged; the caller keeps `state.draft` in the session."""
    return game_editor_state(draft=game_draft_change(draft=draft, change=change))


@dataclass(frozen=True)
class SavedGameChange:
    deck: Deck
    state: GameEditorState


def editor_game_deck_change(
    *, deck: Deck, change: GameChange, base_version: int, lines: DeckLines | None = None
) -> SavedGameChange:
    """A saved game deck with one change applied, judged and saved at once.

    Raises StaleDeck (decks.services) when the deck is no longer at `base_version`: the change
    is refused, never written over another one. `lines`: the deck's lines if the caller read them
    with it (deck_and_lines_for_owner); read here if not.
    """
    if lines is None:
        lines = deck_lines_of(deck=deck)
    changed = game_draft_change(draft=deck_draft_of(deck=deck, lines=lines), change=change)
    state = game_editor_state(draft=changed)
    saved = deck_update(
        deck=deck, draft=changed, base_version=base_version, judgement=state.judgement, autosave=True, lines=lines
    )
    return SavedGameChange(saved, state)
