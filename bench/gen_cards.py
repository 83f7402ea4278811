"""Generate synthetic Gate Ruler set files of any size, for benchmarks (pure Python, no Django).

    .venv/bin/python bench/gen_cards.py --printings 20000 --factions 12 --format json --out /tmp/cards

writes one set file per `--set-size` printings (default 1000) in the import format of
cards/importers/parsing.py (JSON ``{"set": {...}, "cards": [...]}`` or CSV with the same keys
plus set_code, set_name, release_date). Every card is fictional; the files say so in every
set name ("synthetic benchmark set").

What the data holds, so the import does realistic work:

- printings in booster (``2026BS01-0001``), starter deck (``2026SD01-0001``) and master deck
  (``MD01-0001``) sets, four sets a year, one release date per set;
- reprints (``--reprints``, default 15 % of printings): the same name printed again, in the
  same or a later set, with identical rules fields and its own collector number and rarity;
- units, events, fields and energy cards (energy: no faction, no level), levels from -5 to 10
  (some negative), ATK/HP/STK on units, CNT cards, legends, 0-3 attributes, Japanese names on
  about a third of the cards, texts with commas, quotes and line breaks (CSV quoting);
- exactly `--printings` printings and exactly `--factions` factions (the first cards cover
  every faction; the real faction names first, then invented ones).

Deterministic and streaming: a card's rules fields come from a random generator seeded with
(seed, card number), so a reprint recomputes them instead of remembering earlier cards, and
rows are written as they are made. The same arguments give byte-identical files, in any
process, on any machine (nothing depends on hash seeds, dates or the locale).
"""

from __future__ import annotations

import argparse
import bisect
import csv
import functools
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

FORMATS = ("json", "csv")
CARD_KEYS = (
    "number",
    "name",
    "name_ja",
    "type",
    "faction",
    "attributes",
    "level",
    "atk",
    "hp",
    "stk",
    "cnt",
    "legend",
    "rarity",
    "text",
)
CSV_COLUMNS = ("set_code", "set_name", "release_date", *CARD_KEYS)
SET_SUFFIX = "(synthetic benchmark set)"

# The five real factions first (as data/factions.json names them), then invented ones.
FACTIONS = (
    "Volnar",
    "Yomajin Front",
    "ATLAS",
    "Wonderverse",
    "侵略次元",
    "Azure Covenant",
    "Iron Dominion",
    "Verdant Circle",
    "Ashen Legion",
    "Starfall Choir",
    "Tidebound Court",
    "Clockwork Syndicate",
    "Hollow Crown",
    "Ember Pact",
    "Frost Wardens",
    "Silent Bloom",
)

ATTRIBUTES = (
    "Accident",
    "Angel",
    "Beast",
    "Betrayal",
    "Construct",
    "Demon",
    "Desecrate",
    "Dragon",
    "Elf",
    "Fairy",
    "Ghost",
    "Giant",
    "Hero",
    "Human",
    "Insect",
    "Knight",
    "Machine",
    "Mage",
    "Mercenary",
    "Ninja",
    "Oni",
    "Pirate",
    "Plant",
    "Ritual",
    "Robot",
    "Samurai",
    "Soldier",
    "Spirit",
    "Undead",
    "Vampire",
    "Warrior",
    "Yokai",
)

