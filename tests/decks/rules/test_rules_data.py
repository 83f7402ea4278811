"""Cross-checks data/rules.json against the seed documents it was transcribed from.

Plain pytest: no Django, no database. The seed texts are byte-for-byte copies kept
in docs/seeds/ (a document's "source" is relative to docs/).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
RULES_PATH = REPO / "data" / "rules.json"
DOCS = REPO / "docs"

RULEBOOK_2020 = "rulebook-2020-11-26"
APPENDIX_B = "appendix-b-2023-03-25"
APPENDIX_A = "appendix-a-2023-12-04"
APPENDIX_B_TITLE = "Gate Ruler Comprehensive Rules Appendix B: Geases"

RULER_KEYS = [
    "name",
    "code",
    "number",
    "name_ja",
    "heading",
    "life",
    "atk",
    "stk",
    "deck_construction",
    "zones",
    "setup",
    "start_of_turn",
    "abilities",
    "abilities_ja",
]
DECK_CONSTRUCTION_KEYS = [
    "text",
    "deck_size",
    "max_factions",
    "unit_attribute_choice",
    "max_copies",
    "max_copies_exceptions",
    "legend_cap",
    "legend_max_copies",
    "level_cap",
    "cnt_cap",
    "allow_negative_levels",
    "card_pool",
    "faction_quota",
    "banned_cards",
    "resource_cards",
]
ZONES_KEYS = ["attack", "defense", "set", "hand", "resource", "text"]
SETUP_KEYS = ["text", "resources_ready", "draw", "drive"]
START_OF_TURN_KEYS = [
    "text",
    "drive",
    "draw",
    "ready_resources",
    "resources_from_deck",
    "summon_cap",
    "set_cap",
    "first_turn",
]
GEAS_KEYS = ["name", "target_ruler", "target_text", "modifications", "additions"]

# Appendix A ruler headings: "1. A - Apprentice", "EX - I. Janken Junkie",
# "World Master Alpha 2020".
A_HEADING_RE = re.compile(r"^(?:\d+\. [A-Z] - .+|EX - [IVX]+\. .+|World Master \w+ 2020)$", re.M)


@cache
def rules() -> dict[str, Any]:
    return json.loads(RULES_PATH.read_text(encoding="utf-8"))


def document(key: str) -> dict[str, Any]:
    (doc,) = (d for d in rules()["documents"] if d["key"] == key)
    return doc


@cache
def seed(source: str) -> str:
    return (DOCS / source).read_text(encoding="utf-8")


def seed_of(key: str) -> str:
    return seed(document(key)["source"])


def appendix_a_text() -> str:
    return seed_of(APPENDIX_A).split(APPENDIX_B_TITLE)[0]


def appendix_b_text() -> str:
    return seed_of(APPENDIX_B).split(APPENDIX_B_TITLE)[1]


def sections(text: str, headings: list[str]) -> dict[str, list[str]]:
    """Non-blank lines under each heading, up to the next heading."""
    lines = text.split("\n")
    starts = [lines.index(h) for h in headings]
    ends = [*starts[1:], len(lines)]
    return {h: [ln for ln in lines[s + 1 : e] if ln.strip()] for h, s, e in zip(headings, starts, ends, strict=True)}


def appendix_a_rulers() -> list[dict[str, Any]]:
    return document(APPENDIX_A)["rulers"]


def appendix_a_by_name() -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in appendix_a_rulers()}


def a_section(heading: str) -> list[str]:
    headings = [r["heading"] for r in appendix_a_rulers()]
    return sections(appendix_a_text(), headings)[heading]


def one(pattern: str, lines: list[str]) -> re.Match[str]:
    matches = [m for ln in lines if (m := re.fullmatch(pattern, ln))]
    assert len(matches) == 1, (pattern, matches)
    return matches[0]


def cap(value: str) -> int | None:
    return None if value == "Unlimited" else int(value)


A_HEADINGS = [r["heading"] for r in document(APPENDIX_A)["rulers"]]
ALL_RULERS = [
    pytest.param(doc["key"], i, id=f"{doc['key']}:{r['name']}")
    for doc in rules()["documents"]
    for i, r in enumerate(doc["rulers"])
]


# ------------------------------------------------------------------ counts


def test_it_has_the_three_documents_in_order() -> None:
    assert rules()["format_version"] == 1
    keys = [d["key"] for d in rules()["documents"]]
    assert keys == [RULEBOOK_2020, APPENDIX_B, APPENDIX_A]
    for doc in rules()["documents"]:
        assert (DOCS / doc["source"]).is_file()
        assert doc["effective_from"] == doc["key"][-10:]


def test_it_has_21_appendix_a_rulers() -> None:
    assert len(document(APPENDIX_A)["rulers"]) == 21
    assert document(APPENDIX_A)["geases"] == []


def test_it_has_5_rulebook_2020_rulers() -> None:
    assert len(document(RULEBOOK_2020)["rulers"]) == 5
    assert document(RULEBOOK_2020)["geases"] == []


def test_it_has_6_geases() -> None:
    assert len(document(APPENDIX_B)["geases"]) == 6
    assert document(APPENDIX_B)["rulers"] == []


def test_it_lists_every_appendix_a_ruler_of_the_seed_in_order() -> None:
    assert A_HEADING_RE.findall(appendix_a_text()) == A_HEADINGS


def test_it_lists_every_geas_of_the_seed_in_order() -> None:
    lines = [ln for ln in appendix_b_text().split("\n") if ln.strip()]
    names = [lines[i - 1] for i, ln in enumerate(lines) if ln.startswith("Target Ruler: ")]
    assert names == [g["name"] for g in document(APPENDIX_B)["geases"]]


@pytest.mark.parametrize("key", [RULEBOOK_2020, APPENDIX_B, APPENDIX_A])
def test_it_has_unique_names_per_document(key: str) -> None:
    doc = document(key)
    for items in (doc["rulers"], doc["geases"]):
        names = [item["name"] for item in items]
        assert len(names) == len(set(names))


@pytest.mark.parametrize(("key", "index"), ALL_RULERS)
def test_it_has_every_key_of_a_ruler_in_order(key: str, index: int) -> None:
    r = document(key)["rulers"][index]
    assert list(r) == RULER_KEYS
    assert list(r["deck_construction"]) == DECK_CONSTRUCTION_KEYS
    assert list(r["zones"]) == ZONES_KEYS
    assert list(r["setup"]) == SETUP_KEYS
    assert list(r["start_of_turn"]) == START_OF_TURN_KEYS


def test_it_targets_appendix_a_rulers_with_every_geas() -> None:
    by_name = appendix_a_by_name()
    for geas in document(APPENDIX_B)["geases"]:
        assert list(geas) == GEAS_KEYS
        target = by_name[geas["target_ruler"]]
        assert geas["target_text"] == target["heading"]


def test_it_names_every_2020_ruler_as_in_appendix_a() -> None:
    by_name = appendix_a_by_name()
    for r in document(RULEBOOK_2020)["rulers"]:
        a = by_name[r["name"]]
        assert (r["code"], r["number"], r["name_ja"]) == (
            a["code"],
            a["number"],
            a["name_ja"],
        )


# ------------------------------------------------------------ Appendix A


@pytest.mark.parametrize("heading", A_HEADINGS)
def test_it_matches_the_appendix_a_numbers_of_the_seed(heading: str) -> None:
    (r,) = (r for r in appendix_a_rulers() if r["heading"] == heading)
    lines = a_section(heading)
    dc = r["deck_construction"]

    m = one(r"Life: (\d+) ATK: (\d+) STK: (\d+)", lines)
    assert (r["life"], r["atk"], r["stk"]) == tuple(int(g) for g in m.groups())

    assert dc["deck_size"] == int(one(r"Deck size: (\d+)", lines)[1])

    factions = [m for ln in lines if (m := re.fullmatch(r"Maximum factions: (\S+)", ln))]
    if factions:
        assert dc["max_factions"] == {"all": cap(factions[0][1])}
    else:
        units = one(r"Maximum factions for units: (\S+)", lines)[1]
        others = one(r"Maximum factions for cards other than units: (\S+)", lines)[1]
        assert dc["max_factions"] == {"units": cap(units), "non_units": cap(others)}
    assert dc["unit_attribute_choice"] == any(ln.startswith("Unit attribute requirement: ") for ln in lines)

    m = one(
        r'Maximum copies of a card: (\d+)(?: for cards that include "([^"]+)"'
        r" in its card text, (\d+) for all other cards)?",
        lines,
    )
    if m[2] is None:
        assert (dc["max_copies"], dc["max_copies_exceptions"]) == (int(m[1]), [])
    else:
        assert dc["max_copies"] == int(m[3])
        assert dc["max_copies_exceptions"] == [{"text_contains": m[2], "max_copies": int(m[1])}]

    assert dc["legend_cap"] == int(one(r"Legendary card cap: (\d+)", lines)[1])
    assert dc["legend_max_copies"] == int(one(r"Maximum copies of a Legendary card: (\d+)", lines)[1])
    assert dc["level_cap"] == cap(one(r"Deck level cap: (\d+|Unlimited)", lines)[1])
    assert dc["cnt_cap"] == int(one(r"CNT cap: (\d+)", lines)[1])
    assert dc["allow_negative_levels"] == ("You cannot have any card with a negative level in your deck." not in lines)

    prepare = [
        int(m[1]) for ln in lines if (m := re.fullmatch(r"Prepare (\d+) resource cards in addition to your deck\.", ln))
    ]
    assert dc["resource_cards"] == (prepare[0] if prepare else 0)

    m = one(r"Zones: Attack zone: (\d+), Defense zone: (\d+), Set zone: (\d+)(\..*)?", lines)
    zones = r["zones"]
    assert (zones["attack"], zones["defense"], zones["set"]) == tuple(int(g) for g in m.groups()[:3])
    assert zones["text"] == m[0]
    rest = m[4] or ""
    assert zones["hand"] == ("no hand zone" not in rest)
    assert zones["resource"] == ("resource zone" not in rest)


@pytest.mark.parametrize("heading", A_HEADINGS)
def test_it_quotes_the_appendix_a_deck_construction_lines_verbatim(
    heading: str,
) -> None:
    (r,) = (r for r in appendix_a_rulers() if r["heading"] == heading)
    lines = a_section(heading)
    start = lines.index("Deck Construction:") + 1
    end = next(i for i, ln in enumerate(lines) if ln.startswith("Zones: "))
    assert r["deck_construction"]["text"] == lines[start:end]


@pytest.mark.parametrize("heading", A_HEADINGS)
def test_it_quotes_the_appendix_a_setup_turn_and_abilities_verbatim(
    heading: str,
) -> None:
    (r,) = (r for r in appendix_a_rulers() if r["heading"] == heading)
    lines = a_section(heading)
    assert "Setup: " + r["setup"]["text"] in lines
    assert "Start of Turn: " + r["start_of_turn"]["text"] in lines
    if r["setup"]["text"] == "None.":
        assert list(r["setup"].values())[1:] == [0, 0, 0]

    start = next(i for i, ln in enumerate(lines) if ln.startswith("In-Game Abilities:"))
    block = "\n".join(lines[start:])
    if lines[start] == "In-Game Abilities: None.":
        assert r["abilities"] == []
    for ability in r["abilities"]:
        assert ability in block
    markers = sum(1 for ln in lines[start + 1 :] if ln.startswith(("■", "- ")))
    inline = lines[start] not in ("In-Game Abilities:", "In-Game Abilities: None.")
    assert len(r["abilities"]) == markers + inline


# ------------------------------------------------------------ 2020 rulebook


@pytest.mark.parametrize("index", range(len(document(RULEBOOK_2020)["rulers"])))
def test_it_quotes_the_2020_deck_construction_lines_verbatim(index: int) -> None:
    rulers = document(RULEBOOK_2020)["rulers"]
    r = rulers[index]
    lines = sections(seed_of(RULEBOOK_2020), [x["heading"] for x in rulers])[r["heading"]]
    start = lines.index("Deck Construction Rules") + 1
    expected = []
    for ln in lines[start:]:
        if ln.startswith("Edited by "):
            break
        expected.append(ln[2:] if ln.startswith(("- ", "> ")) else ln)
    assert r["deck_construction"]["text"] == expected
    assert r["zones"]["text"] == "; ".join(lines[:3])
    assert (r["life"], r["atk"], r["stk"]) == (None, None, None)


# ------------------------------------------------------------------ geases


def test_it_quotes_every_geas_modification_and_addition_verbatim() -> None:
    text = appendix_b_text()
    lines = text.split("\n")
    for geas in document(APPENDIX_B)["geases"]:
        assert "Target Ruler: " + geas["target_text"] in lines
        for entry in geas["modifications"] + geas["additions"]:
            if "\n" in entry["text"]:
                assert "-" + entry["text"] in text
            else:
                assert "-" + entry["text"] in lines


def test_it_has_one_entry_per_geas_line_of_the_seed() -> None:
    geases = document(APPENDIX_B)["geases"]
    lines = [ln for ln in appendix_b_text().split("\n") if ln.strip()]
    per_geas = sections("\n".join(lines), [g["name"] for g in geases])
    for geas in geases:
        block = per_geas[geas["name"]]
        mods_at = block.index("Rules Modifications:") if "Rules Modifications:" in block else None
        adds_at = block.index("Rules Additions:") if "Rules Additions:" in block else None
        n_mods = n_adds = 0
        for i, ln in enumerate(block):
            if ln.startswith("-"):
                if adds_at is not None and i > adds_at:
                    n_adds += 1
                else:
                    assert mods_at is not None
                    assert i > mods_at
                    n_mods += 1
        assert (len(geas["modifications"]), len(geas["additions"])) == (n_mods, n_adds)


def test_it_patches_only_existing_keys_of_the_target_ruler() -> None:
    by_name = appendix_a_by_name()
    for geas in document(APPENDIX_B)["geases"]:
        target = by_name[geas["target_ruler"]]
        for entry in geas["modifications"] + geas["additions"]:
            ops = [op for op in ("set", "append") if op in entry]
            assert len(ops) == 1
            assert set(entry) == {"text", ops[0]}
            for path, value in entry[ops[0]].items():
                node: Any = target
                for part in path.split("."):
                    assert isinstance(node, dict)
                    assert part in node, (geas["name"], path)
                    node = node[part]
                if ops[0] == "append":
                    assert isinstance(node, list)
                    assert isinstance(value, list)
                    assert value
                elif isinstance(node, dict):
                    assert isinstance(value, dict)
                    assert list(value) == list(node)


def test_it_sets_the_numbers_the_geas_lines_state() -> None:
    simple = {
        r"Maximum factions: (\d+)": "deck_construction.max_factions.all",
        r"Deck level cap: (\d+)": "deck_construction.level_cap",
        r"CNT cap: (\d+)": "deck_construction.cnt_cap",
        r"Life: (\d+)": "life",
        r"Prepare (\d+) resource cards in addition to your deck\.": ("deck_construction.resource_cards"),
    }
    for geas in document(APPENDIX_B)["geases"]:
        for entry in geas["modifications"]:
            for pattern, path in simple.items():
                if m := re.fullmatch(pattern, entry["text"]):
                    assert entry["set"] == {path: int(m[1])}
            for prefix, path in (
                ("Setup: ", "setup"),
                ("Start of Turn: ", "start_of_turn"),
            ):
                if entry["text"].startswith(prefix):
                    assert entry["set"][path]["text"] == entry["text"][len(prefix) :]


def _number(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return int(m[1]) if m else 0


@pytest.mark.parametrize("heading", A_HEADINGS)
def test_it_matches_the_setup_and_start_of_turn_numbers_to_their_text(
    heading: str,
) -> None:
    (r,) = (r for r in appendix_a_rulers() if r["heading"] == heading)
    setup = r["setup"]
    text = setup["text"]
    assert setup["resources_ready"] == _number(r"Put (\d+) resource cards into your", text)
    assert setup["draw"] == _number(r"Draw (\d+) cards", text)
    assert setup["drive"] == _number(r"Drive (\d+)", text)

    sot = r["start_of_turn"]
    text = sot["text"]
    assert sot["drive"] == _number(r"Drive (\d+)", text)
    assert sot["draw"] == _number(r"Draw (\d+) cards", text)
    assert sot["ready_resources"] == _number(r"Ready (\d+) resources", text)
    assert sot["resources_from_deck"] == _number(r"Put the top (\d+) cards of your deck", text)
    summon = re.search(r"[Ss]ummon cap is (\d+|unlimited)", text)
    assert summon is not None
    assert sot["summon_cap"] == (None if summon[1] == "unlimited" else int(summon[1]))
    set_cap = re.search(r"set cap is (\d+)", text)
    assert sot["set_cap"] == (int(set_cap[1]) if set_cap else None)
    if "first turn" in text:
        assert sot["first_turn"] is not None
    else:
        assert sot["first_turn"] is None
