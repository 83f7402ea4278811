"""Table-driven unit tests of each check function: message (with its numbers), cards, source.

Pure engine tests (no Django). Each row runs ONE check function on a small deck; the deck
need not be legal otherwise (a check only looks at its own rule).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from decks.rules import checks
from decks.rules.engine import validate_deck
from decks.rules.registry import RULES
from decks.rules.ruleset import RulesInForce
from decks.rules.tally import Tally
from decks.rules.types import ENERGY, EVENT, FIELD, UNIT, DeckEntry, DeckSnapshot, Violation

from .deckmaker import card, deck_of, rules_for

# The rules the rows are judged by.
APPRENTICE = rules_for("Apprentice")
LONE_BANNER = rules_for("Apprentice", geas="Oath of the Lone Banner")
CENTURION = rules_for("Centurion")
DREADNAUGHT = rules_for("Dreadnaught")
UNSTOPPABLE = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
FRENZY = rules_for("Frenzy")
HIGHLANDER_2020 = rules_for("Highlander", 2020)
HIGHLANDER_2023 = rules_for("Highlander", 2023)
KNIGHT = rules_for("Knight")
UNDAUNTED = rules_for("Knight", geas="Oath of the Undaunted Champion")
OVERLORD = rules_for("Overlord")
TRUE_KING = rules_for("Overlord", geas="Oath of the True King")
SHURIKEN = rules_for("Shuriken")
JANKEN = rules_for("Janken Junkie")
EXVADER = rules_for("Exvader")
WM_ALPHA_2020 = rules_for("World Master Alpha 2020", 2020)
WM_ALPHA_2023 = rules_for("World Master Alpha 2020", 2023)

ENERGY_CARD = card("Basic Energy", ENERGY)
RPS_TEXT = "Play a round of Rock-Paper-Scissors. If you win, draw 1 card."


@dataclass(frozen=True)
class Expect:
    rule: str
    message: str
    cards: tuple[str, ...]
    source: str | re.Pattern[str]


@dataclass(frozen=True)
class Row:
    id: str
    check: Callable[[Tally, RulesInForce], list[Violation]]
    rules: RulesInForce
    deck: DeckSnapshot
    expected: tuple[Expect, ...] = ()


def levels(*pairs: tuple[str, int, int], cnt: bool = False) -> tuple:
    """Entries (name, level, copies) of plain events."""
    return tuple((card(n, EVENT, level=lv, cnt=cnt), c) for n, lv, c in pairs)


def filler(n: int, faction: str = "Crimson", stem: str = "Filler") -> tuple:
    return tuple((card(f"{stem} {i:02d}", EVENT, faction=faction), 1) for i in range(n))


def cnt_cards(n: int) -> tuple:
    """n CNT cards in copies of 4 (names Counter A, Counter B, ...)."""
    out = []
    for i in range(0, n, 4):
        out.append((card(f"Counter {chr(65 + i // 4)}", EVENT, cnt=True), min(4, n - i)))
    return tuple(out)


def counter_names(n: int) -> tuple[str, ...]:
    return tuple(f"Counter {chr(65 + i // 4)}" for i in range(0, n, 4))


def legends(n: int, copies: int = 1) -> tuple:
    return tuple((card(f"Legend {chr(65 + i)}", UNIT, legend=True), copies) for i in range(n))


def printed(name: str, *numbers: str) -> object:
    return card(name, UNIT, faction="Crimson", collector_numbers=numbers)


TWIN = card("Twin Knight", UNIT, collector_numbers=("GR01-001", "MD01-002"))
PLAIN_ONLY = card("Plain Knight", UNIT, collector_numbers=("GR01-003",))

ROWS: list[Row] = [
    # ---- deck size
    Row("deck_size-50", checks.check_deck_size, APPRENTICE, deck_of(*filler(50))),
    Row(
        "deck_size-49",
        checks.check_deck_size,
        APPRENTICE,
        deck_of(*filler(49)),
        (
            Expect(
                "deck_size",
                "The deck has 49 cards; Apprentice's deck must have exactly 50.",
                (),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "deck_size-51",
        checks.check_deck_size,
        APPRENTICE,
        deck_of(*filler(51)),
        (
            Expect(
                "deck_size",
                "The deck has 51 cards; Apprentice's deck must have exactly 50.",
                (),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "deck_size-1",
        checks.check_deck_size,
        KNIGHT,
        deck_of(*filler(1)),
        (
            Expect(
                "deck_size",
                "The deck has 1 card; Knight's deck must have exactly 50.",
                (),
                "Knight's rule",
            ),
        ),
    ),
    # ---- card types
    Row(
        "card_type-energy_in_main",
        checks.check_card_type,
        KNIGHT,
        deck_of((ENERGY_CARD, 1), *filler(2), resources=[(ENERGY_CARD, 3)]),
        (
            Expect(
                "card_type",
                "Energy cards are not put into the deck: Basic Energy.",
                ("Basic Energy",),
                "card types",
            ),
        ),
    ),
    Row(
        "card_type-unit_in_resources",
        checks.check_card_type,
        KNIGHT,
        deck_of(
            *filler(2),
            resources=[(ENERGY_CARD, 2), (card("Stray Unit", UNIT), 1)],
        ),
        (
            Expect(
                "card_type",
                "Only energy cards can be resource cards: Stray Unit.",
                ("Stray Unit",),
                "card types",
            ),
        ),
    ),
    Row(
        "card_type-field_in_resources-and-energy_in_main",
        checks.check_card_type,
        KNIGHT,
        deck_of(
            (ENERGY_CARD, 1),
            resources=[(card("Stray Field", FIELD), 1), (card("Stray Unit", UNIT), 1)],
        ),
        (
            Expect(
                "card_type",
                "Energy cards are not put into the deck: Basic Energy.",
                ("Basic Energy",),
                "card types",
            ),
            Expect(
                "card_type",
                "Only energy cards can be resource cards: Stray Field, Stray Unit.",
                ("Stray Field", "Stray Unit"),
                "card types",
            ),
        ),
    ),
    Row(
        "card_type-ok",
        checks.check_card_type,
        KNIGHT,
        deck_of(*filler(3), resources=[(ENERGY_CARD, 3)]),
    ),
    # ---- factions
    Row(
        "max_factions-2-of-2",
        checks.check_max_factions,
        APPRENTICE,
        deck_of(*filler(3, "Crimson", "Red"), *filler(1, "Azure", "Blue")),
    ),
    Row(
        "max_factions-3-of-2",
        checks.check_max_factions,
        APPRENTICE,
        deck_of(
            *filler(3, "Crimson", "Red"),
            *filler(2, "Azure", "Blue"),
            *filler(1, "Verdant", "Green"),
        ),
        (
            Expect(
                "max_factions",
                "The deck has 3 factions (Azure, Crimson, Verdant); Apprentice allows at most 2.",
                ("Green 00",),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "max_factions-lone_banner-1",
        checks.check_max_factions,
        LONE_BANNER,
        deck_of(*filler(3, "Crimson", "Red")),
    ),
    Row(
        "max_factions-lone_banner-2",
        checks.check_max_factions,
        LONE_BANNER,
        deck_of(*filler(3, "Crimson", "Red"), *filler(1, "Azure", "Blue")),
        (
            Expect(
                "max_factions",
                "The deck has 2 factions (Azure, Crimson); Apprentice allows at most 1.",
                ("Blue 00",),
                re.compile(r"set by Oath of the Lone Banner; Apprentice's own faction limit is \D*2"),
            ),
        ),
    ),
    Row(
        "max_factions-centurion-units-any",
        checks.check_max_factions,
        CENTURION,
        deck_of(
            *((card(f"Unit {f}", UNIT, faction=f), 1) for f in ("Crimson", "Azure", "Verdant", "Amber")),
            *filler(2, "Crimson", "Red"),
        ),
    ),
    Row(
        "max_factions-centurion-non_units-2",
        checks.check_max_factions,
        CENTURION,
        deck_of(
            (card("Unit Azure", UNIT, faction="Azure"), 4),
            *filler(2, "Crimson", "Red"),
            (card("Blue Field", FIELD, faction="Azure"), 1),
        ),
        (
            Expect(
                "max_factions",
                "The deck has 2 factions among cards other than units (Azure, Crimson); Centurion allows at most 1.",
                ("Blue Field",),
                "Centurion's rule",
            ),
        ),
    ),
    Row(
        "max_factions-exvader-unlimited",
        checks.check_max_factions,
        EXVADER,
        deck_of(
            *((card(f"Unit {f}", UNIT, faction=f), 1) for f in ("Exvader", "Crimson", "Azure", "Verdant", "Amber"))
        ),
    ),
    Row(
        "max_factions-energy_has_no_faction",
        checks.check_max_factions,
        LONE_BANNER,
        deck_of(*filler(2), (ENERGY_CARD, 1)),
    ),
    # ---- the chosen unit attribute
    Row(
        "unit_attribute-all_have_it",
        checks.check_unit_attribute,
        CENTURION,
        deck_of(
            (card("Drake", UNIT, attributes={"Dragon"}), 4),
            (card("Wyrm", UNIT, attributes={"Dragon", "Beast"}), 4),
            (card("Spell", EVENT), 4),
            attribute="Dragon",
        ),
    ),
    Row(
        "unit_attribute-missing",
        checks.check_unit_attribute,
        CENTURION,
        deck_of(
            (card("Drake", UNIT, attributes={"Dragon"}), 4),
            (card("Golem", UNIT, attributes={"Machine"}), 1),
            (card("Soldier", UNIT), 1),
            (card("Spell", EVENT), 4),
            attribute="Dragon",
        ),
        (
            Expect(
                "unit_attribute",
                "2 units without the chosen attribute Dragon: Golem, Soldier.",
                ("Golem", "Soldier"),
                "Centurion's rule",
            ),
        ),
    ),
    Row(
        "unit_attribute-none_chosen",
        checks.check_unit_attribute,
        CENTURION,
        deck_of(
            (card("Drake", UNIT, attributes={"Dragon"}), 4),
            (card("Spell", EVENT), 4),
        ),
        (
            Expect(
                "unit_attribute",
                "Centurion needs a chosen unit attribute: every unit in the deck must have it.",
                ("Drake",),
                "Centurion's rule",
            ),
        ),
    ),
    Row(
        "unit_attribute-not_required",
        checks.check_unit_attribute,
        APPRENTICE,
        deck_of((card("Soldier", UNIT), 4)),
    ),
    # ---- copies
    Row(
        "max_copies-4",
        checks.check_max_copies,
        APPRENTICE,
        deck_of((card("Staple"), 4)),
    ),
    Row(
        "max_copies-5",
        checks.check_max_copies,
        APPRENTICE,
        deck_of(
            DeckEntry(card("Staple"), 3, "GR01-001"),
            DeckEntry(card("Staple"), 2, "GR01-002"),
        ),
        (
            Expect(
                "max_copies",
                "5 copies of Staple; Apprentice allows at most 4.",
                ("Staple",),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "max_copies-highlander-2",
        checks.check_max_copies,
        HIGHLANDER_2023,
        deck_of((card("Staple"), 2), (card("Single"), 1)),
        (
            Expect(
                "max_copies",
                "2 copies of Staple; Highlander allows at most 1.",
                ("Staple",),
                "Highlander's rule",
            ),
        ),
    ),
    Row(
        "max_copies-janken-rps-6",
        checks.check_max_copies,
        JANKEN,
        deck_of((card("Janken Master", text=RPS_TEXT), 6), (card("Staple"), 4)),
    ),
    Row(
        "max_copies-janken-rps-7",
        checks.check_max_copies,
        JANKEN,
        deck_of((card("Janken Master", text=RPS_TEXT), 7)),
        (
            Expect(
                "max_copies",
                "7 copies of Janken Master; Janken Junkie allows at most 6.",
                ("Janken Master",),
                "Janken Junkie's rule",
            ),
        ),
    ),
    Row(
        "max_copies-janken-other-5",
        checks.check_max_copies,
        JANKEN,
        deck_of(
            (card("Janken Master", text=RPS_TEXT), 6),
            (card("Paper Tiger", text="Rock, paper or scissors? Neither."), 5),
        ),
        (
            Expect(
                "max_copies",
                "5 copies of Paper Tiger; Janken Junkie allows at most 4.",
                ("Paper Tiger",),
                "Janken Junkie's rule",
            ),
        ),
    ),
    Row(
        "max_copies-rps-elsewhere-is-4",
        checks.check_max_copies,
        APPRENTICE,
        deck_of((card("Janken Master", text=RPS_TEXT), 5)),
        (
            Expect(
                "max_copies",
                "5 copies of Janken Master; Apprentice allows at most 4.",
                ("Janken Master",),
                "Apprentice's rule",
            ),
        ),
    ),
    # ---- legends
    Row(
        "legend_cap-2-of-2",
        checks.check_legend_cap,
        APPRENTICE,
        deck_of(*legends(2)),
    ),
    Row(
        "legend_cap-3-of-2",
        checks.check_legend_cap,
        APPRENTICE,
        deck_of(*legends(3)),
        (
            Expect(
                "legend_cap",
                "The deck has 3 legendary cards (Legend A, Legend B, Legend C); Apprentice allows at most 2.",
                ("Legend A", "Legend B", "Legend C"),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "legend_cap-counts_names_not_copies",
        checks.check_legend_cap,
        APPRENTICE,
        deck_of(*legends(2, copies=3)),
    ),
    Row(
        "legend_cap-frenzy-2-of-1",
        checks.check_legend_cap,
        FRENZY,
        deck_of(*legends(2)),
        (
            Expect(
                "legend_cap",
                "The deck has 2 legendary cards (Legend A, Legend B); Frenzy allows at most 1.",
                ("Legend A", "Legend B"),
                "Frenzy's rule",
            ),
        ),
    ),
    Row(
        "legend_cap-world_master-none",
        checks.check_legend_cap,
        WM_ALPHA_2020,
        deck_of(*legends(1)),
        (
            Expect(
                "legend_cap",
                "The deck has 1 legendary card (Legend A); World Master Alpha 2020 allows none.",
                ("Legend A",),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "legend_cap-highlander-2020-3",
        checks.check_legend_cap,
        HIGHLANDER_2020,
        deck_of(*legends(3)),
        (
            Expect(
                "legend_cap",
                "The deck has 3 legendary cards (Legend A, Legend B, Legend C); Highlander allows at most 2.",
                ("Legend A", "Legend B", "Legend C"),
                "Highlander's rule",
            ),
        ),
    ),
    Row(
        "legend_cap-highlander-2023-3",
        checks.check_legend_cap,
        HIGHLANDER_2023,
        deck_of(*legends(3)),
    ),
    Row(
        "legend_copies-1",
        checks.check_legend_copies,
        APPRENTICE,
        deck_of(*legends(2)),
    ),
    Row(
        "legend_copies-2",
        checks.check_legend_copies,
        APPRENTICE,
        deck_of(*legends(1), (card("Legend B", UNIT, legend=True), 2)),
        (
            Expect(
                "legend_copies",
                "2 copies of the legendary card Legend B; Apprentice allows at most 1.",
                ("Legend B",),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "legend_copies-non_legend_4",
        checks.check_legend_copies,
        APPRENTICE,
        deck_of((card("Staple"), 4)),
    ),
    Row(
        "legend_copies-highlander-2020-not_stated",
        checks.check_legend_copies,
        HIGHLANDER_2020,
        deck_of(*legends(1, copies=2)),
    ),
    # ---- level cap
    Row(
        "level_cap-50-of-50",
        checks.check_level_cap,
        APPRENTICE,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 2))),
    ),
    Row(
        "level_cap-53-of-50",
        checks.check_level_cap,
        APPRENTICE,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 2), ("One", 1, 3), ("Zero", 0, 4))),
        (
            Expect(
                "level_cap",
                "Deck level 53 is over Apprentice's cap of 50.",
                ("Five", "One", "Ten"),
                "Apprentice's rule",
            ),
        ),
    ),
    Row(
        "level_cap-negative_levels_count_down",
        checks.check_level_cap,
        APPRENTICE,
        deck_of(*levels(("Ten", 10, 4), ("Eleven", 11, 1), ("Debt", -1, 1))),
    ),
    Row(
        "level_cap-dreadnaught-60",
        checks.check_level_cap,
        DREADNAUGHT,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 4))),
    ),
    Row(
        "level_cap-dreadnaught-61",
        checks.check_level_cap,
        DREADNAUGHT,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 4), ("One", 1, 1))),
        (
            Expect(
                "level_cap",
                "Deck level 61 is over Dreadnaught's cap of 60.",
                ("Five", "One", "Ten"),
                "Dreadnaught's rule",
            ),
        ),
    ),
    Row(
        "level_cap-unstoppable-50",
        checks.check_level_cap,
        UNSTOPPABLE,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 2))),
    ),
    Row(
        "level_cap-unstoppable-51",
        checks.check_level_cap,
        UNSTOPPABLE,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 2), ("One", 1, 1))),
        (
            Expect(
                "level_cap",
                "Deck level 51 is over Dreadnaught's cap of 50.",
                ("Five", "One", "Ten"),
                "set by Oath of the Unstoppable Advance; Dreadnaught's own level cap is 60",
            ),
        ),
    ),
    Row(
        "level_cap-lone_banner-55",
        checks.check_level_cap,
        LONE_BANNER,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 3))),
    ),
    Row(
        "level_cap-lone_banner-56",
        checks.check_level_cap,
        LONE_BANNER,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 3), ("One", 1, 1))),
        (
            Expect(
                "level_cap",
                "Deck level 56 is over Apprentice's cap of 55.",
                ("Five", "One", "Ten"),
                "set by Oath of the Lone Banner; Apprentice's own level cap is 50",
            ),
        ),
    ),
    Row(
        "level_cap-true_king-71",
        checks.check_level_cap,
        TRUE_KING,
        deck_of(*levels(("Ten", 10, 4), ("Five", 5, 4), ("Eleven", 11, 1))),
        (
            Expect(
                "level_cap",
                "Deck level 71 is over Overlord's cap of 70.",
                ("Eleven", "Five", "Ten"),
                "set by Oath of the True King; Overlord's own level cap is 60",
            ),
        ),
    ),
    Row(
        "level_cap-knight-unlimited",
        checks.check_level_cap,
        KNIGHT,
        deck_of(*levels(("Ten", 10, 4), ("Nine", 9, 4), ("Eight", 8, 40))),
    ),
    # ---- CNT cap
    Row("cnt_cap-16-of-16", checks.check_cnt_cap, APPRENTICE, deck_of(*cnt_cards(16))),
    Row(
        "cnt_cap-17-of-16",
        checks.check_cnt_cap,
        APPRENTICE,
        deck_of(*cnt_cards(17), *filler(3)),
        (
            Expect(
                "cnt_cap",
                "The deck has 17 CNT cards; Apprentice's CNT cap is 16.",
                counter_names(17),
                "Apprentice's rule",
            ),
        ),
    ),
    Row("cnt_cap-undaunted-8", checks.check_cnt_cap, UNDAUNTED, deck_of(*cnt_cards(8))),
    Row(
        "cnt_cap-undaunted-9",
        checks.check_cnt_cap,
        UNDAUNTED,
        deck_of(*cnt_cards(9)),
        (
            Expect(
                "cnt_cap",
                "The deck has 9 CNT cards; Knight's CNT cap is 8.",
                counter_names(9),
                "set by Oath of the Undaunted Champion; Knight's own CNT cap is 16",
            ),
        ),
    ),
    Row("cnt_cap-knight-16", checks.check_cnt_cap, KNIGHT, deck_of(*cnt_cards(16))),
    Row(
        "cnt_cap-highlander-2023-20",
        checks.check_cnt_cap,
        HIGHLANDER_2023,
        deck_of(*cnt_cards(20)),
    ),
    Row(
        "cnt_cap-highlander-2020-17",
        checks.check_cnt_cap,
        HIGHLANDER_2020,
        deck_of(*cnt_cards(17)),
        (
            Expect(
                "cnt_cap",
                "The deck has 17 CNT cards; Highlander's CNT cap is 16.",
                counter_names(17),
                "Highlander's rule",
            ),
        ),
    ),
    # ---- negative levels
    Row(
        "negative_level-frenzy",
        checks.check_negative_level,
        FRENZY,
        deck_of(*levels(("Imp", -1, 1), ("Zero", 0, 4), ("Hag", -2, 1))),
        (
            Expect(
                "negative_level",
                "Frenzy cannot have cards with a negative level: Hag, Imp.",
                ("Hag", "Imp"),
                "Frenzy's rule",
            ),
        ),
    ),
    Row(
        "negative_level-frenzy-zero_is_fine",
        checks.check_negative_level,
        FRENZY,
        deck_of(*levels(("Zero", 0, 4)), (ENERGY_CARD, 1)),
    ),
    Row(
        "negative_level-apprentice-allowed",
        checks.check_negative_level,
        APPRENTICE,
        deck_of(*levels(("Imp", -1, 1))),
    ),
    # ---- card pool
    Row(
        "card_pool-exvader-in",
        checks.check_card_pool,
        EXVADER,
        deck_of(
            (card("Void Spawn", UNIT, faction="Exvader"), 4),
            (card("Turncoat", UNIT, faction="Crimson", attributes={"Betrayal"}), 4),
            (card("Defiler", EVENT, faction="Azure", attributes={"Desecrate"}), 4),
        ),
    ),
    Row(
        "card_pool-exvader-out",
        checks.check_card_pool,
        EXVADER,
        deck_of(
            (card("Void Spawn", UNIT, faction="Exvader"), 4),
            (card("Loyal Guard", UNIT, faction="Crimson", attributes={"Human"}), 4),
            (card("Prayer", EVENT, faction="Azure"), 1),
        ),
        (
            Expect(
                "card_pool",
                "Exvader can only use cards with the Exvader faction, or the Betrayal or "
                "Desecrate attribute; not in the pool: Loyal Guard, Prayer.",
                ("Loyal Guard", "Prayer"),
                "Exvader's rule",
            ),
        ),
    ),
    Row(
        "card_pool-wm2020-md_and_2020",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of(
            (printed("Demo Knight", "MD01-001"), 4),
            (printed("Starter Knight", "2020-010"), 4),
        ),
    ),
    Row(
        "card_pool-wm2020-out",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of((printed("Demo Knight", "MD01-001"), 4), (PLAIN_ONLY, 1)),
        (
            Expect(
                "card_pool",
                'World Master Alpha 2020 can only use cards with a collector number starting with "MD" or '
                '"2020"; not in the pool: Plain Knight.',
                ("Plain Knight",),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "card_pool-wm2020-no_printing_named",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of((TWIN, 4)),
    ),
    Row(
        "card_pool-wm2020-pool_printing_named",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of(DeckEntry(TWIN, 4, "MD01-002")),
    ),
    Row(
        "card_pool-wm2020-other_printing_named",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of(DeckEntry(TWIN, 4, "GR01-001")),
        (
            Expect(
                "card_pool",
                'World Master Alpha 2020 can only use cards with a collector number starting with "MD" or '
                '"2020"; not in the pool: Twin Knight.',
                ("Twin Knight",),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "card_pool-wm2020-both_printings_named",
        checks.check_card_pool,
        WM_ALPHA_2020,
        deck_of(DeckEntry(TWIN, 2, "MD01-002"), DeckEntry(TWIN, 2, "GR01-001")),
        (
            Expect(
                "card_pool",
                'World Master Alpha 2020 can only use cards with a collector number starting with "MD" or '
                '"2020"; not in the pool: Twin Knight.',
                ("Twin Knight",),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "card_pool-wm2023-same_name",
        checks.check_card_pool,
        WM_ALPHA_2023,
        deck_of(DeckEntry(TWIN, 4, "GR01-001")),
    ),
    Row(
        "card_pool-wm2023-out",
        checks.check_card_pool,
        WM_ALPHA_2023,
        deck_of(DeckEntry(PLAIN_ONLY, 1, "GR01-003")),
        (
            Expect(
                "card_pool",
                'World Master Alpha 2020 can only use cards with a collector number starting with "MD" or '
                '"2020" (or the same name as such a card); not in the pool: Plain Knight.',
                ("Plain Knight",),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "card_pool-apprentice-none",
        checks.check_card_pool,
        APPRENTICE,
        deck_of((PLAIN_ONLY, 4)),
    ),
    # ---- faction quota
    Row(
        "faction_quota-12",
        checks.check_faction_quota,
        WM_ALPHA_2020,
        deck_of(*filler(12, "Crimson", "Red"), *filler(12, "Azure", "Blue")),
    ),
    Row(
        "faction_quota-13",
        checks.check_faction_quota,
        WM_ALPHA_2020,
        deck_of(
            *filler(2, "Crimson", "Red")[:1],
            (card("Red Trio", faction="Crimson"), 4),
            (card("Red Quad", faction="Crimson"), 4),
            (card("Red Four", faction="Crimson"), 4),
            *filler(12, "Azure", "Blue"),
        ),
        (
            Expect(
                "faction_quota",
                "13 cards from Crimson; World Master Alpha 2020 allows at most 12 cards from each faction.",
                ("Red 00", "Red Four", "Red Quad", "Red Trio"),
                "World Master Alpha 2020's rule",
            ),
        ),
    ),
    Row(
        "faction_quota-none-for-apprentice",
        checks.check_faction_quota,
        APPRENTICE,
        deck_of(*filler(30, "Crimson", "Red")),
    ),
    # ---- banned cards
    Row(
        "banned_card-unstoppable",
        checks.check_banned_card,
        UNSTOPPABLE,
        deck_of((card("Sludge Zombie", UNIT), 1), *filler(3)),
        (
            Expect(
                "banned_card",
                "Sludge Zombie cannot be in the deck.",
                ("Sludge Zombie",),
                "banned by Oath of the Unstoppable Advance",
            ),
        ),
    ),
    Row(
        "banned_card-dreadnaught-allows",
        checks.check_banned_card,
        DREADNAUGHT,
        deck_of((card("Sludge Zombie", UNIT), 4)),
    ),
    # ---- resource cards
    Row(
        "resource_cards-overlord-3",
        checks.check_resource_cards,
        OVERLORD,
        deck_of(resources=[(ENERGY_CARD, 3)]),
    ),
    Row(
        "resource_cards-overlord-2",
        checks.check_resource_cards,
        OVERLORD,
        deck_of(resources=[(ENERGY_CARD, 2)]),
        (
            Expect(
                "resource_cards",
                "Overlord prepares exactly 3 resource cards besides the deck; there are 2.",
                ("Basic Energy",),
                "Overlord's rule",
            ),
        ),
    ),
    Row(
        "resource_cards-true_king-2",
        checks.check_resource_cards,
        TRUE_KING,
        deck_of(resources=[(ENERGY_CARD, 2)]),
    ),
    Row(
        "resource_cards-true_king-3",
        checks.check_resource_cards,
        TRUE_KING,
        deck_of(resources=[(ENERGY_CARD, 3)]),
        (
            Expect(
                "resource_cards",
                "Overlord prepares exactly 2 resource cards besides the deck; there are 3.",
                ("Basic Energy",),
                "set by Oath of the True King; Overlord's own number of resource cards is 3",
            ),
        ),
    ),
    Row(
        "resource_cards-true_king-none",
        checks.check_resource_cards,
        TRUE_KING,
        deck_of(),
        (
            Expect(
                "resource_cards",
                "Overlord prepares exactly 2 resource cards besides the deck; there are 0.",
                (),
                "set by Oath of the True King; Overlord's own number of resource cards is 3",
            ),
        ),
    ),
    Row(
        "resource_cards-shuriken-2",
        checks.check_resource_cards,
        SHURIKEN,
        deck_of(resources=[(ENERGY_CARD, 2)]),
    ),
    Row(
        "resource_cards-apprentice-0",
        checks.check_resource_cards,
        APPRENTICE,
        deck_of(*filler(2)),
    ),
    Row(
        "resource_cards-apprentice-1",
        checks.check_resource_cards,
        APPRENTICE,
        deck_of(resources=[(ENERGY_CARD, 1)]),
        (
            Expect(
                "resource_cards",
                "Apprentice prepares no resource cards; remove the 1 resource card.",
                ("Basic Energy",),
                "Apprentice's rule",
            ),
        ),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_check(row: Row) -> None:
    violations = row.check(Tally.of(row.deck), row.rules)
    assert len(violations) == len(row.expected), [v.message for v in violations]
    for got, want in zip(violations, row.expected, strict=True):
        assert got.rule == want.rule
        assert got.message == want.message
        assert got.cards == want.cards
        if isinstance(want.source, re.Pattern):
            assert want.source.fullmatch(got.source), got.source
        else:
            assert got.source == want.source


def test_every_check_has_rows() -> None:
    tested = {row.check for row in ROWS}
    assert {rule.check for rule in RULES} == tested


def test_each_check_reports_the_code_of_its_registry_entry() -> None:
    code_of = {rule.check: rule.code for rule in RULES}
    for row in ROWS:
        assert {want.rule for want in row.expected} <= {code_of[row.check]}, row.id


def test_rule_codes() -> None:
    codes = {row.expected[0].rule for row in ROWS if row.expected}
    assert codes == {
        "deck_size",
        "max_factions",
        "unit_attribute",
        "max_copies",
        "legend_cap",
        "legend_copies",
        "level_cap",
        "cnt_cap",
        "negative_level",
        "card_pool",
        "faction_quota",
        "banned_card",
        "resource_cards",
        "card_type",
    }


def test_the_engine_reports_every_check_at_once() -> None:
    """validate_deck runs every check and keeps all their violations, in the registry's order."""
    deck = deck_of(
        *levels(("Ten", 10, 5), ("Two", 2, 1), ("Imp", -1, 1)),
        *cnt_cards(17),
        *legends(3),
        (ENERGY_CARD, 1),
        (card("Sludge Zombie", UNIT, faction="Azure"), 1),
        (card("Stranger", faction="Verdant"), 1),
        resources=[(card("Stray Unit", UNIT), 1)],
    )
    report = validate_deck(deck, UNSTOPPABLE)
    assert [v.rule for v in report.violations] == [
        "deck_size",
        "card_type",
        "card_type",
        "max_factions",
        "max_copies",
        "legend_cap",
        "level_cap",
        "cnt_cap",
        "banned_card",
        "resource_cards",
    ]
    sources = {v.rule: v.source for v in report.violations}
    assert sources["level_cap"] == ("set by Oath of the Unstoppable Advance; Dreadnaught's own level cap is 60")
    assert sources["cnt_cap"] == "Dreadnaught's rule"
    assert sources["banned_card"] == "banned by Oath of the Unstoppable Advance"
    assert report.summary.size == 5 + 1 + 1 + 17 + 3 + 1 + 1 + 1
    assert report.summary.level == 51
    assert report.summary.cnt == 17
    assert report.summary.legends == 3
    assert report.summary.resources == 1


def test_janken_junkie_six_rock_paper_scissors_is_legal_seven_is_not() -> None:
    from .deckmaker import DeckMaker, add_copies, remove_copies

    maker = DeckMaker(JANKEN)
    rps = maker.with_role("exception")[0]
    assert "Rock-Paper-Scissors" in rps.text
    assert validate_deck(maker.deck, JANKEN).legal
    seven = maker.swap_in(rps)
    assert validate_deck(seven, JANKEN).rules_broken() == {"max_copies"}
    staple = maker.with_role("max")[0]
    five = add_copies(remove_copies(maker.deck, maker.filler().name), staple)
    report = validate_deck(five, JANKEN)
    assert [v.message for v in report.violations] == [f"5 copies of {staple.name}; Janken Junkie allows at most 4."]