# Names: ADJECTIVES x NOUNS x EPITHETS distinct bases, permuted so neighbours differ.
ADJECTIVES = (
    "Amber", "Ancient", "Arcane", "Ashen", "Azure", "Blazing", "Bronze", "Burning",
    "Celestial", "Cobalt", "Crimson", "Crystal", "Cursed", "Dawn", "Dire", "Dread",
    "Dusk", "Ebon", "Echoing", "Eternal", "Feral", "Fervent", "Frost", "Gilded",
    "Gloom", "Golden", "Grand", "Grim", "Hallowed", "Hidden", "Hollow", "Iron",
    "Ivory", "Jade", "Lunar", "Molten", "Mystic", "Nimble", "Obsidian", "Pale",
    "Primal", "Radiant", "Restless", "Roaring", "Rune", "Sable", "Scarlet", "Shadow",
    "Silent", "Silver", "Solar", "Storm", "Swift", "Thorned", "Thunder", "Twilight",
    "Valiant", "Verdant", "Vile", "Wandering", "Wild", "Winter", "Woven", "Zealous",
)  # fmt: skip
NOUNS = (
    "Alchemist", "Archer", "Automaton", "Bastion", "Beacon", "Behemoth", "Blade", "Brute",
    "Champion", "Chimera", "Colossus", "Covenant", "Crusader", "Drake", "Duelist", "Emissary",
    "Envoy", "Fang", "Gargoyle", "Golem", "Griffin", "Guardian", "Harbinger", "Herald",
    "Hound", "Hydra", "Invoker", "Juggernaut", "Kitsune", "Lancer", "Leviathan", "Lich",
    "Marauder", "Monk", "Oracle", "Paladin", "Phantom", "Phoenix", "Pilgrim", "Prophet",
    "Raider", "Ranger", "Reaver", "Revenant", "Rogue", "Sage", "Sentinel", "Seraph",
    "Shaman", "Siren", "Sorcerer", "Specter", "Sphinx", "Strider", "Tactician", "Tengu",
    "Titan", "Trickster", "Vanguard", "Warden", "Witch", "Wraith", "Wyvern", "Zealot",
)  # fmt: skip
EPITHETS = (
    "", "of the Gate", "of the Abyss", "of the Dawn", "of the Deep", "of the Vale",
    "of Ruin", "of Embers", "of the North", "of the Tides", "of Thorns", "of the Storm",
    "of Echoes", "of the Void", "of Blades", "of the Moon", "the Undying", "the Bold",
    "the Betrayer", "the Exiled", "the Lost", "the Unbroken", "the Wise", "the Hungry",
    "Reborn", "Ascendant", "Unleashed", "Unbound", "Awakened", "Eternal", "Prime", "Zero",
)  # fmt: skip
NAME_MULTIPLIER = 40503  # odd, so a bijection modulo the power of two below
NAME_SPACE = len(ADJECTIVES) * len(NOUNS) * len(EPITHETS)  # 131 072
assert NAME_SPACE & (NAME_SPACE - 1) == 0, "NAME_SPACE must be a power of two"

JA_ADJECTIVES = (
    "紅蓮", "蒼穹", "漆黒", "黄金", "白銀", "翡翠", "雷鳴", "氷結",
    "灼熱", "幻影", "古代", "神聖", "暗黒", "疾風", "鋼鉄", "月光",
)  # fmt: skip
JA_NOUNS = (
    "ドラゴン", "ナイト", "ゴーレム", "ウィッチ", "サムライ", "ニンジャ", "フェニックス", "ガーディアン",
    "オラクル", "レイス", "タイタン", "ハウンド", "シャーマン", "センチネル", "ヒドラ", "グリフォン",
)  # fmt: skip

TEXTS = {
    "unit": (
        "When this unit enters, deal {n} damage to a unit.",
        "[Attack] This unit gets +{n} ATK until end of turn.",
        "When this unit is destroyed, draw {n} card(s).",
        'Other "{attr}" units you control get +{n} HP.',
        "[Main] Pay {n} life: this unit can't be blocked this turn.",
        "Guard.\nWhen this unit blocks, it gets +{n} ATK.",
    ),
    "event": (
        "Deal {n} damage to a unit, then draw a card.",
        "Destroy a unit with level {n} or less.",
        "Draw {n} card(s), then discard 1 card.",
        'Search your deck for a "{attr}" card, reveal it and put it into your hand.',
        "Play Rock-Paper-Scissors; if you win, deal {n} damage to your opponent.",
        "Return a unit to its owner's hand.\nYou take {n} damage.",
    ),
    "field": (
        'Your "{attr}" units get +{n} ATK.',
        "At the start of your turn, gain {n} life.",
        "Each player's units get -{n} HP, to a minimum of 1.",
        "Once per turn: you may look at the top {n} card(s) of your deck.",
    ),
    "energy": (
        "",
        "Produces 1 energy.",
        "Produces 1 energy; when you place this card, gain {n} life.",
    ),
}

