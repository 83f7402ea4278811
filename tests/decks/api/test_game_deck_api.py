"""/api/v1/decks/ for the games besides Gate Ruler: a deck saves, reads back and changes with its game and sections."""

from __future__ import annotations

import json

import pytest

from decks.models import Deck, DeckCard, DeckVersion
from decks.saved_drafts import deck_draft_of

pytestmark = pytest.mark.django_db

LIST = "/api/v1/decks/"


def send(client, method, url, data=None):
    return getattr(client, method)(url, json.dumps(data) if data is not None else None, content_type="application/json")


@pytest.fixture
def alice_client(client, user):
    client.force_login(user)
    return client


def gambit(**overrides):
    main = [{"number": f"RGT-{10 + i:03d}", "count": 2} for i in range(1, 20)] + [{"number": "RGT-030", "count": 1}]
    return {
        "name": "Embers",
        "game": "rulers-gambit",
        "kingdom": [{"name": "Fire Kingdom", "count": 1}],
        "main": main,
        **overrides,
    }


def runners(**overrides):
    main = [{"number": f"GRT-{100 + i:03d}", "count": 2} for i in range(1, 21)]
    gates = [{"name": n, "count": 1} for n in ("North Gate", "South Gate", "East Gate")]
    return {
        "game": "gaterunners",
        "hero": [{"number": "GRT-001", "count": 1}],
        "gates": gates,
        "main": main,
        **overrides,
    }


def test_a_rulers_gambit_deck_saves_and_reads_back(alice_client, game_catalog):
    created = send(alice_client, "post", LIST, gambit())

    assert created.status_code == 201, created.content
    data = created.json()
    assert data["game"] == "rulers-gambit"
    assert data["ruler"] is None
    assert data["kingdom"] == [{"number": "RGT-001", "name": "Fire Kingdom", "count": 1}]
    assert sum(line["count"] for line in data["main"]) == 39
    assert data["verdict"]["legal"] is True
    deck = Deck.objects.get(public_id=data["public_id"])
    assert deck.game == "rulers-gambit"
    assert deck.ruler is None
    assert DeckCard.objects.filter(deck=deck, section="kingdom").count() == 1
    assert DeckVersion.objects.get(deck=deck).snapshot["others"] == {"kingdom": {"RGT-001": 1}}
    assert send(alice_client, "get", data["url"].replace("/d/", "/api/v1/decks/")).json() == data


def test_a_gaterunners_deck_saves_and_its_gates_change_by_patch(alice_client, game_catalog):
    data = send(alice_client, "post", LIST, runners()).json()
    assert data["hero"] == [{"number": "GRT-001", "name": "Wayfinder", "count": 1}]
    assert len(data["gates"]) == 3
    assert data["verdict"]["legal"] is True

    url = f"{LIST}{data['public_id']}/"
    patched = send(alice_client, "patch", url, {"version": 1, "gates": [{"name": "North Gate", "count": 2}]})

    assert patched.status_code == 200, patched.content
    assert patched.json()["gates"] == [{"number": "GRT-011", "name": "North Gate", "count": 2}]
    assert patched.json()["verdict"]["legal"] is False  # 2 Gates
    assert patched.json()["hero"] == data["hero"]  # left as it was
    assert "gates" in Deck.objects.get(public_id=data["public_id"]).verdict_reason.lower()


def test_the_list_shows_each_decks_game(alice_client, game_catalog):
    send(alice_client, "post", LIST, gambit())
    send(alice_client, "post", LIST, runners())

    games = sorted(deck["game"] for deck in send(alice_client, "get", LIST).json()["results"])

    assert games == ["gaterunners", "rulers-gambit"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (gambit(hero=[{"number": "GRT-001", "count": 1}]), "hero"),
        (gambit(resources=[{"number": "RGT-011", "count": 1}]), "resources"),
        (gambit(ruler="apprentice"), "ruler"),
        (gambit(main=[{"name": "Runner 1", "count": 2}]), "main[0]"),
        (runners(kingdom=[{"name": "Fire Kingdom", "count": 1}]), "kingdom"),
    ],
)
def test_what_the_game_lacks_is_refused_naming_it(alice_client, game_catalog, body, field):
    response = send(alice_client, "post", LIST, body)

    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Deck.objects.exists()


def test_a_saved_decks_game_does_not_change(alice_client, game_catalog):
    data = send(alice_client, "post", LIST, gambit()).json()

    response = send(alice_client, "patch", f"{LIST}{data['public_id']}/", {"version": 1, "game": "gaterunners"})

    assert response.status_code == 400
    assert response.json()["field"] == "game"
    assert deck_draft_of(deck=Deck.objects.get(public_id=data["public_id"])).game == "rulers-gambit"


def test_a_gate_ruler_deck_still_needs_its_ruler(alice_client, deck_catalog):
    response = send(alice_client, "post", LIST, {"main": [{"number": "TS-001", "count": 4}]})

    assert response.status_code == 400
    assert response.json()["error"] == "ruler: This field is required for a Gate Ruler deck."


def test_a_game_deck_is_replaced_by_put_with_its_game(alice_client, game_catalog):
    data = send(alice_client, "post", LIST, runners()).json()
    url = f"{LIST}{data['public_id']}/"

    replaced = send(
        alice_client, "put", url, runners(version=1, name="Renamed", hero=[{"name": "Pathseeker", "count": 1}])
    )

    assert replaced.status_code == 200, replaced.content
    assert replaced.json()["name"] == "Renamed"
    assert replaced.json()["hero"] == [{"number": "GRT-002", "name": "Pathseeker", "count": 1}]
    assert replaced.json()["version"] == 2


def test_what_a_game_lacks_is_refused_in_the_requests_language(alice_client, game_catalog):
    def post(language):
        body = json.dumps(gambit(ruler="apprentice"))
        return alice_client.post(LIST, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)

    english, japanese = post("en"), post("ja")

    assert english.json() == {"error": "ruler: a Ruler's Gambit deck has no ruler or geas.", "field": "ruler"}
    assert japanese.json() == {
        "error": "ruler: Ruler's Gambit のデッキにルーラーやギアスはありません。",
        "field": "ruler",
    }


@pytest.mark.parametrize(
    ("method", "url", "body", "signed_in", "key", "english", "japanese"),
    [
        ("post", LIST, {}, False, "detail", "Sign in (session or token) to save decks.", "デッキを保存するには"),
        ("get", f"{LIST}?page_size=0", None, True, "page_size", "A whole number of at least 1.", "1 以上の整数"),
        ("get", f"{LIST}?public=maybe", None, True, "public", "Must be a valid boolean", "真偽値"),
        ("get", f"{LIST}no-such-deck/", None, True, "detail", "No such deck.", "そのデッキはありません。"),
        ("post", LIST, "{", True, "error", "Malformed JSON: ", "JSON の形式が正しくありません:"),
    ],
)
def test_the_apis_refusals_are_worded_per_accept_language(
    client, user, method, url, body, signed_in, key, english, japanese
):
    """Every refusal of the decks API, not only the engine's: the codes and field names stay, the words follow."""
    if signed_in:
        client.force_login(user)

    def ask(language):
        data = body if isinstance(body, str) or body is None else json.dumps(body)
        answer = getattr(client, method)(url, data, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        assert 400 <= answer.status_code < 500
        said = answer.json()[key]
        return said[0] if isinstance(said, list) else said

    assert ask("en").startswith(english)
    assert ask("ja").startswith(japanese)
