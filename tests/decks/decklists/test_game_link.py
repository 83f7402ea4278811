"""Share links of the data-driven games: the link carries the game and its sections; a link with
no game is Gate Ruler's, as every older link is. Pure, no Django."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklists.link import VERSION, DeckLinkError, LinkedDeck, decode_deck_link, encode_deck_link


def _code(payload) -> str:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    return VERSION + base64.urlsafe_b64encode(compressor.compress(raw) + compressor.flush()).decode().rstrip("=")


RG_DECK = LinkedDeck(
    ruler="",
    game="rulers-gambit",
    main={"RG1-001": 2, "RG1-002": 1},
    sections={"kingdom": {"RG1-100": 1}},
    name="Blue Wall",
)


def test_a_game_deck_round_trips_with_its_game_and_sections():
    decoded = decode_deck_link(encode_deck_link(RG_DECK))

    assert decoded == RG_DECK
    assert decoded.game == "rulers-gambit"


def test_a_link_naming_its_game_carries_no_rules_chosen():
    # The site writes a game's link with the rules' places empty; what a hand-made one puts there is not read.
    code = _code(["apprentice", "oath", "Dragon", "2024-01-02", ["RG1-001", 2], [], "Blue", "rulers-gambit", {}])

    decoded = decode_deck_link(code)

    assert (decoded.ruler, decoded.geas, decoded.attribute, decoded.rules_date) == ("", None, "", None)
    assert (decoded.game, decoded.main, decoded.name) == ("rulers-gambit", {"RG1-001": 2}, "Blue")


def test_a_gate_ruler_code_is_the_one_it_always_was_and_decodes_with_no_game():
    old = _code(["apprentice", "", "", "", ["GR01-001", 4], [], "Ember"])
    deck = decode_deck_link(old)

    assert deck.game is None
    assert deck.sections == {}
    assert encode_deck_link(deck) == old


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (["", "", "", "", [], [], "", "Rulers Gambit!", {}], "game is not valid"),
        (["", "", "", "", [], [], "", "rulers-gambit", []], "sections are not valid"),
        (["", "", "", "", [], [], "", "rulers-gambit", {"King Dom": []}], "section that is not valid"),
        (["", "", "", "", [], [], "", "rulers-gambit", {"kingdom": ["RG1-100", 0]}], "a count is 1 to"),
        (["", "", "", "", [], [], "", "rulers-gambit"], "does not hold a deck"),
    ],
)
def test_a_bad_game_payload_is_refused_with_a_reason(payload, message):
    with pytest.raises(DeckLinkError, match=message):
        decode_deck_link(_code(payload))


numbers = st.from_regex(r"[A-Z]{2}[0-9]-[0-9]{3}", fullmatch=True)
counts = st.dictionaries(numbers, st.integers(1, 99), max_size=10)


@settings(max_examples=80, deadline=None)
@given(
    game=st.sampled_from(["rulers-gambit", "gaterunners", "tidebound"]),
    main=counts,
    sections=st.dictionaries(st.sampled_from(["kingdom", "hero", "gates"]), counts.filter(bool), max_size=3),
)
def test_any_game_deck_round_trips(game, main, sections):
    deck = LinkedDeck(ruler="", game=game, main=main, sections=sections)

    assert decode_deck_link(encode_deck_link(deck)) == deck
