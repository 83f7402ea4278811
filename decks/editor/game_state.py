"""What the editor shows of a deck of a game whose identity is a card (Ruler's Gambit, GateRunners).

The deck judged by its game's data (decks.drafts), its sections and verdict as the read-only pages
show them (decks.sharing.game_view), its meters rule by rule, and the card browser: a page of that
game's cards, each marked with whether one more copy can be added and why not. The hints test each
card against one tally of the deck made once per change (decks.rules.judge.addition_hints), never a
new judgement of the deck per card. Reads only: the changes are in decks/editor/game_services.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from hashlib import blake2b

from django.utils.translation import get_language

from cards.game_catalog import game_catalog_get
from cards.selectors import card_search
from decks.drafts import DraftJudgement, deck_draft_judge, game_card_facts
from decks.models import DeckDraft
from decks.rules.game_tally import Judging
from decks.rules.games import GameDefinition
from decks.rules.judge import addition_hints, game_meters, game_natural_section, judging, main_size_meter
from decks.rules.rule_meters import Meter
from decks.rules.types import CardFacts
from decks.rules.wording import Wording
from decks.sharing.game_view import GameDeckView, card_meta, game_deck_view_of

from .state import dom_safe

# Results per page of the game editor's card browser.
GAME_BROWSER_PAGE_SIZE = 30


@dataclass(frozen=True)
class GameJudgedDeck:
    """A game deck judged and its tally for the hints: what the card browser's results need.

    A search shows only its results and their hints (game_deck_judged); the editor's page and its
    changes draw the deck's sections, verdict and meters too (GameEditorState).
    """

    judgement: DraftJudgement
    counted: Judging

    @property
    def draft(self) -> DeckDraft:
        return self.judgement.draft

    @property
    def game(self) -> GameDefinition:
        return self.judgement.game


@dataclass(frozen=True)
class GameConsideredCard:
    """A card on the owner's considering board: not judged, not counted; "Into deck" puts a copy in `section`,
    the section its type belongs in (game_natural_section)."""

    number: str
    count: int
    name: str
    type_label: str
    meta: str
    facts: CardFacts
    section: str
    section_label: str


@dataclass(frozen=True)
class GameEditorState(GameJudgedDeck):
    """A game deck judged, its view (sections, verdict, rules panel), meters, its tally for the hints and
    the considering board (beside the deck, never in its judgement)."""

    view: GameDeckView
    meters: list[Meter]
    considering: list[GameConsideredCard]
    # The main deck's size against its size rule, for the phone tab's count; None: the game's data sets none.
    main_size: Meter | None = None

    @property
    def main_count(self) -> int:
        """The cards of the main deck: what the phone tab counts (and the meters' main deck shows)."""
        return self.view.main_count


def game_deck_judged(*, draft: DeckDraft) -> GameJudgedDeck:
    """Judge a game draft (no query while the game's catalog is remembered) and count it once for the hints."""
    judgement = deck_draft_judge(draft=draft)
    return GameJudgedDeck(judgement, judging(judgement.game, judgement.deck))


def game_editor_state(*, draft: DeckDraft) -> GameEditorState:
    """A game draft judged and counted (game_deck_judged), with its view and meters for the editor."""
    judged = game_deck_judged(draft=draft)
    return GameEditorState(
        judgement=judged.judgement,
        counted=judged.counted,
        view=game_deck_view_of(judged.judgement),
        meters=game_meters(judged.counted),
        considering=game_considering(judged.judgement),
        main_size=main_size_meter(judged.counted),
    )


def game_considering(judgement: DraftJudgement) -> list[GameConsideredCard]:
    """The draft's considering board, in the order the deck's sections list their cards (type, then name).

    Its cards' facts are in the judgement (deck_draft_judge looks up every printing of the draft) but not
    in its deck: a printing no longer in the catalog is in `judgement.missing`, as a deck's is.
    """
    game = judgement.game
    labels = {section.key: section.label for section in game.sections}
    cards = []
    for number, count in judgement.draft.considering.items():
        card = judgement.facts.get(number)
        if card is None:
            continue
        section = game_natural_section(game, card)
        cards.append(
            GameConsideredCard(
                number,
                count,
                card.name,
                game.type_label(card.type),
                card_meta(game, card),
                card,
                section,
                labels.get(section, section),
            )
        )
    return sorted(cards, key=lambda c: (c.type_label, c.name.casefold(), c.number))


@dataclass(frozen=True)
class GameCardHint:
    """Whether one more copy of a printing can go into the section it belongs in, and if not why."""

    number: str
    section: str
    section_label: str
    in_deck: int
    blockers: tuple[Wording, ...]

    @property
    def ref(self) -> str:
        """The collector number as it appears in element ids ("why-<ref>")."""
        return dom_safe(self.number)

    @property
    def addable(self) -> bool:
        return not self.blockers

    @property
    def digest(self) -> str:
        """What the hint shows, in a few characters (its element's data-digest): as a Gate Ruler hint's
        (decks/editor/browser.py CardHint.digest), the page sends back those of the hints it shows and a
        change's answer redraws only those whose digest differs (hints_changed). A blocker is a Wording,
        read in the player's language: its template and values stand for it, with that language."""
        blockers = tuple((b.template, tuple(sorted((k, repr(v)) for k, v in b.values.items()))) for b in self.blockers)
        shown = (get_language(), self.number, self.section, self.section_label, self.in_deck, blockers)
        return blake2b(repr(shown).encode(), digest_size=8).hexdigest()


def game_card_hints(*, state: GameJudgedDeck, numbers: Iterable[str]) -> list[GameCardHint]:
    """A hint for each known printing among `numbers` (the printings the browser shows)."""
    game, counted = state.game, state.counted
    facts = game_card_facts(game)
    labels = {section.key: section.label for section in game.sections}
    out = []
    for number in dict.fromkeys(numbers):
        card = facts.get(number)
        if card is None:
            continue
        section = game_natural_section(game, card)
        blockers = tuple(b.wording for b in addition_hints(counted, card, section=section, printing=number))
        in_deck = counted.tally.copies(card.name, game.section_keys())
        out.append(GameCardHint(number, section, labels.get(section, section), in_deck, blockers))
    return out


@dataclass(frozen=True)
class GameBrowserRow:
    """A search result: its card and its hint."""

    name: str
    type_label: str
    meta: str
    text: str
    hint: GameCardHint


@dataclass(frozen=True)
class GameBrowser:
    rows: list[GameBrowserRow]
    total: int
    error: str
    offset: int
    previous_offset: int | None
    next_offset: int | None

    @property
    def shown(self) -> str:
        """The printings shown, space-separated: sent with each change so that their hints are redrawn."""
        return " ".join(row.hint.number for row in self.rows)


def game_card_browser(*, state: GameJudgedDeck, query: str, card_type: str, offset: int) -> GameBrowser:
    """A page of the game's cards matching the search (its own fields: `c:red`, `cost<=2`, `lv<=2`, …)."""
    game = state.game
    result = card_search(
        query=query, type=card_type or None, game=game.slug, limit=GAME_BROWSER_PAGE_SIZE, offset=offset
    )
    by_name = game_catalog_get(game=game.slug).by_name
    numbers = [by_name[card.name]["collector_numbers"][0] for card in result.cards if card.name in by_name]
    hints = {hint.number: hint for hint in game_card_hints(state=state, numbers=numbers)}
    facts = game_card_facts(game)
    rows = [
        GameBrowserRow(
            facts[n].name, game.type_label(facts[n].type), card_meta(game, facts[n]), facts[n].text, hints[n]
        )
        for n in numbers
        if n in hints
    ]
    return GameBrowser(
        rows=rows,
        total=result.total,
        error=result.error or "",
        offset=offset,
        previous_offset=max(0, offset - GAME_BROWSER_PAGE_SIZE) if offset > 0 else None,
        next_offset=offset + GAME_BROWSER_PAGE_SIZE if result.total > offset + len(result.cards) else None,
    )
