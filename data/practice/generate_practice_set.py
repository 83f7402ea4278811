"""Generate the FICTIONAL Gate Ruler practice set as card-import JSON files.

Nothing in these files is a real card. The names are invented and say so (Practice, Training,
Mock, Drill ...), every card text starts with "(Fictional practice card.)", and every set
name ends with "(fictional practice set)". Only the five faction names are real. Levels and
stats are made up for these cards alone; they say nothing about the real game.

The set exists so that every ruler and geas can build a legal demo deck:

- PS01 ``2025PS01-NNN`` (main practice set): 30 new cards per faction, with plenty of
  level-0 cards, negative-level cards, CNT cards, two legends per faction, "Dragon" units
  in every faction (Centurion, Vanquisher), Betrayal/Desecrate cards in every faction
  (Exvader), cards whose text says "Rock-Paper-Scissors" (Janken Junkie), energy cards
  (rulers that prepare resource cards) and reprints of PS00 cards.
- PS00 ``2020PS00-NNN`` (practice starter) and MDPS ``MDPS-NNN`` (practice master-deck
  printings): cheap, non-legendary cards in every faction, so the World Masters (collector
  numbers starting "MD" or "2020", at most 12 cards per faction) have a pool; MDPS also
  reprints PS01 cards, so the same-name rule of World Master matters.

Run ``python data/practice/generate_practice_set.py``; the output is byte-identical on every
run (fixed seed). ``--real-cards PATH`` also rewrites data/real_cards/*.json from the research
file gateruler_cards.json (only cards whose rules fields are all known).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SEED = 20250401
HERE = Path(__file__).resolve().parent
DATA_DIR = HERE.parent

FICTION = "(Fictional practice card.)"
SET_SUFFIX = "(fictional practice set)"

PS01 = {
    "code": "PS01",
    "name": f"Practice Set 01: Gates of Rehearsal {SET_SUFFIX}",
    "release_date": "2025-04-01",
}
PS00 = {
    "code": "PS00",
    "name": f"Practice Starter 00: First Steps {SET_SUFFIX}",
    "release_date": "2020-12-12",
}
MDPS = {
    "code": "MDPS",
    "name": f"Practice Master Deck Printings {SET_SUFFIX}",
    "release_date": "2025-04-01",
}
OUTPUT_FILES = {
    "PS01": "practice_set_ps01.json",
    "PS00": "practice_starter_ps00.json",
    "MDPS": "practice_md.json",
}

# The five real factions (English name, Japanese name). The fifth has no known English name.
REAL_FACTIONS = (
    ("Volnar", "ウォルナー"),
    ("Yomajin Front", "東妖軍"),
    ("ATLAS", "ATLAS"),
    ("Wonderverse", "マジカルユニバース"),
    ("侵略次元", "侵略次元"),
)

# Words that make every invented name read as a practice card: (English, Japanese).
QUALIFIERS = (
    ("Practice", "練習用"),
    ("Training", "訓練用"),
    ("Sparring", "稽古用"),
    ("Mock", "模擬"),
    ("Rehearsal", "予行"),
    ("Drill", "教練"),
    ("Trial", "試験"),
    ("Tutorial", "入門"),
)
FIELD_NOUNS = (
    ("Training Yard", "訓練場"),
    ("Practice Arena", "練習闘技場"),
    ("Sparring Ring", "稽古場"),
    ("Rehearsal Hall", "予行演習場"),
    ("Drill Square", "教練広場"),
)

Pair = tuple[str, str]


@dataclass(frozen=True)
class Faction:
    name: str
    name_ja: str
    themes: tuple[str, str, str]
    places: tuple[Pair, ...]
    roles: tuple[Pair, ...]
    dragon_roles: tuple[Pair, ...]
    actions: tuple[Pair, ...]
    legend_unit: Pair
    legend_event: Pair
    # Extra attributes for some PS01 slots (by index), to give a faction its own flavour.
    extra: dict[int, tuple[str, ...]] = field(default_factory=dict)


FACTIONS = (
    Faction(
        "Volnar",
        "ウォルナー",
        ("Knight", "Fire", "Magic"),
        (
            ("Ember Gate", "残り火の門"),
            ("Cinder Keep", "燃えさしの砦"),
            ("Ashen Bridge", "灰の橋"),
            ("Scarlet Tower", "緋色の塔"),
            ("Brass Citadel", "真鍮の城塞"),
            ("Lantern Pass", "ランタン峠"),
        ),
        (
            ("Squire", "従騎士"),
            ("Lancer", "槍騎士"),
            ("Fire Mage", "炎術師"),
            ("Shield Bearer", "盾持ち"),
            ("Herald", "伝令"),
            ("Archer", "弓兵"),
            ("Warlock", "魔術師"),
            ("Quartermaster", "補給係"),
            ("Banner Knight", "旗騎士"),
            ("Spellblade", "魔法剣士"),
            ("Camp Cook", "野営の料理番"),
        ),
        (("Wyrmling", "幼竜"), ("Ember Drake", "残火の飛竜")),
        (
            ("Flame Barrage", "炎の弾幕"),
            ("Oath of Steel", "鋼の誓い"),
            ("Arcane Shield", "秘術の盾"),
            ("Forced March", "強行軍"),
            ("Cinder Rain", "火の粉の雨"),
            ("Knightly Duel", "騎士の決闘"),
            ("Spell Review", "呪文の復習"),
            ("Sudden Sortie", "不意の出撃"),
            ("Squire Roll Call", "従騎士の点呼"),
            ("Burning Ink", "燃えるインク"),
        ),
        ("Grand Drillmaster Emberwing", "教練大師 エンバーウィング"),
        ("Final Exam of the Ember Gate", "残り火の門の卒業試験"),
    ),
    Faction(
        "Yomajin Front",
        "東妖軍",
        ("Yokai", "Military", "Robo"),
        (
            ("Misty Shrine", "霧の社"),
            ("Bamboo Garrison", "竹林の駐屯地"),
            ("Paper Lantern Street", "提灯通り"),
            ("Moonlit Dock", "月夜の船着き場"),
            ("Thunder Hangar", "雷の格納庫"),
            ("Fox Hill", "狐が丘"),
        ),
        (
            ("Kappa", "河童"),
            ("Tengu Scout", "天狗の斥候"),
            ("Fox Spirit", "狐火"),
            ("Foot Soldier", "歩兵"),
            ("Lantern Ghost", "提灯お化け"),
            ("Mecha Pilot", "操縦士"),
            ("Oni Sergeant", "鬼軍曹"),
            ("Umbrella Yokai", "唐傘お化け"),
            ("Signal Corps", "通信兵"),
            ("Shrine Guard", "社の衛兵"),
            ("Tanuki Mechanic", "狸の整備士"),
        ),
        (("Dragon Frame", "竜型機"), ("Storm Dragon", "ストームドラゴン")),
        (
            ("Night Parade", "夜行行列"),
            ("Barrage Order", "弾幕命令"),
            ("Foxfire Trick", "狐火の術"),
            ("Emergency Sortie", "緊急出撃"),
            ("Curse Tag", "呪いの札"),
            ("Hangar Repair", "格納庫の修理"),
            ("Spirit Ambush", "妖怪の待ち伏せ"),
            ("Thunder Drum", "雷太鼓"),
            ("Paper Shield", "紙の盾"),
            ("Field Rations", "野戦糧食"),
        ),
        ("Chief Instructor Raijin Mk-0", "主任教官 雷神零式"),
        ("Graduation Night Parade", "卒業百鬼夜行"),
    ),
    Faction(
        "ATLAS",
        "ATLAS",
        ("Military", "Zombie", "Technology"),
        (
            ("Grey Bunker", "灰色の掩体壕"),
            ("Test Range", "試験場"),
            ("Relay Station", "中継基地"),
            ("Quarantine Ward", "隔離病棟"),
            ("Supply Depot", "補給廠"),
            ("Radar Hill", "レーダー丘"),
        ),
        (
            ("Rifleman", "小銃兵"),
            ("Recon Drone", "偵察ドローン"),
            ("Zombie Intern", "ゾンビ研修生"),
            ("Field Medic", "衛生兵"),
            ("Combat Engineer", "工兵"),
            ("Tank Crew", "戦車兵"),
            ("Lab Assistant", "研究助手"),
            ("Radio Operator", "無線手"),
            ("Shambling Cadet", "よろめく候補生"),
            ("Sniper", "狙撃兵"),
            ("Logistics Officer", "兵站将校"),
        ),
        (("Mecha Dragon", "メカドラゴン"), ("Dragon Drone", "竜型ドローン")),
        (
            ("Suppressing Fire", "制圧射撃"),
            ("Orbital Ping", "軌道ピン"),
            ("Field Surgery", "野戦手術"),
            ("Lockdown Protocol", "封鎖プロトコル"),
            ("Smoke Screen", "煙幕"),
            ("Outbreak Alert", "感染警報"),
            ("Airdrop", "空中投下"),
            ("Firmware Patch", "ファームウェア更新"),
            ("Tactical Retreat", "戦術的撤退"),
            ("Target Practice", "射撃練習"),
        ),
        ("Colonel Sandbag of the Proving Grounds", "演習場の土嚢大佐"),
        ("Live-Fire Graduation Exercise", "実弾卒業演習"),
    ),
    Faction(
        "Wonderverse",
        "マジカルユニバース",
        ("Alice", "Space", "Shark"),
        (
            ("Teacup Nebula", "ティーカップ星雲"),
            ("Looking-Glass Lane", "鏡の国の小道"),
            ("Comet Garden", "彗星の庭"),
            ("Moon Library", "月の図書館"),
            ("Checkerboard Sea", "市松模様の海"),
            ("Clockwork Orbit", "時計仕掛けの軌道"),
        ),
        (
            ("Star Rabbit", "星うさぎ"),
            ("Tea Party Guest", "お茶会の客"),
            ("Space Shark", "宇宙ザメ"),
            ("Moon Gardener", "月の庭師"),
            ("Comet Courier", "彗星の配達人"),
            ("Card Soldier", "トランプ兵"),
            ("Hatter Cadet", "帽子屋見習い"),
            ("Orbit Surfer", "軌道サーファー"),
            ("Pocket Robot", "ポケットロボ"),
            ("Dream Cartographer", "夢の地図職人"),
            ("Grinning Cat", "にやにや猫"),
        ),
        (("Star Dragon", "スタードラゴン"), ("Teacup Dragon", "ティーカップ・ドラゴン")),
        (
            ("Tea Time Break", "お茶の時間"),
            ("Shrink Potion", "ちぢみ薬"),
            ("Meteor Shower", "流星群"),
            ("Down the Rabbit Hole", "うさぎ穴へ"),
            ("Shark Tornado", "サメ竜巻"),
            ("Zero-Gravity Dance", "無重力ダンス"),
            ("Unbirthday Party", "なんでもない日のパーティー"),
            ("Mirror Swap", "鏡の入れ替え"),
            ("Starlight Beam", "星明かりの光線"),
            ("Curious Detour", "好奇心の寄り道"),
        ),
        ("Professor Paradox of the Practice Cosmos", "練習宇宙のパラドックス教授"),
        ("The Endless Rehearsal Tea Party", "終わらない予行お茶会"),
    ),
    Faction(
        "侵略次元",
        "侵略次元",
        ("Eldritch", "Alien", "Cultist"),
        (
            ("Hollow Rift", "虚ろな裂け目"),
            ("Drowned Observatory", "水没した天文台"),
            ("Whispering Dunes", "囁く砂丘"),
            ("Violet Void", "紫の虚空"),
            ("Sunken Chapel", "沈んだ礼拝堂"),
            ("Outer Orbit", "外縁軌道"),
        ),
        (
            ("Tentacle Scholar", "触手学者"),
            ("Void Herald", "虚空の使者"),
            ("Star Spawnling", "星の落とし子"),
            ("Rift Crawler", "裂け目を這うもの"),
            ("Deep One Cadet", "深きものの見習い"),
            ("Whispering Idol", "囁く偶像"),
            ("Masked Acolyte", "仮面の侍祭"),
            ("Gray Visitor", "灰色の訪問者"),
            ("Dream Eater", "夢喰い"),
            ("Abyss Choir", "深淵の聖歌隊"),
            ("Probe Pilot", "探査機の操縦者"),
        ),
        (("Void Wyrm", "虚竜"), ("Tentacle Dragon", "触手ドラゴン")),
        (
            ("Forbidden Lecture", "禁じられた講義"),
            ("Starless Summons", "星なき召喚"),
            ("Mind Static", "精神の雑音"),
            ("Abduction Beam", "誘拐光線"),
            ("Dark Sermon", "暗黒の説教"),
            ("Rift Opening", "裂け目の開放"),
            ("Cosmic Dread", "宇宙的恐怖"),
            ("Ritual Chalk", "儀式のチョーク"),
            ("Eclipse Omen", "日食の前兆"),
            ("Gravity Hymn", "重力の賛歌"),
        ),
        (
            "The Unnamed Examiner Beyond the Practice Gate",
            "練習門の彼方の名もなき試験官",
        ),
        ("Invasion Drill of the Outer Dark", "外なる闇の侵略演習"),
        extra={1: ("Betrayal",), 17: ("Desecrate",), 23: ("Desecrate",)},
    ),
)

ENERGIES = {
    "dawn": ("Practice Energy: Dawn", "練習用エネルギー・夜明け"),
    "dusk": ("Practice Energy: Dusk", "練習用エネルギー・黄昏"),
    "noon": ("Practice Energy: Noon", "練習用エネルギー・真昼"),
    "midnight": ("Practice Energy: Midnight", "練習用エネルギー・真夜中"),
}


@dataclass(frozen=True)
class Spec:
    """One card slot of a faction: what kind of card, and which rules features it shows."""

    type: str
    level: int
    themes: tuple[int, ...] = ()
    extra: tuple[str, ...] = ()
    dragon: bool = False
    cnt: bool = False
    legend: bool = False
    rps: bool = False


# PS01: 30 new cards per faction (18 units, 9 events, 3 fields).
PS01_SPECS = (
    Spec("unit", 0, (0,), dragon=True),
    Spec("unit", 0, (1,)),
    Spec("unit", 0, (1,), extra=("Betrayal",)),
    Spec("unit", 0, (0,), rps=True),
    Spec("unit", 1, (0,)),
    Spec("unit", 1, (1,), extra=("Desecrate",)),
    Spec("unit", 1, (2,)),
    Spec("unit", 2, (0,), dragon=True),
    Spec("unit", 2, (1,)),  # reprinted in MDPS
    Spec("unit", 2, (2,)),
    Spec("unit", 3, (0,)),
    Spec("unit", 3, (1,), cnt=True),
    Spec("unit", 3, (2,), dragon=True, extra=("Desecrate",)),
    Spec("unit", 4, (2,), dragon=True),
    Spec("unit", 4, (0,)),
    Spec("unit", 5, (1,)),
    Spec("unit", -1, (2,), cnt=True),
    Spec("unit", 6, (0,), dragon=True, legend=True),
    Spec("event", -2, (2,), cnt=True),
    Spec("event", -1, (1,), extra=("Betrayal",)),
    Spec("event", 0, (0,)),
    Spec("event", 0, (1,), rps=True),
    Spec("event", 1, (2,), cnt=True),
    Spec("event", 1, (0,)),
    Spec("event", 2, (1,)),
    Spec("event", 3, (2,), cnt=True),
    Spec("event", 5, (0,), legend=True),
    Spec("field", 0, (1,)),
    Spec("field", 1, (2,)),
    Spec("field", 2, (0,), cnt=True),
)
MD_REPRINT_SLOT = 8
# PS00: 4 cheap cards per faction; the first is reprinted in PS01.
PS00_SPECS = (
    Spec("unit", 0, (0,)),
    Spec("unit", 1, (1,)),
    Spec("event", -1, (2,), cnt=True),
    Spec("event", 0, (0,)),
)
# MDPS: 1 new card per faction (plus the PS01 reprint above).
MD_SPECS = (Spec("unit", 2, (2,)),)

UNIT_TEXTS = (
    "TD: Look at the top card of your deck. You may put it on the bottom of your deck.",
    "When this unit attacks, it gets +1 ATK until the end of the turn.",
    "This unit cannot be dealt effect damage during your opponent's turn.",
    "OD: Deal 1 damage to an enemy unit.",
    "When this unit is destroyed, draw 1 card, then put 1 card from your hand on the bottom of your deck.",
    "Allied units that share an attribute with this unit get +1 HP.",
    "TD: Choose an enemy unit. It gets -1 ATK until the end of the turn.",
    "While you have 3 or more units in play, this unit gets +1 STK.",
)
DRAGON_TEXTS = (
    "When this Dragon attacks, deal 1 damage to an enemy unit.",
    "TD: Another allied Dragon unit gets +2 ATK until the end of the turn.",
)
EVENT_TEXTS = (
    "Deal 2 damage to an enemy unit.",
    "Draw 2 cards, then put 1 card from your hand on the bottom of your deck.",
    "An allied unit gets +2 ATK until the end of the turn.",
    "Return an enemy unit of level 2 or less to its owner's hand.",
    "Heal 1 damage from your ruler.",
    "Look at the top 3 cards of your deck and put them back in any order.",
)
FIELD_TEXTS = (
    "Allied units get +1 ATK during your turn.",
    "At the start of your turn, you may look at the top card of your deck.",
    "Once per turn, when an allied unit is destroyed, draw 1 card.",
)
CNT_TEXTS = (
    "【CNT】: Deal 2 damage to an enemy unit.",
    "【CNT】: Draw 1 card.",
    "【CNT】: An allied unit gets +1 HP until the end of the turn.",
)
RPS_TEXTS = {
    "unit": "TD: Play a round of Rock-Paper-Scissors with your opponent. If you win, draw 1 card.",
    "event": "Play a round of Rock-Paper-Scissors with your opponent. If you win, deal 2 damage to an enemy unit; if you lose, draw 1 card.",
}
BETRAYAL_TEXT = "When another allied unit is destroyed, this card's controller may draw 1 card."
DESECRATE_TEXT = "Put the top card of your graveyard on the bottom of your deck."
LEGEND_TEXTS = {
    "unit": "Legendary practice finale. TD: Deal 2 damage to each enemy unit of level 2 or less.",
    "event": "Legendary practice finale. Draw 3 cards, then your units get +1 ATK until the end of the turn.",
}
ENERGY_TEXT = "Energy. Prepared as a resource card before the game; it never goes into the deck."


class Namer:
    """Invents unique, obviously fictional English and Japanese names with a seeded RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()
        self.role_queues: dict[tuple[str, str], list[Pair]] = {}

    def _next(self, key: tuple[str, str], options: tuple[Pair, ...]) -> Pair:
        queue = self.role_queues.get(key)
        if not queue:
            queue = list(options)
            self.rng.shuffle(queue)
            self.role_queues[key] = queue
        return queue.pop()

    def _unique(self, make: Any) -> Pair:
        for _ in range(1000):
            en, ja = make()
            if en not in self.used:
                self.used.add(en)
                return en, ja
        raise RuntimeError("ran out of names")

    def unit(self, faction: Faction, dragon: bool) -> Pair:
        roles = faction.dragon_roles if dragon else faction.roles

        def make() -> Pair:
            q_en, q_ja = self.rng.choice(QUALIFIERS)
            r_en, r_ja = self._next((faction.name, "dragon" if dragon else "unit"), roles)
            p_en, p_ja = self.rng.choice(faction.places)
            return f"{q_en} {r_en} of the {p_en}", f"{p_ja}の{q_ja}{r_ja}"

        return self._unique(make)

    def event(self, faction: Faction) -> Pair:
        def make() -> Pair:
            q_en, q_ja = self.rng.choice(QUALIFIERS)
            a_en, a_ja = self._next((faction.name, "event"), faction.actions)
            return f"{q_en} {a_en}", f"{q_ja}・{a_ja}"

        return self._unique(make)

    def field(self, faction: Faction) -> Pair:
        def make() -> Pair:
            n_en, n_ja = self._next((faction.name, "field"), FIELD_NOUNS)
            p_en, p_ja = self.rng.choice(faction.places)
            return f"{n_en} of the {p_en}", f"{p_ja}の{n_ja}"

        return self._unique(make)


