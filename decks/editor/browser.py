"""The editor's card browser: a page of search results, and whether one more copy of each can be added."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Protocol, TypeVar

from django.utils.translation import get_language, gettext

from cards.card_face import card_type_label
from cards.catalog import catalog_token
from cards.game_catalog import game_catalog_get
from cards.games import game_get
from cards.models import Card
from cards.names import attribute_names_ordered
from cards.selectors import card_facts
from decks.card_facts import card_facts_by_number, catalog_card_facts
from decks.deck_view import card_fields_in_words as card_meta
from decks.drafts import MAX_ALSO
from decks.rules.builder import max_copies
from decks.rules.games import GameDefinition
from decks.rules.hints import Additions, natural_section, nothing_fits
from decks.rules.judge import addition_hints, game_natural_section
from decks.rules.ruleset import RulesInForce
from decks.rules.types import CardFacts
from decks.rules.wording import Wording
from decks.wording import game_name

from .state import JudgedDeck, dom_safe, editor_offers


@dataclass(frozen=True)
class CardHint:
    """Whether one more copy of a printing can be added to the deck, and if not why."""

    number: str
    in_deck: int
    # A tuple: the remembered blockers themselves, shared by every result that shows them, and never changed.
    blockers: tuple[Wording | str, ...]
    # The deck already holds more copies of the card than its rules allow (a max_copies violation).
    over_limit: bool

    @property
    def addable(self) -> bool:
        return not self.blockers

    @property
    def ref(self) -> str:
        """The collector number as it appears in element ids ("why-<ref>")."""
        return dom_safe(self.number)

    @property
    def digest(self) -> str:
        """What the hint shows, in a few characters (its element's data-digest): the page sends back those
        of the hints it shows, and a change's answer redraws only the hints whose digest differs
        (hints_changed). The same for a result's hint (BrowserRow) as for a change's (CardHint)."""
        shown = (get_language(), self.number, self.in_deck, self.blockers, self.over_limit)
        return blake2b(repr(shown).encode(), digest_size=8).hexdigest()


class DigestedHint(Protocol):
    """A hint the page shows under an id of its ref, with its digest (CardHint, of any game)."""

    @property
    def ref(self) -> str: ...

    @property
    def digest(self) -> str: ...


Hint = TypeVar("Hint", bound=DigestedHint)


def hints_changed(hints: Sequence[Hint], shown: str | None) -> list[Hint]:
    """The hints that differ from those the page shows (in either editor): `shown` is the page's "ref:digest" of each hint it
    shows, space-separated (editor.js sends it along with a change), or None when the page did not
    say (then every hint is redrawn). A player adding cards to a deck short of its size changes the
    hint of the card added and few others: the browser then swaps a few hints instead of thirty."""
    if shown is None:
        return list(hints)
    showing = dict(pair.partition(":")[::2] for pair in shown.split())
    return [hint for hint in hints if showing.get(hint.ref) != hint.digest]


@dataclass(frozen=True)
class BrowserRow(CardHint):
    """A search result with what adding one more copy to the deck would mean."""

    card: Card
    facts: CardFacts
    # `number` is the printing the add button adds; these are the card's other printings.
    other_numbers: tuple[str, ...]
    section: str
    # The copies the rules allow of the card (its playset button sets the count to this; 1: no button).
    playset: int = 1

    @property
    def section_label(self) -> str:
        """Where the add button puts the card, in the words of a game with several sections ("" for a ruler's game,
        whose button says "+ Add": the card goes in the deck, or in the resources for energy)."""
        game = game_get(self.card.game)
        return editor_offers(game).section_label(game, self.section)

    @property
    def meta(self) -> str:
        """Type · level · faction · attributes · CNT · Legend · the game's fields · ATK/HP/STK, in one string,
        in the game's words: a card has the catalog's columns or its game's fields, and shows those it has."""
        f, card = self.facts, self.card
        parts = [
            card_type_label(card),
            f"Lv {f.level}" if f.level is not None else "",
            game_name(f.faction) if f.faction else "",
            *attribute_names_ordered(f.attributes),
            "CNT" if f.cnt else "",
            gettext("Legend") if f.legend else "",
            card_meta(game_get(card.game), f),
            f"{card.atk}/{card.hp}/{card.stk}" if card.atk is not None else "",
        ]
        return " · ".join(p for p in parts if p)


@dataclass(frozen=True)
class CardBrowserPage:
    rows: list[BrowserRow]
    # The number of matches; a lower bound when total_capped (more than this page: not counted).
    total: int
    offset: int
    limit: int
    error: str | None = None
    total_capped: bool = False
    # The matches this page went through: `limit`, or more when cards the deck cannot use were left out.
    step: int | None = None
    # With "only cards this deck can use" and no result: why the cards found cannot be added (their hints'
    # words, the most frequent first), or why no card at all can be (nothing_fits: the deck is full).
    why_none: tuple[str, ...] = ()
    nothing_fits: bool = False

    @property
    def total_label(self) -> str:
        """The number of matches as shown: "17", or "30+" when there is a next page (never counted)."""
        return f"{self.total}+" if self.total_capped else str(self.total)

    @property
    def shown(self) -> str:
        """The printings on this page, for the hints a change redraws (deck_card_hints)."""
        return " ".join(row.number for row in self.rows)

    @property
    def first(self) -> int:
        return self.offset + 1 if self.rows else 0

    @property
    def last(self) -> int:
        return self.offset + len(self.rows)

    @property
    def next_offset(self) -> int | None:
        if self.step is not None:
            return self.offset + self.step if self.total_capped else None
        more = self.offset + self.limit < self.total or (self.total_capped and len(self.rows) == self.limit)
        return self.offset + self.limit if more else None

    @property
    def previous_offset(self) -> int | None:
        return max(0, self.offset - self.limit) if self.offset > 0 else None


# Results per page of the card browser. Each result is judged against the deck (its add-ability
# hint) on every search and again on every change: 30 rather than 60 took about a quarter off a
# change's server time (docs/benchmarks.md), and a phone shows fewer than 30 anyway.
BROWSER_PAGE_SIZE = 30


# With "only cards this deck can use", a page of results is looked for among this many pages of
# matches per query (each match judged once by its hint): the cards left out are not shown.
USABLE_WINDOW = 4

# ... and among at most this many such queries: a next page is offered only when a card the deck can use
# was found after this one's (no link to an empty page), and a page found empty says why.
USABLE_QUERIES = 5


def deck_card_browser(
    *,
    state: JudgedDeck,
    query: str = "",
    offset: int = 0,
    limit: int = BROWSER_PAGE_SIZE,
    usable: bool = False,
    **filters: Any,
) -> CardBrowserPage:
    """One page of card search results, each with its add-ability hints against the deck.

    `filters` are card_search's (faction, type, level_min, level_max, attribute, cnt, legend,
    set_code; a game whose identity is a card searches in its own syntax, by type only). The hints
    count the deck once and test each result against that count. `usable` keeps only the results one
    more copy of which the deck can take (no blockers): by the ruler's pool, the factions so far, the
    geas's bans and the copy limits, or the game's rules, as the hints say.
    """
    from cards.selectors import card_search

    if not state.ruled:
        filters = {"type": filters.get("type"), "game": state.game.slug}
    if usable:
        return _usable_page(state, query=query, offset=offset, limit=limit, filters=filters)
    # No count: the browser says "30+" and offers the next page when the page plus one card says there is one.
    result = card_search(query=query, limit=limit, offset=offset, count_cap=0, **filters)
    rows, _ = _rows(state, result.cards, limit=limit, usable=False)
    return CardBrowserPage(rows, result.total, offset, limit, result.error, result.total_capped)


def _usable_page(state: JudgedDeck, *, query: str, offset: int, limit: int, filters: dict[str, Any]) -> CardBrowserPage:
    """A page of the cards the deck can use, from `offset` among the matches; with a next page only when one more
    such card was found beyond it, and, found none, why (the hints' words)."""
    from cards.selectors import card_search

    full = nothing_fits(state.report.summary, state.rules) if state.ruled else ()
    if full:
        # A full deck takes no card: said at once, no result judged (the search only for its error).
        result = card_search(query=query, limit=1, offset=offset, count_cap=0, **filters)
        return CardBrowserPage([], 0, offset, limit, result.error, step=0, why_none=full, nothing_fits=True)
    rows: list[BrowserRow] = []
    refused: Counter[str] = Counter()
    looked_at, error, more = 0, None, False
    for _ in range(USABLE_QUERIES):
        result = card_search(
            query=query, limit=limit * USABLE_WINDOW, offset=offset + looked_at, count_cap=0, **filters
        )
        error = error or result.error
        # One card more than the page: it says that the next page has one.
        found, seen = _rows(state, result.cards, limit=limit + 1 - len(rows), usable=True, refused=refused)
        rows += found
        looked_at += seen
        if len(rows) > limit:
            # The next page starts at that card (those between it and the page's last cannot be used).
            return CardBrowserPage(rows[:limit], limit, offset, limit, error, True, step=looked_at - 1)
        more = result.total_capped
        if not more:
            break
    why = () if rows else tuple(reason for reason, _ in refused.most_common(3))
    return CardBrowserPage(rows, len(rows), offset, limit, error, more, step=looked_at, why_none=why)


def _rows(
    state: JudgedDeck, cards: Sequence[Card], *, limit: int, usable: bool, refused: Counter[str] | None = None
) -> tuple[list[BrowserRow], int]:
    """The results (at most `limit`), and how many of `cards` were looked at to find them; `refused` counts the
    blockers of the cards left out (usable only)."""
    in_main = {e.card.name: e.printing for e in state.judgement.deck.main}
    over = _over_limit(state)
    blockers_of = _blockers_of(state)
    remembered = _remembered_blockers(state)
    known = None if state.ruled else catalog_card_facts(state.game)
    by_name = None if state.ruled else game_catalog_get(game=state.game.slug).by_name
    rows: list[BrowserRow] = []
    looked_at = 0
    ruled = state.ruled
    for card in cards:
        if len(rows) == limit:
            break
        looked_at += 1
        if known is None:
            facts = card_facts(card)
            number = in_main.get(facts.name) or _preferred_printing(facts, state.rules)
        else:
            printings = by_name[card.name]["collector_numbers"] if by_name and card.name in by_name else ()
            number = printings[0] if printings else None
            facts = known.get(number) if number is not None else None
        if facts is None or number is None:
            continue  # a card with no printing cannot be added (the importer never makes one)
        blocking = remembered.get((facts, number))
        if blocking is None:
            blocking = remembered[facts, number] = blockers_of(facts, number)
        blockers = blocking
        if usable and blockers:
            if refused is not None:
                refused.update(blockers)
            continue
        rows.append(
            BrowserRow(
                number=number,
                in_deck=state.copies.get(facts.name, 0),
                blockers=blockers,
                over_limit=facts.name in over,
                card=card,
                facts=facts,
                other_numbers=tuple(n for n in facts.collector_numbers if n != number),
                # The section a card goes in when added (the one test per game above, not a call per row).
                section=natural_section(facts) if ruled else game_natural_section(state.game, facts),
                playset=max_copies(facts, state.rules) if ruled else _copy_limit(state.game, facts),
            )
        )
    return rows, looked_at


# The blockers of the results shown, remembered per deck (at most MAX_DECKS, then cleared whole) and
# per result (at most MAX_CARDS a deck): a player searches many times between two changes, and each
# search judged the deck once for every result shown, most of a search's time (docs/benchmarks.md).
MAX_DECKS = 500
MAX_CARDS = 5_000
_Blockers = dict[tuple[CardFacts, str], tuple[str, ...]]
_blockers: dict[Hashable, tuple[object, _Blockers]] = {}


def _remembered_blockers(state: JudgedDeck) -> _Blockers:
    """The blockers worked out before for this deck under these rules (a dict to add to, within bounds).

    Keyed by everything the judgement reads: the deck's entries (each with its card's facts, so an
    import that changes a card changes the key), its attribute, and the rules in force. The rules
    are keyed by identity (cards.rules_selectors keeps one object per revision and edit), held
    in the value so that their id is never another object's while the entry lives.
    """
    deck, rules = state.judgement.deck, _rules_of(state)
    key = (id(rules), deck.main, deck.resources, deck.attribute, tuple(deck.sections.items()))
    return _held(_blockers, key, rules)


def _rules_of(state: JudgedDeck) -> object:
    """What the deck is judged by: the ruler's rules in force, or the game's data (one object per process)."""
    return state.rules if state.ruled else state.game


def _held(memo: dict[Hashable, tuple[object, dict[Any, Any]]], key: Hashable, rules: object) -> Any:
    """The dict remembered in `memo` under `key` for these very rules (a new one if there is none, if the
    rules' id is another object's, or if it is full), within MAX_DECKS keys and MAX_CARDS entries a key."""
    held = memo.get(key)
    if held is None or held[0] is not rules or len(held[1]) >= MAX_CARDS:
        if len(memo) >= MAX_DECKS:
            memo.clear()
        held = memo[key] = (rules, {})
    return held[1]


_hints: dict[Hashable, tuple[object, dict[str, tuple[str, ...]]]] = {}


def _remembered_hints(state: JudgedDeck) -> dict[str, tuple[str, ...]]:
    """A change's hints worked out before for this deck under these rules, by collector number (a dict to add to).

    Keyed by what the judged deck is made from: the catalog's version (a change's facts are the catalog
    memory's, the same for a number while the catalog is unchanged), the rules in force (by identity, held in
    the value as in _remembered_blockers) and the draft's sections and attribute, copies per collector number.
    Plain values: hashing the judged deck's entries and each card's facts cost a change that gives a deck
    never seen before more than the memory saved the others.
    """
    draft, rules = state.draft, _rules_of(state)
    key = (
        catalog_token(),
        id(rules),
        draft.game,
        tuple(draft.main.items()),
        tuple(draft.resources.items()),
        draft.attribute,
        tuple((section, tuple(counts.items())) for section, counts in draft.others.items()),
    )
    return _held(_hints, key, rules)


def _over_limit(state: JudgedDeck) -> set[str]:
    """The card names the deck holds too many copies of, from the deck's own report."""
    return {name for v in state.report.violations if v.rule == "max_copies" for name in v.cards}


def _blockers_of(state: JudgedDeck) -> Callable[[CardFacts, str], tuple[str, ...]]:
    """Why one more copy of a card cannot be added: the deck counted once, each shown card then tested against
    that count (a ruler's game: decks.rules.hints; another game: its tally, decks.rules.judge.addition_hints)."""
    if state.counted is None:
        additions = Additions.of(state.judgement.deck, state.rules, state.report)
        return lambda facts, number: tuple(additions.blockers(facts, number))
    counted, game = state.counted, state.game

    def blockers(facts: CardFacts, number: str) -> tuple[str, ...]:
        section = game_natural_section(game, facts)
        return tuple(b.wording for b in addition_hints(counted, facts, section=section, printing=number))

    return blockers


def _copy_limit(game: GameDefinition, facts: CardFacts) -> int:
    """The copies of a card its game's data allows in the section it goes in (1: no limit stated, no fill button)."""
    section = game_natural_section(game, facts)
    if any(s.identity for s in game.sections if s.key == section):
        return 1
    for rule in game.rules:
        if rule.kind == "max_copies" and section in rule.params.get("sections", game.section_keys()):
            return int(rule.params["max"])
    return 1


def deck_card_hints(*, state: JudgedDeck, numbers: Sequence[str]) -> list[CardHint]:
    """Fresh add-ability hints for printings the browser shows (after a change to the deck).

    Cheaper than searching again: the printings' facts in one flat query (none when the state
    was made with them, deck_editor_state(also=...)), then each card tested against the deck counted once, unless
    its blockers against this deck are remembered (_remembered_blockers). Unknown numbers are skipped; at most
    MAX_ALSO are tested.
    """
    numbers = list(dict.fromkeys(numbers))[:MAX_ALSO]
    known = state.judgement.facts
    facts = {**card_facts_by_number(state.judgement.game, (n for n in numbers if n not in known)), **known}
    over = _over_limit(state)
    # The blockers worked out before for this deck under these rules by an earlier change (a change undone
    # gives the deck back), by collector number.
    remembered = _remembered_hints(state)
    blockers_of: Callable[[CardFacts, str], tuple[str, ...]] | None = None  # when a card's are not remembered
    copies = state.copies
    hints = []
    for number in numbers:
        card = facts.get(number)
        if card is not None:
            blocking = remembered.get(number)
            if blocking is None:
                blockers_of = blockers_of or _blockers_of(state)
                blocking = remembered[number] = blockers_of(card, number)
            name = card.name
            hints.append(CardHint(number, copies.get(name, 0), blocking, name in over))
    return hints


def _preferred_printing(facts: CardFacts, rules: RulesInForce) -> str | None:
    """The printing to add: one in the ruler's collector-number pool if there is one, else the first."""
    pool = rules.deck.card_pool
    if pool is not None and pool.collector_number_prefixes:
        for number in facts.collector_numbers:
            if number.startswith(pool.collector_number_prefixes):
                return number
    return facts.collector_numbers[0] if facts.collector_numbers else None
