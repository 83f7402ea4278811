"""A deck of a game whose identity is a card (Ruler's Gambit, GateRunners), as the read-only pages show it.

The deck page, the share link's page, the registration sheet and the text import's preview show
such a deck by its game's data: each section under its label, each card with its type and its
game fields, the verdict with the game's rules panel (numbers, sources and the readings the
site chose where the rules are silent). Gate Ruler's decks keep the editor's state
(decks.editor.state); nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from cards.games import game_get
from decks.drafts import DraftJudgement, deck_draft_judge
from decks.editor.state import DeckEditorState, deck_editor_state
from decks.models import DeckDraft
from decks.rules.games import GameDefinition
from decks.rules.panel import RulesPanel, rules_panel
from decks.rules.types import CardFacts, DeckEntry, Report


@dataclass(frozen=True)
class GameCardLine:
    number: str
    count: int
    name: str
    type_label: str
    # The card's game fields in words ("Colours: red · Cost: 2").
    meta: str
    flagged: bool = False
    # The card as the engine knows it: what the line's card peek shows (decks/_card_peek.html).
    facts: CardFacts | None = None


@dataclass(frozen=True)
class GameSection:
    key: str
    label: str
    count: int
    lines: tuple[GameCardLine, ...]


@dataclass(frozen=True)
class GameDeckView:
    """A draft of such a game, judged, with what the pages show of it."""

    judgement: DraftJudgement
    sections: tuple[GameSection, ...]
    panel: RulesPanel

    @property
    def game(self) -> GameDefinition:
        return self.judgement.game

    @property
    def draft(self) -> DeckDraft:
        return self.judgement.draft

    @property
    def report(self) -> Report:
        return self.judgement.report

    @property
    def identity(self) -> CardFacts | None:
        return self.judgement.identity

    @property
    def identity_label(self) -> str:
        """What the game calls its identity section ("Kingdom", "Hero")."""
        return next((s.label for s in self.game.sections if s.identity), "")

    @property
    def main_count(self) -> int:
        return sum(entry.count for entry in self.judgement.deck.main)


def card_meta(game: GameDefinition, card: CardFacts) -> str:
    words = []
    for field in game.card_fields:
        value = card.fields.get(field.key)
        if value is None or value == () or (field.kind == "bool" and not value):
            continue
        if field.kind == "bool":
            words.append(field.label)
        elif isinstance(value, tuple | list):
            words.append(f"{field.label}: {', '.join(str(v) for v in value)}")
        else:
            words.append(f"{field.label}: {value}")
    return " · ".join(words)


def _lines(game: GameDefinition, entries: tuple[DeckEntry, ...], flagged: set[str]) -> tuple[GameCardLine, ...]:
    lines = [
        GameCardLine(
            number=entry.printing or (entry.card.collector_numbers or ("",))[0],
            count=entry.count,
            name=entry.card.name,
            type_label=game.type_label(entry.card.type),
            meta=card_meta(game, entry.card),
            flagged=entry.card.name in flagged,
            facts=entry.card,
        )
        for entry in entries
    ]
    return tuple(sorted(lines, key=lambda line: (line.type_label, line.name.casefold(), line.number)))


def game_deck_view_of(judgement: DraftJudgement) -> GameDeckView:
    """The view of a judged draft of a game whose identity is a card."""
    game = judgement.game
    flagged = {name for v in judgement.report.violations for name in v.cards}
    sections = tuple(
        GameSection(
            key=section.key,
            label=section.label,
            count=sum(entry.count for entry in judgement.deck.section(section.key)),
            lines=_lines(game, judgement.deck.section(section.key), flagged),
        )
        for section in game.sections
    )
    return GameDeckView(judgement, sections, rules_panel(game))


def judged_by_its_cards(draft: DeckDraft) -> bool:
    """Whether the draft's game has a card for its identity (shown by this view), not a ruler (the editor's state)."""
    return game_get(draft.game).identity != "ruler"


def game_deck_view(*, draft: DeckDraft, today: date | None = None) -> GameDeckView:
    """Judge a draft of a game whose identity is a card and make its view (ApplicationError for an unknown game)."""
    return game_deck_view_of(deck_draft_judge(draft=draft, today=today))


def deck_read_view(*, draft: DeckDraft, today: date | None = None) -> DeckEditorState | GameDeckView:
    """A draft judged for a read-only page: the editor's state (a ruler's deck) or its game's view."""
    if judged_by_its_cards(draft):
        return game_deck_view(draft=draft, today=today)
    return deck_editor_state(draft=draft, today=today)


def read_context(view: DeckEditorState | GameDeckView | None) -> dict[str, object]:
    """The template context of a judged draft: `editor` (a ruler's deck) or `game_view` (another game's)."""
    if isinstance(view, GameDeckView):
        return {"editor": None, "game_view": view}
    return {"editor": view, "game_view": None}


def deck_editor_opens(*, draft: DeckDraft) -> None:
    """Refuse (ApplicationError) a draft the editor cannot open: its rules cannot judge it (an unknown
    ruler, an unknown game, …)."""
    deck_read_view(draft=draft)


def editor_serves(game: str) -> bool:
    """Whether the deck editor opens decks of this game: every game (a ruler's in the Gate Ruler editor,
    a card identity's in decks/editor/game_views.py); kept so that the callers say what they rely on."""
    game_get(game)
    return True