def rarity_of(spec: Spec) -> str:
    if spec.legend:
        return "★★★★"
    if spec.level >= 4:
        return "★★★"
    if spec.level >= 2:
        return "★★"
    return "★"


def make_card(spec: Spec, faction: Faction, namer: Namer, rng: random.Random) -> dict[str, Any]:
    """One card (without number and rarity) for a slot of a faction."""
    if spec.legend:
        name, name_ja = faction.legend_unit if spec.type == "unit" else faction.legend_event
        namer.used.add(name)
    elif spec.type == "unit":
        name, name_ja = namer.unit(faction, spec.dragon)
    elif spec.type == "event":
        name, name_ja = namer.event(faction)
    else:
        name, name_ja = namer.field(faction)

    attributes = [faction.themes[i] for i in spec.themes]
    if spec.dragon:
        attributes.append("Dragon")
    attributes.extend(a for a in spec.extra if a not in attributes)

    if spec.rps:
        ability = RPS_TEXTS[spec.type]
    elif spec.legend:
        ability = LEGEND_TEXTS[spec.type]
    elif spec.type == "unit":
        ability = rng.choice(DRAGON_TEXTS if spec.dragon else UNIT_TEXTS)
    elif spec.type == "event":
        ability = rng.choice(EVENT_TEXTS)
    else:
        ability = rng.choice(FIELD_TEXTS)
    if "Betrayal" in attributes:
        ability += " " + BETRAYAL_TEXT
    if "Desecrate" in attributes:
        ability += " " + DESECRATE_TEXT
    if spec.cnt:
        ability = cnt_text(rng.choice(CNT_TEXTS), ability) + " " + ability

    atk = hp = stk = None
    if spec.type == "unit":
        base = max(spec.level, 0)
        atk = base + 1 + rng.randrange(3)
        hp = base + 1 + rng.randrange(3)
        stk = 1 + (spec.level >= 3) + (spec.level >= 6)
    return {
        "name": name,
        "name_ja": name_ja,
        "type": spec.type,
        "faction": faction.name,
        "attributes": attributes,
        "level": spec.level,
        "atk": atk,
        "hp": hp,
        "stk": stk,
        "cnt": spec.cnt,
        "legend": spec.legend,
        "text": f"{FICTION} {ability}",
    }