SET_KINDS = {"BS": "Booster Set", "SD": "Starter Deck", "MD": "Master Deck"}
RELEASE_MONTH_DAYS = ((3, 15), (6, 14), (9, 13), (12, 12))  # four sets a year
SET_TITLES = (
    "Gates of Dawn",
    "Crown of Ash",
    "Tides of War",
    "The Iron Accord",
    "Echoes of the Void",
    "Starfall",
    "The Hollow March",
    "Emberfront",
    "Winter's Oath",
    "The Last Gate",
)
RARITIES = ("C", "U", "R", "SR", "UR", "SEC")
RARITY_THRESHOLDS = (0.45, 0.75, 0.90, 0.97, 0.99)  # C 45 %, U 30 %, R 15 %, SR 7 %, UR 2 %, SEC 1 %
LEGEND_RARITIES = ("SR", "UR", "SEC", "★★★")

# Levels (weighted by repetition): negative levels on some units and more events.
UNIT_LEVELS = (-1, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10)
EVENT_LEVELS = (-5, -3, -2, -1, -1, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6)
FIELD_LEVELS = (0, 0, 1, 1, 2, 2, 3, 4, 5)
UNIT_ATTRIBUTE_COUNTS = (1, 1, 1, 2, 2, 3)
OTHER_ATTRIBUTE_COUNTS = (0, 0, 1, 1, 2)


