"""POST /api/v1/decks/validate/ for the games besides Gate Ruler: each rule at its boundary, and the 400s."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/decks/validate/"


def post(client, body):
    return client.post(URL, json.dumps(body), content_type="application/json")


def imps(total):
    """`total` red main-deck cards, 2 copies of each Ember Imp (one copy of the last when odd)."""
    lines, left, i = [], total, 1
    while left > 0:
        lines.append({"number": f"RGT-{10 + i:03d}", "count": min(2, left)})
        left -= 2
        i += 1
    return lines


def gambit(**overrides):
    """A legal Ruler's Gambit deck: the Fire Kingdom and 39 red units."""
    return {"game": "rulers-gambit", "kingdom": [{"name": "Fire Kingdom", "count": 1}], "main": imps(39), **overrides}


def runners(**overrides):
    """A legal GateRunners deck: a Hero, 3 Gates and 40 units."""
    main = [{"number": f"GRT-{100 + i:03d}", "count": 2} for i in range(1, 21)]
    gates = [{"name": n, "count": 1} for n in ("North Gate", "South Gate", "East Gate")]
    return {
        "game": "gaterunners",
        "hero": [{"number": "GRT-001", "count": 1}],
        "gates": gates,
        "main": main,
        **overrides,
    }


def codes(answer):
    return [v["rule"] for v in answer["violations"]]


def test_a_legal_rulers_gambit_deck(client, game_catalog):
    answer = post(client, gambit()).json()

    assert answer["legal"] is True
    assert answer["game"] == "rulers-gambit"
    assert answer["violations"] == []
    assert answer["summary"] == {"kingdom": 1, "main": 39}


@pytest.mark.parametrize(("size", "legal"), [(38, False), (39, True), (40, False)])
def test_the_main_deck_must_hold_exactly_39(client, game_catalog, size, legal):
    answer = post(client, gambit(main=imps(size))).json()

    assert answer["legal"] is legal
    assert codes(answer) == ([] if legal else ["deck_size"])
    if not legal:
        assert f"{size} cards" in answer["violations"][0]["message"]
        assert answer["violations"][0]["source"]


@pytest.mark.parametrize("copies", [2, 3])
def test_at_most_2_copies_of_a_card(client, game_catalog, copies):
    main = [*imps(39 - copies), {"number": "RGT-030", "count": copies}]

    answer = post(client, gambit(main=main)).json()

    assert codes(answer) == ([] if copies == 2 else ["max_copies"])
    if copies == 3:
        assert answer["violations"][0]["cards"] == ["Ember Imp 20"]


@pytest.mark.parametrize("kingdoms", [[], [{"number": "RGT-001", "count": 1}, {"number": "RGT-002", "count": 1}]])
def test_exactly_one_kingdom(client, game_catalog, kingdoms):
    answer = post(client, gambit(kingdom=kingdoms)).json()

    assert codes(answer) == ["kingdom"]


def test_a_card_of_a_colour_the_kingdom_does_not_allow(client, game_catalog):
    main = [*imps(38), {"name": "Wave Sprite", "count": 1}]

    answer = post(client, gambit(main=main)).json()

    assert codes(answer) == ["colour"]
    assert answer["violations"][0]["cards"] == ["Wave Sprite"]


def test_a_kingdom_ruler_in_the_main_deck(client, game_catalog):
    main = [*imps(38), {"name": "Tide Kingdom", "count": 1}]

    answer = post(client, gambit(main=main)).json()

    assert "card_type" in codes(answer)
    assert "Tide Kingdom" in answer["violations"][codes(answer).index("card_type")]["cards"]


def test_a_legal_gaterunners_deck(client, game_catalog):
    answer = post(client, runners()).json()

    assert answer == {
        "legal": True,
        "game": "gaterunners",
        "as_of": answer["as_of"],
        "violations": [],
        "summary": {"hero": 1, "gates": 3, "main": 40},
    }


def test_39_main_cards_in_gaterunners(client, game_catalog):
    main = [{"number": f"GRT-{100 + i:03d}", "count": 2} for i in range(1, 20)] + [{"number": "GRT-120", "count": 1}]

    answer = post(client, runners(main=main)).json()

    assert codes(answer) == ["deck_size"]
    assert "39" in answer["violations"][0]["message"]


@pytest.mark.parametrize(
    "gates", [["North Gate", "South Gate"], ["North Gate", "South Gate", "East Gate", "West Gate"]]
)
def test_exactly_3_gates(client, game_catalog, gates):
    answer = post(client, runners(gates=[{"name": n, "count": 1} for n in gates])).json()

    assert codes(answer) == ["gates"]
    assert f"{len(gates)} cards" in answer["violations"][0]["message"]