def cnt_text(drawn: str, ability: str) -> str:
    """The 【CNT】 line drawn, or the next one when its effect is the card's ability already
    ("Deal 2 damage to an enemy unit." said twice). The next one, not another draw: one more
    draw from the RNG would change every card after this one."""
    index = CNT_TEXTS.index(drawn)
    for step in range(len(CNT_TEXTS)):
        text = CNT_TEXTS[(index + step) % len(CNT_TEXTS)]
        if text.split(": ", 1)[1] not in ability:
            return text
    return drawn


def energy_card(key: str) -> dict[str, Any]:
    name, name_ja = ENERGIES[key]
    return {
        "name": name,
        "name_ja": name_ja,
        "type": "energy",
        "faction": None,
        "attributes": [],
        "level": None,
        "atk": None,
        "hp": None,
        "stk": None,
        "cnt": False,
        "legend": False,
        "text": f"{FICTION} {ENERGY_TEXT}",
    }


TYPE_ORDER = {"unit": 0, "event": 1, "field": 2, "energy": 3}


def printed(cards: list[tuple[dict[str, Any], str]], number_prefix: str) -> list[dict[str, Any]]:
    """Number the cards in print order; a printing is the card plus its number and rarity."""
    out = []
    for i, (card, rarity) in enumerate(cards, start=1):
        out.append(
            {
                "number": f"{number_prefix}-{i:03d}",
                **{k: card[k] for k in ("name", "name_ja", "type", "faction", "attributes")},
                **{k: card[k] for k in ("level", "atk", "hp", "stk", "cnt", "legend")},
                "rarity": rarity,
                "text": card["text"],
            }
        )
    return out


