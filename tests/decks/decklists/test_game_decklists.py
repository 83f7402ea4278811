"""Deck lists of Ruler's Gambit and GateRunners decks: text export and import, the JSON body, share
links and the registration sheet."""

from __future__ import annotations

import datetime
import json

import pytest

from decks.decklists.selectors import (
    deck_draft_from_link,
    deck_draft_link,
    deck_draft_text,
    deck_draft_validate_body,
    deck_text_import,
)
from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from gatesite.errors import ApplicationError
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db


def test_a_rulers_gambit_deck_as_text(game_catalog):
    text = deck_draft_text(draft=gambit_draft(main={"RGT-011": 2, "RGT-040": 1}))

    assert (
        text
        == "# Embers\nGame: Ruler's Gambit\n\n# Unit (3)\n2 Ember Imp 1\n1 Wave Sprite\n\nKingdom:\n1 Fire Kingdom\n"
    )


@pytest.mark.parametrize("draft", [gambit_draft, runners_draft])
def test_the_text_reads_back_as_the_same_deck(game_catalog, draft):
    original = draft()

    result = deck_text_import(text=deck_draft_text(draft=original), draft=DeckDraft(ruler="apprentice"))

    assert result.errors == ()
    assert result.draft is not None
    assert result.draft.game == original.game
    assert dict(result.draft.main) == dict(original.main)
    assert {k: dict(v) for k, v in result.draft.others.items()} == {k: dict(v) for k, v in original.others.items()}
    assert result.state is not None
    assert result.state.report.legal


def test_a_gaterunners_list_typed_by_hand(game_catalog):
    text = "Game: GateRunners\nHero: Wayfinder\nGates:\nNorth Gate\n2 South Gate\nMain deck:\n40 Runner 1\n"

    result = deck_text_import(text=text, draft=DeckDraft(ruler="apprentice"))

    assert result.draft.others == {"hero": {"GRT-001": 1}, "gates": {"GRT-011": 1, "GRT-012": 2}}
    assert result.draft.main == {"GRT-101": 40}
    assert [v.rule for v in result.state.report.violations] == []


def test_a_card_of_another_game_is_a_line_left_out(game_catalog, deck_catalog):
    text = "Game: Ruler's Gambit\n2 Ember Imp 1\n2 Ember Squire 1\nKingdom: Fire Kingdom\n"

    result = deck_text_import(text=text, draft=DeckDraft(ruler="apprentice"))

    assert [error.number for error in result.errors] == [3]
    assert result.draft.others == {"kingdom": {"RGT-001": 1}}
    assert result.draft.main == {"RGT-011": 2}


def test_an_unknown_heading_blocks_and_names_its_line(game_catalog):
    result = deck_text_import(text="Game: GateRunners\nGatez:\n3 North Gate\n", draft=DeckDraft(ruler="apprentice"))

    assert result.blocked
    assert result.errors[0].number == 2
    assert "Gates" in str(result.errors[0])


def test_a_saved_decks_game_does_not_change_by_pasting(game_catalog, user):
    deck = game_deck(user, gambit_draft())

    result = deck_text_import(
        text="Game: GateRunners\nHero: Wayfinder\n", draft=deck_draft_of(deck=deck), game_fixed=True
    )

    assert result.blocked
    assert "Ruler's Gambit deck" in result.errors[-1].message


def test_pasting_over_a_saved_deck_saves_a_new_version(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())
    client.force_login(user)
    text = deck_draft_text(draft=gambit_draft(others={"kingdom": {"RGT-002": 1}}))
    preview = client.post(f"/decks/{deck.public_id}/import/", {"text": text})
    fingerprint = preview.context["result"].fingerprint

    response = client.post(
        f"/decks/{deck.public_id}/import/", {"text": text, "confirm": "1", "fingerprint": fingerprint}
    )

    assert response.status_code == 302
    assert response["Location"] == f"/decks/{deck.public_id}/edit/"
    saved = Deck.objects.get(pk=deck.pk)
    assert saved.version == 2
    assert deck_draft_of(deck=saved).others == {"kingdom": {"RGT-002": 1}}
    assert saved.legal is False  # red Imps under the blue Kingdom
    assert saved.verdict_reason.startswith("Colour not allowed by the Kingdom Tide Kingdom")


