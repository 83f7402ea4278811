"""A card of another game than Gate Ruler on the card page, in the API detail and in the admin,
and cards.games (the games read from data/games/*.json) and cards.game_catalog (a game's card facts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from cards.game_catalog import game_catalog_get
from cards.games import UnknownGameError, default_game, game_get, games, games_load
from cards.models import Card
from decks.rules.games import GameDataError
from tests.cards.factories import CardFactory, CardSetFactory, GameCardFactory, PrintingFactory

GAMES_DIR = Path(__file__).resolve().parents[2] / "data" / "games"


@pytest.fixture
def kingdom(db):
    card = GameCardFactory(
        name="Kingdom of Tides",
        type="kingdom-ruler",
        fields={"colours": ["blue", "red"], "lp": 25, "awakening_cost": None, "ruler_name": "Tide King", "race": "Elf"},
        text="Kingdom side: draw.",
    )
    PrintingFactory(collector_number="RGT-001", card=card, card_set=CardSetFactory(code="RGT", game="rulers-gambit"))
    return card


def test_the_card_page_shows_a_games_fields_with_the_games_labels(client, kingdom):
    page = client.get("/cards/RGT-001/").content.decode()

    assert "<dt>Game</dt><dd>Ruler&#x27;s Gambit</dd>" in page
    assert "<dt>Type</dt><dd>Kingdom-Ruler</dd>" in page
    assert "<dt>Colour</dt><dd>Blue, Red</dd>" in page
    assert "<dt>LP</dt><dd>25</dd>" in page
    assert "<dt>Awakening COST</dt><dd>—</dd>" in page
    assert "<dt>Ruler side</dt><dd>Tide King</dd>" in page
    assert "<dt>CNT</dt>" not in page  # Gate Ruler's fields are not this game's


def test_a_gate_ruler_card_page_is_as_before(client, db):
    PrintingFactory(collector_number="T-1", card=CardFactory(name="Plain", level=1, cnt=True))
    page = client.get("/cards/T-1/").content.decode()
    assert "<dt>Game</dt>" not in page
    assert "<dt>Type</dt><dd>Unit</dd>" in page
    assert "<dt>CNT</dt><dd>yes</dd>" in page


def test_the_card_detail_api_gives_the_game_and_fields(client, kingdom):
    body = client.get("/api/v1/cards/RGT-001/").json()
    assert (body["game"], body["type"]) == ("rulers-gambit", "kingdom-ruler")
    assert body["fields"]["colours"] == ["blue", "red"]


@pytest.fixture
def admin_client(client, db):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "correct horse battery")
    client.force_login(admin)
    return client


def test_the_admin_lists_and_filters_cards_by_game(admin_client, kingdom):
    CardFactory(name="Plain Unit")
    page = admin_client.get("/admin/cards/card/", {"game": "rulers-gambit"}).content.decode()
    assert "Kingdom of Tides" in page
    assert "Plain Unit" not in page
    assert admin_client.get(f"/admin/cards/card/{kingdom.pk}/change/").status_code == 200
    assert "rulers-gambit" in admin_client.get("/admin/cards/cardset/").content.decode()


def test_clean_checks_a_card_against_its_games_fields(kingdom):
    kingdom.full_clean()  # as stored: valid
    kingdom.fields = {**kingdom.fields, "spell_type": "set"}
    kingdom.type = "kingdom-ruler"
    with pytest.raises(ValidationError) as caught:
        kingdom.full_clean()
    assert caught.value.message_dict["fields"] == [
        "spell_type: Kingdom-Ruler cards have no Spell type (only spell cards have it)"
    ]
    kingdom.game = "chess"
    with pytest.raises(ValidationError) as caught:
        kingdom.full_clean()
    assert caught.value.message_dict["game"][0].startswith("unknown game 'chess'")


def test_the_games_are_read_from_their_data_files():
    assert list(games()) == ["gate-ruler", "gaterunners", "rulers-gambit"]
    assert default_game().slug == "gate-ruler"
    assert game_get("gaterunners").name == "GateRunners"
    with pytest.raises(
        UnknownGameError, match="unknown game 'chess'; games are gate-ruler, gaterunners, rulers-gambit"
    ):
        game_get("chess")


def test_a_game_file_named_after_another_game_is_an_error(tmp_path):
    for path in GAMES_DIR.glob("*.json"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "gaterunners.json").rename(tmp_path / "runners.json")
    with pytest.raises(
        GameDataError, match=r"runners.json: its \"game\" is 'gaterunners'; name the file gaterunners.json"
    ):
        games_load(tmp_path)


def test_a_broken_game_file_is_an_error_naming_it(tmp_path):
    data = json.loads((GAMES_DIR / "gate-ruler.json").read_text(encoding="utf-8"))
    (tmp_path / "gate-ruler.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"game": "broken"', encoding="utf-8")
    with pytest.raises(GameDataError, match=r"broken\.json: "):
        games_load(tmp_path)


def test_a_game_catalog_gives_each_cards_facts_by_number_and_name(kingdom):
    PrintingFactory(collector_number="RGT-101", card=kingdom, card_set=CardSetFactory(code="RGT"))
    PrintingFactory(collector_number="T-1", card=CardFactory(name="Plain"))

    catalog = game_catalog_get(game="rulers-gambit")

    fact = catalog.by_name["Kingdom of Tides"]
    assert fact is catalog.by_number["RGT-001"] is catalog.by_number["RGT-101"]
    assert fact["collector_numbers"] == ("RGT-001", "RGT-101")
    assert (fact["type"], fact["fields"]["colours"]) == ("kingdom-ruler", ("blue", "red"))
    assert "T-1" not in catalog.by_number
    assert game_catalog_get(game="gaterunners").by_name == {}


def test_a_game_catalog_is_read_again_after_a_catalog_change(kingdom):
    before = game_catalog_get(game="rulers-gambit")
    assert game_catalog_get(game="rulers-gambit") is before
    Card.objects.filter(pk=kingdom.pk).update(name="Renamed")
    GameCardFactory(name="New One")  # a save: the catalog's token changes
    after = game_catalog_get(game="rulers-gambit")
    assert "Renamed" in after.by_name
    with pytest.raises(UnknownGameError):
        game_catalog_get(game="chess")


def card_form(card: Card, **changes: object) -> dict[str, object]:
    """The admin's change form of a card without printings or errata, with `changes`."""
    data: dict[str, object] = {
        "name": card.name,
        "name_ja": "",
        "type": card.type,
        "game": card.game,
        "fields": json.dumps(card.fields),
        "text": card.text,
        "cnt": "",
        "legend": "",
    }
    for prefix in ("printings", "errata"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000}
    return data | changes