def generate() -> dict[str, dict[str, Any]]:
    """The three practice files as {set code: import document}; deterministic."""
    rng = random.Random(SEED)
    namer = Namer(rng)
    for en, _ja in ENERGIES.values():
        namer.used.add(en)

    ps00: list[tuple[dict[str, Any], str]] = []
    ps01: list[tuple[dict[str, Any], str]] = []
    md: list[tuple[dict[str, Any], str]] = []
    for faction in FACTIONS:
        starter = [make_card(spec, faction, namer, rng) for spec in PS00_SPECS]
        ps00.extend((card, "★") for card in starter)

        faction_cards = []
        for slot, spec in enumerate(PS01_SPECS):
            if slot in faction.extra:
                spec = replace(spec, extra=spec.extra + faction.extra[slot])
            card = make_card(spec, faction, namer, rng)
            faction_cards.append((card, rarity_of(spec)))
            if slot == MD_REPRINT_SLOT:
                md_reprint = card
        # Reprint: the starter's first card also appears in the main set.
        faction_cards.append((starter[0], "★"))
        faction_cards.sort(key=lambda cr: (TYPE_ORDER[cr[0]["type"]], cr[0]["level"], cr[0]["name"]))
        ps01.extend(faction_cards)

        md.extend((make_card(spec, faction, namer, rng), "PR") for spec in MD_SPECS)
        md.append((md_reprint, "PR"))

    ps00.extend((energy_card(k), "★") for k in ("dawn", "dusk"))
    ps01.extend((energy_card(k), "★") for k in ("noon", "midnight", "dawn"))
    md.append((energy_card("dusk"), "PR"))

    return {
        "PS01": {"set": PS01, "cards": printed(ps01, "2025PS01")},
        "PS00": {"set": PS00, "cards": printed(ps00, "2020PS00")},
        "MDPS": {"set": MDPS, "cards": printed(md, "MDPS")},
    }