def test_the_import_page_previews_a_game_list(client, game_catalog):
    text = deck_draft_text(draft=runners_draft())

    response = client.post("/decks/new/import/", {"text": text})

    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-section="gates">Gates (3)<' in html
    assert 'data-legal="true"' in html


@pytest.mark.parametrize("draft", [gambit_draft, runners_draft])
def test_a_share_link_round_trips(client, game_catalog, draft):
    original = draft()
    code = deck_draft_link(draft=original)

    linked = deck_draft_from_link(code=code)
    page = client.get(f"/decks/link/{code}/")

    assert linked.game == original.game
    assert linked.main == original.main
    assert linked.others == original.others
    assert page.status_code == 200
    assert 'data-legal="true"' in page.content.decode()
    assert 'data-testid="save-copy"' in page.content.decode()

    copied = client.post(f"/decks/link/{code}/copy/")

    assert copied["Location"] == "/decks/new/"
    assert client.session["deck_draft"]["game"] == original.game
    editor = client.get("/decks/new/").content.decode()
    assert f'data-game="{original.game}"' in editor
    assert 'data-testid="verdict">Legal<' in editor


def test_a_game_decks_rules_date_and_attribute_stay_out_of_its_link_and_body(game_catalog):
    # The API lets a saved deck of any game keep a rules date and attribute; its link and body name neither.
    dated = gambit_draft(rules_date=datetime.date(2025, 1, 2), attribute="Dragon")

    assert deck_draft_link(draft=dated) == deck_draft_link(draft=gambit_draft())
    assert deck_draft_validate_body(draft=dated) == deck_draft_validate_body(draft=gambit_draft())
    assert set(deck_draft_validate_body(draft=dated)) == {"game", "kingdom", "main"}


def test_a_link_with_a_section_its_game_lacks_is_refused(game_catalog):
    code = deck_draft_link(draft=gambit_draft(others={"kingdom": {"RGT-001": 1}, "hero": {"GRT-001": 1}}))

    with pytest.raises(ApplicationError, match="hero"):
        deck_draft_from_link(code=code)


def test_a_saved_game_deck_shares_its_link(client, game_catalog, user):
    deck = game_deck(user, runners_draft())

    response = client.get(f"/decks/{deck.public_id}/share/")

    assert response.status_code == 302
    assert deck_draft_from_link(code=response["Location"].split("/")[-2]).others == runners_draft().others


def test_the_json_export_is_a_validate_body_of_the_game(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())
    body = client.get(f"/d/{deck.public_id}/export.json").json()

    answer = client.post("/api/v1/decks/validate/", json.dumps(body), content_type="application/json").json()

    assert body == deck_draft_validate_body(draft=deck_draft_of(deck=deck))
    assert body["kingdom"] == [{"number": "RGT-001", "count": 1}]
    assert answer["legal"] is True
    assert answer["game"] == "rulers-gambit"


def test_the_text_export_and_the_sheet(client, game_catalog, user):
    deck = game_deck(user, runners_draft())

    text = client.get(f"/d/{deck.public_id}/export.txt").content.decode()
    sheet = client.get(f"/d/{deck.public_id}/sheet/").content.decode()

    assert text.startswith("# Runners\nGame: GateRunners\n")
    assert "\nHero:\n1 Wayfinder\n" in text
    assert "GateRunners · printed from Gatesite" in sheet
    assert 'data-testid="sheet-gates-total">3<' in sheet
    assert 'data-testid="sheet-main-total">40<' in sheet