def test_an_admin_edits_a_games_card_and_a_bad_field_is_refused(admin_client, db):
    card = GameCardFactory(name="Spell Card", type="spell", fields={"colours": ["red"], "cost": 1, "spell_type": "set"})
    url = f"/admin/cards/card/{card.pk}/change/"

    saved = admin_client.post(url, card_form(card, fields=json.dumps({**card.fields, "cost": 3})))
    refused = admin_client.post(url, card_form(card, fields=json.dumps({**card.fields, "spell_type": "sneaky"})))

    assert saved.status_code == 302
    assert refused.status_code == 200
    assert (
        "spell_type: &#x27;sneaky&#x27; is not a spell type (normal, set, quick-play, equip)"
        in refused.content.decode()
    )
    card.refresh_from_db()
    assert card.fields["cost"] == 3
    assert card.fields["spell_type"] == "set"


def test_gate_rulers_card_facts_leave_other_games_printings_out(kingdom):
    from cards.selectors import card_facts_rows

    PrintingFactory(collector_number="T-1", card=CardFactory(name="Plain"))
    assert [row[0] for row in card_facts_rows(["T-1", "RGT-001"])] == ["T-1"]


def test_a_card_type_longer_than_the_catalogs_column_is_an_error(tmp_path):
    data = json.loads((GAMES_DIR / "gaterunners.json").read_text(encoding="utf-8"))
    data["card_types"].append({"key": "x" * 21, "label": "Long"})
    (tmp_path / "gaterunners.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameDataError, match=r"gaterunners\.json: card type 'x{21}' is longer than 20 characters"):
        games_load(tmp_path)
