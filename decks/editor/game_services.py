"""Writes of the game editor: one change to a deck of a game whose identity is a card, judged (and
saved at once for a saved deck, as the Gate Ruler editor does: deck_update with autosave)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from cards.games import game_get
from decks.drafts import game_card_facts
from decks.models import MAX_LINE_COUNT, MAX_LINES, Deck, DeckDraft
from decks.saved_drafts import DeckLines, deck_draft_of, deck_lines_of
from decks.services import deck_update
from gatesite.errors import ApplicationError

from .game_state import GameEditorState, game_editor_state

ADD = "add"
REMOVE = "remove"
RENAME = "rename"
GAME_ACTIONS = (ADD, REMOVE, RENAME)


@dataclass(frozen=True)
class GameChange:
    """One edit: a copy of printing `number` into or out of `section`, or a new name and description."""

    action: str
    number: str = ""
    section: str = "main"
    name: str = ""
    description: str = ""


def game_draft_change(*, draft: DeckDraft, change: GameChange) -> DeckDraft:
    """The draft with one change applied (a new draft).

    ApplicationError, in words for the player, for a section the game does not have, a card that
    is not in this game's catalog, a copy to take out that is not there, or a draft grown past
    the sizes a deck keeps.
    """
    if change.action == RENAME:
        return replace(draft, name=change.name.strip(), description=change.description.strip())
    if change.action not in (ADD, REMOVE):
        raise ApplicationError(_("Unknown change '%(action)s'.") % {"action": change.action}, field="action")
    game = game_get(draft.game)
    if change.section not in game.section_keys():
        raise ApplicationError(
            _("A %(game)s deck has no section '%(section)s'.") % {"game": game.name, "section": change.section},
            field="section",
        )
    counts = dict(draft.section(change.section))
    have = counts.get(change.number, 0)
    if change.action == REMOVE:
        if have == 0:
            raise ApplicationError(
                _("There is no %(number)s in %(section)s to take out.")
                % {"number": change.number, "section": change.section},
                field="number",
            )
        counts[change.number] = have - 1
        return draft.with_section(change.section, counts)
    return draft.with_section(change.section, _added(draft, change, counts, have))


def _added(draft: DeckDraft, change: GameChange, counts: dict[str, int], have: int) -> dict[str, int]:
    game = game_get(draft.game)
    if change.number not in game_card_facts(game):
        raise ApplicationError(
            _("No %(game)s card with collector number '%(number)s'.") % {"game": game.name, "number": change.number},
            field="number",
        )
    if have + 1 > MAX_LINE_COUNT:
        raise ApplicationError(
            _("A deck keeps at most %(n)s copies of one printing.") % {"n": MAX_LINE_COUNT}, field="number"
        )
    if have == 0 and len(draft.numbers() | {change.number}) > MAX_LINES:
        raise ApplicationError(_("A deck keeps at most %(n)s different printings.") % {"n": MAX_LINES}, field="number")
    return {**counts, change.number: have + 1}


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