def dump(data: Any) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def main(out_dir: Path | None = None) -> list[Path]:
    """Write the practice files and factions.json; returns the paths written.

    By default the practice files go next to this script and factions.json to data/; with
    out_dir, everything goes into out_dir (the tests compare two runs byte for byte).
    """
    factions_path = DATA_DIR / "factions.json" if out_dir is None else out_dir / "factions.json"
    out_dir = out_dir or HERE
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for code, document in generate().items():
        path = out_dir / OUTPUT_FILES[code]
        path.write_bytes(dump(document))
        written.append(path)
    factions = [{"name": name, "name_ja": name_ja} for name, name_ja in REAL_FACTIONS]
    factions_path.write_bytes(dump(factions))
    written.append(factions_path)
    return written


# --- Real cards ---------------------------------------------------------------------------

DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:\s*\(.*\))?$")


def real_release_date(value: str | None) -> str | None:
    """An exact YYYY-MM-DD (a trailing parenthetical note is allowed), else None."""
    match = DATE.match(value or "")
    return match.group(1) if match else None


def real_card_is_complete(card: dict[str, Any]) -> bool:
    """Only cards whose every rules field is known: never invent a level or a stat."""
    if not card.get("collector_number") or not card.get("set_code"):
        return False
    if not (card.get("name_en") or card.get("name_ja")):
        return False
    kind = card.get("type")
    if kind not in TYPE_ORDER:
        return False
    if kind != "energy" and (card.get("faction_en") or card.get("faction_ja")) is None:
        return False
    if kind != "energy" and card.get("level") is None:
        return False
    if card.get("has_cnt") is None or card.get("is_legend") is None:
        return False
    return kind != "unit" or all(card.get(k) is not None for k in ("atk", "hp", "stk"))