@dataclass(frozen=True)
class GenConfig:
    printings: int = 20_000
    factions: int = 12
    set_size: int = 1000  # printings per set file
    reprints: float = 0.15  # share of printings that reprint an earlier name
    seed: int = 2026
    first_year: int = 2026

    def __post_init__(self) -> None:
        if self.printings < 1:
            raise ValueError("printings must be at least 1")
        if self.factions < 1:
            raise ValueError("factions must be at least 1")
        if self.set_size < 1:
            raise ValueError("set_size must be at least 1")
        if not -(2**63) <= self.seed < 2**63:
            raise ValueError("seed must fit in 64 bits")
        if not 0 <= self.reprints < 1:
            raise ValueError("reprints must be in [0, 1)")

    @property
    def sets(self) -> int:
        return -(-self.printings // self.set_size)


def faction_names(count: int) -> tuple[str, ...]:
    extra = (f"Synthetic Faction {n:02d}" for n in range(len(FACTIONS) + 1, count + 1))
    return (*FACTIONS[:count], *extra)


def card_name(card_id: int) -> tuple[str, str]:
    """A distinct English name for every card number (and a Japanese name, used for some)."""
    cycle, index = divmod(card_id, NAME_SPACE)
    index = (index * NAME_MULTIPLIER + 7919) % NAME_SPACE
    index, adjective = divmod(index, len(ADJECTIVES))
    epithet, noun = divmod(index, len(NOUNS))
    parts = [ADJECTIVES[adjective], NOUNS[noun]]
    if EPITHETS[epithet]:
        parts.append(EPITHETS[epithet])
    if cycle:
        parts.append(f"Mk. {cycle + 1}")
    name_ja = JA_ADJECTIVES[adjective % len(JA_ADJECTIVES)] + "の" + JA_NOUNS[noun % len(JA_NOUNS)]
    if epithet or cycle:
        name_ja += f"・{epithet + cycle * len(EPITHETS)}"
    return " ".join(parts), name_ja


@functools.lru_cache(maxsize=4)
def _seeded_hasher(seed: int) -> Any:
    return hashlib.blake2b(digest_size=32, key=seed.to_bytes(16, "little", signed=True))


def card_digits(seed: int, card_id: int) -> int:
    """A 256-bit number hashed from (seed, card id): the randomness of one card, the same on every machine.

    Seeding a random.Random per card costs more than making the card; a hash is cheap and
    lets a reprint recompute its card instead of remembering it. card_rules takes each draw
    as a digit of this number in a mixed radix (divmod).
    """
    hasher = _seeded_hasher(seed).copy()
    hasher.update(card_id.to_bytes(8, "little"))
    return int.from_bytes(hasher.digest(), "little")


def card_rules(config: GenConfig, card_id: int, factions: Sequence[str]) -> dict[str, Any]:
    """The rules fields of card number card_id: the same for every printing of it."""
    v = card_digits(config.seed, card_id)
    name, name_ja = card_name(card_id)
    n_factions = len(factions)
    # The first cards give every faction a card, then one CNT card, a legend, a negative
    # level and an energy card, so even small sets hold every kind; the rest is random.
    forced = card_id - n_factions
    v, roll = divmod(v, 100)
    if card_id < n_factions or 0 <= forced < 3:
        card_type = "unit" if forced != 2 else "event"
    elif forced == 3:
        card_type = "energy"
    else:
        card_type = "unit" if roll < 60 else "event" if roll < 84 else "field" if roll < 93 else "energy"
    atk = hp = stk = faction = level = None
    attributes: list[str] = []
    cnt = legend = False
    if card_type != "energy":
        v, digit = divmod(v, n_factions)
        faction = factions[card_id] if card_id < n_factions else factions[digit]
        levels = UNIT_LEVELS if card_type == "unit" else EVENT_LEVELS if card_type == "event" else FIELD_LEVELS
        v, digit = divmod(v, len(levels))
        level = -2 if forced == 2 else levels[digit]
        counts = UNIT_ATTRIBUTE_COUNTS if card_type == "unit" else OTHER_ATTRIBUTE_COUNTS
        v, digit = divmod(v, len(counts))
        pool = list(ATTRIBUTES)
        for _ in range(counts[digit]):
            v, digit = divmod(v, len(pool))
            attributes.append(pool.pop(digit))
        attributes.sort()
        v, digit = divmod(v, 100)
        cnt = forced == 0 or digit < 6
        v, digit = divmod(v, 100)
        legend = forced == 1 or digit < 3
    if card_type == "unit":
        assert level is not None
        base = max(level, 0)
        v, digit = divmod(v, 16)
        atk = base + digit % 4
        hp = base + 1 + digit // 4
        v, digit = divmod(v, 100)
        stk = 1 + (digit < 20) + (digit < 5)
    templates = TEXTS[card_type]
    v, digit = divmod(v, len(templates))
    v, n = divmod(v, 5)
    v, attribute = divmod(v, len(ATTRIBUTES))
    text = templates[digit].format(n=n + 1, attr=ATTRIBUTES[attribute])
    if cnt and text:
        text = "CNT. " + text
    v, digit = divmod(v, 100)
    return {
        "name": name + (" Energy" if card_type == "energy" else ""),
        "name_ja": name_ja if (digit < 35 or card_id < 2) else "",
        "type": card_type,
        "faction": faction,
        "attributes": attributes,
        "level": level,
        "atk": atk,
        "hp": hp,
        "stk": stk,
        "cnt": cnt,
        "legend": legend,
        "text": text,
    }


def set_info(config: GenConfig, index: int) -> dict[str, str]:
    """Set number index (0-based): booster sets, with a starter deck every 5th and a master deck every 10th."""
    kind = _set_kind(index)
    ordinal = 1 + sum(1 for i in range(index) if _set_kind(i) == kind)
    year = config.first_year + index // 4
    month, day = RELEASE_MONTH_DAYS[index % 4]
    code = f"{kind}{ordinal:02d}"
    title = SET_TITLES[index % len(SET_TITLES)]
    return {
        "code": code,
        "name": f"{SET_KINDS[kind]} {ordinal:02d}: {title} {SET_SUFFIX}",
        "release_date": f"{year:04d}-{month:02d}-{day:02d}",
        # Master deck printings have no year in front, like the real MD numbers.
        "number_prefix": f"{code}-" if kind == "MD" else f"{year:04d}{code}-",
    }


def _set_kind(index: int) -> str:
    return "MD" if index % 10 == 9 else "SD" if index % 5 == 4 else "BS"


def iter_sets(config: GenConfig) -> Iterator[tuple[dict[str, str], Iterator[dict[str, Any]]]]:
    """(set, its printings) for every set in order; consume each set's printings before the next set."""
    factions = faction_names(config.factions)
    # Printing-level choices (reprint or new, rarity) in one stream; random() only, which is
    # specified to the bit (Mersenne Twister, 53-bit floats), unlike choices() across versions.
    rng = random.Random(config.seed)
    state = {"next_card": 0}
    digits = max(4, len(str(config.set_size)))

    def printings(info: dict[str, str], count: int) -> Iterator[dict[str, Any]]:
        for position in range(1, count + 1):
            next_card = state["next_card"]
            # Only after the forced cards, so small runs still hold every faction and kind.
            if next_card > config.factions + 4 and rng.random() < config.reprints:
                card_id = int(rng.random() * next_card)
            else:
                card_id = next_card
                state["next_card"] = next_card + 1
            rules = card_rules(config, card_id, factions)
            if rules["legend"]:
                rarity = LEGEND_RARITIES[int(rng.random() * len(LEGEND_RARITIES))]
            else:
                rarity = RARITIES[bisect.bisect(RARITY_THRESHOLDS, rng.random())]
            yield {
                "number": f"{info['number_prefix']}{position:0{digits}d}",
                "name": rules["name"],
                "name_ja": rules["name_ja"],
                "type": rules["type"],
                "faction": rules["faction"],
                "attributes": rules["attributes"],
                "level": rules["level"],
                "atk": rules["atk"],
                "hp": rules["hp"],
                "stk": rules["stk"],
                "cnt": rules["cnt"],
                "legend": rules["legend"],
                "rarity": rarity,
                "text": rules["text"],
            }

    remaining = config.printings
    for index in range(config.sets):
        count = min(config.set_size, remaining)
        remaining -= count
        info = set_info(config, index)
        yield info, printings(info, count)


def iter_printings(config: GenConfig) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """Every printing with its set, in file order."""
    for info, printings in iter_sets(config):
        for card in printings:
            yield info, card


def set_file_name(index: int, info: dict[str, str], fmt: str) -> str:
    return f"{index + 1:03d}_{info['code'].lower()}.{fmt}"


def write_sets(config: GenConfig, out: Path, fmt: str = "json") -> list[Path]:
    """Write one set file per set into out (created if needed); the paths written, in order."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, (info, printings) in enumerate(iter_sets(config)):
        path = out / set_file_name(index, info, fmt)
        with path.open("w", encoding="utf-8", newline="\n") as handle:
            if fmt == "json":
                _write_json(handle, info, printings)
            else:
                _write_csv(handle, info, printings)
        paths.append(path)
    return paths


_JSON = json.JSONEncoder(ensure_ascii=False)  # one encoder: json.dumps(ensure_ascii=False) builds one per call


def _write_json(handle: TextIO, info: dict[str, str], printings: Iterator[dict[str, Any]]) -> None:
    set_object = {"code": info["code"], "name": info["name"], "release_date": info["release_date"]}
    handle.write('{"set": ' + json.dumps(set_object, ensure_ascii=False) + ',\n "cards": [')
    separator = "\n  "
    for card in printings:
        handle.write(separator + _JSON.encode(card))
        separator = ",\n  "
    handle.write("\n ]}\n")


def _write_csv(handle: TextIO, info: dict[str, str], printings: Iterator[dict[str, Any]]) -> None:
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    head = (info["code"], info["name"], info["release_date"])
    for card in printings:
        writer.writerow(
            (
                *head,
                card["number"],
                card["name"],
                card["name_ja"],
                card["type"],
                card["faction"] or "",
                "/".join(card["attributes"]),
                _cell(card["level"]),
                _cell(card["atk"]),
                _cell(card["hp"]),
                _cell(card["stk"]),
                "true" if card["cnt"] else "false",
                "true" if card["legend"] else "false",
                card["rarity"],
                card["text"],
            )
        )


def _cell(value: int | None) -> str:
    return "" if value is None else str(value)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    defaults = GenConfig()
    parser.add_argument("--printings", type=int, default=defaults.printings, help="printings in all (exact)")
    parser.add_argument("--factions", type=int, default=defaults.factions, help="factions (exact)")
    parser.add_argument("--set-size", type=int, default=defaults.set_size, help="printings per set file")
    parser.add_argument("--reprints", type=float, default=defaults.reprints, help="share of reprints, 0 to <1")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--first-year", type=int, default=defaults.first_year, help="year of the first set")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument("--out", type=Path, required=True, help="directory for the set files")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        config = GenConfig(
            printings=args.printings,
            factions=args.factions,
            set_size=args.set_size,
            reprints=args.reprints,
            seed=args.seed,
            first_year=args.first_year,
        )
    except ValueError as exc:
        print(f"gen_cards: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    paths = write_sets(config, args.out, args.format)
    elapsed = time.perf_counter() - started
    written = {p.name for p in paths}
    stale = sorted(p.name for p in args.out.glob(f"[0-9][0-9][0-9]_*.{args.format}") if p.name not in written)
    print(f"{config.printings} printings in {len(paths)} {args.format} set files in {args.out} ({elapsed:.2f} s)")
    if stale:
        print(f"note: {args.out} also holds {len(stale)} older set files ({stale[0]}, ...)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
