"""decks/editor/undo.py: a deck's state as a code, and the state a code brings back (the editor's undo)."""

from __future__ import annotations

import datetime
import zlib

import pytest

from decks.editor.undo import draft_restored, draft_state_code
from decks.models import DeckDraft
from gatesite.errors import ApplicationError
from tests.decks.factories import gambit_draft, runners_draft

pytestmark = pytest.mark.django_db


def test_it_brings_back_every_section_and_the_rules_chosen(deck_catalog):
    was = DeckDraft(
        ruler="apprentice",
        attribute="Dragon",
        rules_date=datetime.date(2025, 6, 1),
        main={"TS-001": 4, "TS-002": 1},
        resources={"TS-300": 3},
        considering={"TS-100": 2},
        name="Old name",
    )
    now = DeckDraft(ruler="knight", name="New name", description="Kept")

    restored = draft_restored(draft=now, code=draft_state_code(was))

    assert (restored.ruler, restored.attribute, restored.rules_date) == ("apprentice", "Dragon", was.rules_date)
    assert (restored.main, restored.resources, restored.considering) == (was.main, was.resources, was.considering)
    # An undo never renames the deck: the name and description are the deck's as they are now.
    assert (restored.name, restored.description) == ("New name", "Kept")


def test_the_same_state_gives_the_same_code_whatever_the_order_of_its_lines(deck_catalog):
    one = DeckDraft(ruler="apprentice", main={"TS-001": 1, "TS-002": 2}, name="A")
    other = DeckDraft(ruler="apprentice", main={"TS-002": 2, "TS-001": 1}, name="B")

    assert draft_state_code(one) == draft_state_code(other)
    assert draft_state_code(one) != draft_state_code(DeckDraft(ruler="apprentice", main={"TS-001": 1}))


@pytest.mark.parametrize("draft", [gambit_draft(), runners_draft(considering={"GRT-102": 1})])
def test_it_brings_back_a_deck_of_another_game(game_catalog, draft):
    restored = draft_restored(draft=draft.with_section("main", {}), code=draft_state_code(draft))

    assert restored == draft


def test_it_refuses_a_state_of_another_game(game_catalog):
    with pytest.raises(ApplicationError, match="another game"):
        draft_restored(draft=runners_draft(), code=draft_state_code(gambit_draft()))


def test_it_refuses_a_state_naming_a_card_the_catalog_no_longer_has(deck_catalog):
    code = draft_state_code(DeckDraft(ruler="apprentice", main={"TS-001": 1, "XX-404": 2}))

    with pytest.raises(ApplicationError, match="XX-404"):
        draft_restored(draft=DeckDraft(ruler="apprentice"), code=code)


def _code_of(payload: bytes) -> str:
    import base64

    compressor = zlib.compressobj(1, zlib.DEFLATED, -9, 1)
    return "1" + base64.urlsafe_b64encode(compressor.compress(payload) + compressor.flush()).decode().rstrip("=")


@pytest.mark.parametrize(
    "code",
    [
        "",
        "2abc",
        "1!!!",
        "1" + "A" * 20_000,
        _code_of(b"not json"),
        _code_of(b'["gate-ruler","apprentice","","","",{"main":["TS-001",0]}]'),
        _code_of(b'["gate-ruler","apprentice","","","",{"main":["TS-001",100]}]'),
        _code_of(b'["gate-ruler","apprentice","","","",{"kingdom":["TS-001",1]}]'),
        _code_of(b'["no-such-game","apprentice","","","",{}]'),
        _code_of(b'["gate-ruler","apprentice","","","2025-13-01",{}]'),
        _code_of(b'["gate-ruler","apprentice","",""]'),
        _code_of(b"[" * 5000),
    ],
)
def test_it_refuses_a_code_it_did_not_write(deck_catalog, code):
    with pytest.raises(ApplicationError, match="could not be read"):
        draft_restored(draft=DeckDraft(ruler="apprentice"), code=code)