def real_faction(card: dict[str, Any]) -> str | None:
    if card["type"] == "energy":
        return None
    if card.get("faction_en"):
        return card["faction_en"]
    by_ja = {ja: en for en, ja in REAL_FACTIONS}
    return by_ja.get(card["faction_ja"], card["faction_ja"])


def real_card_files(source: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{file name: import document} for the real cards with complete rules fields."""
    sets = {s["code"]: s for s in source["sets"] if s.get("code")}
    by_set: dict[str, list[dict[str, Any]]] = {}
    for card in source["cards"]:
        if not real_card_is_complete(card) or card["set_code"] not in sets:
            continue
        entry: dict[str, Any] = {
            "number": card["collector_number"],
            "name": card["name_en"] or card["name_ja"],
        }
        if card.get("name_ja"):
            entry["name_ja"] = card["name_ja"]
        entry.update(
            {
                "type": card["type"],
                "faction": real_faction(card),
                # Entries with a parenthesis are notes about attributes, not attributes.
                "attributes": [a for a in card.get("attributes") or [] if "(" not in a],
                "level": card["level"],
                "atk": card["atk"] if card["type"] == "unit" else None,
                "hp": card["hp"] if card["type"] == "unit" else None,
                "stk": card["stk"] if card["type"] == "unit" else None,
                "cnt": card["has_cnt"],
                "legend": card["is_legend"],
                "rarity": re.sub(r"\s*\(.*\)$", "", card["rarity"]) if card.get("rarity") else None,
                "text": "[Paraphrase, not the printed text] " + (card.get("ability_paraphrase") or ""),
            }
        )
        by_set.setdefault(card["set_code"], []).append(entry)
    files = {}
    for code in sorted(by_set):
        s = sets[code]
        files[f"{code.lower()}.json"] = {
            "set": {
                "code": code,
                "name": s.get("name_en") or s.get("name_ja"),
                "release_date": real_release_date(s.get("release_date")),
            },
            "cards": sorted(by_set[code], key=lambda c: c["number"]),
        }
    return files


def write_real_cards(source_path: Path, out_dir: Path) -> list[Path]:
    source = json.loads(source_path.read_text(encoding="utf-8"))
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, document in real_card_files(source).items():
        path = out_dir / name
        path.write_bytes(dump(document))
        written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--real-cards",
        type=Path,
        metavar="GATERULER_CARDS_JSON",
        help="also rewrite data/real_cards/*.json from this research file",
    )
    args = parser.parse_args()
    for path in main():
        print(path)
    if args.real_cards:
        for path in write_real_cards(args.real_cards, DATA_DIR / "real_cards"):
            print(path)