def test_exactly_one_hero(client, game_catalog):
    two = [{"number": "GRT-001", "count": 1}, {"number": "GRT-002", "count": 1}]

    assert codes(post(client, runners(hero=two)).json()) == ["hero"]
    assert codes(post(client, runners(hero=[])).json()) == ["hero"]


def test_a_gate_in_the_hero_section(client, game_catalog):
    answer = post(client, runners(hero=[{"name": "West Gate", "count": 1}])).json()

    assert codes(answer) == ["card_type"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            lambda: gambit(main=[{"name": "Runner 1", "count": 39}]),
            "main[0]",
            "no Ruler's Gambit card with name 'Runner 1'",
        ),
        (lambda: gambit(kingdom=[{"number": "GRT-001", "count": 1}]), "kingdom[0]", "collector number 'GRT-001'"),
        (lambda: runners(gates=[{"name": "Fire Kingdom", "count": 3}]), "gates[0]", "no GateRunners card"),
    ],
)
def test_a_card_of_another_game_is_an_unknown_card(client, game_catalog, body, field, words):
    response = post(client, body())

    assert response.status_code == 400
    assert response.json()["field"] == field
    assert words in response.json()["error"]


def test_a_gate_ruler_card_is_unknown_in_another_game_and_the_other_way_round(client, game_catalog, deck_catalog):
    refused = post(client, gambit(main=[{"name": "Ember Squire 1", "count": 39}]))
    assert refused.status_code == 400
    assert refused.json()["field"] == "main[0]"

    gate_ruler = {"ruler": "apprentice", "main": [{"name": "Fire Kingdom", "count": 1}]}
    refused = post(client, gate_ruler)
    assert refused.status_code == 400
    assert refused.json() == {"error": "main[0]: no card with name 'Fire Kingdom'.", "field": "main[0]"}


def test_an_unknown_game_a_section_the_game_lacks_and_a_bad_count(client, game_catalog):
    unknown = post(client, {"game": "chess", "main": []})
    assert unknown.status_code == 400
    assert unknown.json()["error"].startswith("game: ")

    lacking = post(client, gambit(resources=[{"number": "RGT-011", "count": 1}]))
    assert lacking.status_code == 400
    assert lacking.json()["error"].startswith("resources: ")

    bad = post(client, runners(hero=[{"number": "GRT-001", "count": 0}]))
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("hero[0].count: ")


def test_gate_ruler_named_as_a_game_is_judged_as_without_it(client, deck_catalog):
    body = {"ruler": "apprentice", "as_of": "2024-01-01", "main": [{"number": "TS-001", "count": 4}]}

    without = post(client, body)
    named = post(client, {"game": "gate-ruler", **body})

    assert without.status_code == 200
    assert named.content == without.content
    assert "game" not in without.json()


@pytest.mark.parametrize(
    ("body", "code", "english", "japanese"),
    [
        (
            lambda: gambit(main=imps(38)),
            "deck_size",
            ("The main deck has 38 cards; it must have exactly 39.", "Deck Construction: a main deck"),
            (
                "メインデッキは 38 枚です。ちょうど 39 枚でなければなりません。",
                "デッキ構築:39 枚のカードからなるメインデッキ",
            ),
        ),
        (
            lambda: runners(gates=[{"name": "North Gate", "count": 1}]),
            "gates",
            ("The Gates section has 1 card; it must have exactly 3.", "Game Setup In-depth"),
            ("ゲートは 1 枚です。ちょうど 3 枚でなければなりません。", "ゲームの準備(詳細)"),
        ),
    ],
)
def test_a_games_verdict_is_worded_per_accept_language_with_its_codes_in_english(
    client, game_catalog, body, code, english, japanese
):
    answers = {
        language: client.post(URL, json.dumps(body()), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        for language in ("en", "ja")
    }
    violations = {language: {v["rule"]: v for v in a.json()["violations"]} for language, a in answers.items()}

    assert set(violations["en"]) == set(violations["ja"]) == {code}
    assert violations["en"][code]["message"] == english[0]
    assert violations["en"][code]["source"].startswith(english[1])
    assert violations["ja"][code]["message"] == japanese[0]
    assert violations["ja"][code]["source"].startswith(japanese[1])


def test_a_section_the_game_lacks_is_refused_in_the_requests_language(client, game_catalog):
    body = json.dumps(gambit(hero=[{"number": "GRT-001", "count": 1}]))

    japanese = client.post(URL, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    english = client.post(URL, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")

    assert english.status_code == japanese.status_code == 400
    assert english.json()["error"] == "hero: Not a section or field of this game's deck lists."
    assert japanese.json()["error"] == "hero: このゲームのデッキリストのセクションや項目ではありません。"
