"""decks.decklists.link: a deck in a URL-safe share code. Plain pytest, no Django, no database."""

from __future__ import annotations

import base64
import json
import re
import zlib
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklists.link import MAX_COUNT, VERSION, DeckLinkError, LinkedDeck, decode_deck_link, encode_deck_link
from decks.limits import spoofing_refusal

DECK = LinkedDeck(
    ruler="apprentice",
    geas="oath-of-embers",
    attribute="Dragon",
    rules_date=date(2024, 6, 1),
    main={f"2025PS01-{i:03d}": 4 for i in range(1, 13)} | {"2025PS01-013": 2},
    resources={"2025PS00-900": 10},
    name="Ember Rush",
)


def _code(payload) -> str:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(json.dumps(payload).encode()) + compressor.flush()
    return VERSION + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_it_decodes_what_it_encodes():
    assert decode_deck_link(encode_deck_link(DECK)) == DECK


def test_a_code_is_url_safe_versioned_and_compact():
    code = encode_deck_link(DECK)

    assert re.fullmatch(r"[A-Za-z0-9_-]+", code)
    assert code.startswith(VERSION)
    assert len(code) < 200


def test_the_same_deck_gives_the_same_code_whatever_the_order():
    shuffled = LinkedDeck(
        ruler=DECK.ruler,
        geas=DECK.geas,
        attribute=DECK.attribute,
        rules_date=DECK.rules_date,
        main=dict(reversed(list(DECK.main.items()))),
        resources=DECK.resources,
        name=DECK.name,
    )

    assert encode_deck_link(shuffled) == encode_deck_link(DECK)


def test_a_minimal_deck_round_trips():
    deck = LinkedDeck(ruler="knight")

    assert decode_deck_link(encode_deck_link(deck)) == deck


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "no deck"),
        ("2" + encode_deck_link(DECK)[1:], "format “2”"),
        ("1abc$def", "characters"),
        ("1abcd", "damaged"),
        (encode_deck_link(DECK)[:-6], "damaged"),
        ("1" + "A" * 7000, "too long"),
        (_code({"ruler": "apprentice"}), "does not hold a deck"),
        (_code(["", "", "", "", [], []]), "no ruler"),
        (_code(["apprentice", "", "", "June", [], []]), "not a date"),
        (_code(["apprentice", "", "", "", ["X-1"], []]), "not a list of cards"),
        (_code(["apprentice", "", "", "", ["X-1", 0], []]), "a count is 1 to 99"),
        (_code(["apprentice", "", "", "", ["X-1", 100], []]), "a count is 1 to 99"),
        (_code(["apprentice", "", "", "", ["X-1", True], []]), "a count is 1 to 99"),
        (_code(["apprentice", "", "", "", ["X-1", 1, "X-1", 2], []]), "twice"),
        (_code(["apprentice", "", "", "", [], [5, 1]]), "collector number"),
        (_code(["apprentice", 7, "", "", [], []]), "geas"),
        (_code(["apprentice", "", "", "", [], [], 42]), "name"),
    ],
)
def test_it_refuses_what_it_did_not_write(code, message):
    with pytest.raises(DeckLinkError, match=re.escape(message)):
        decode_deck_link(code)


def test_it_refuses_too_many_printings():
    flat = [item for i in range(301) for item in (f"N-{i}", 1)]

    with pytest.raises(DeckLinkError, match="more than 300"):
        decode_deck_link(_code(["apprentice", "", "", "", flat, []]))


def test_it_refuses_a_decompression_bomb():
    # A short code that inflates to a megabyte: refused without inflating it all.
    bomb = _code(["apprentice", "", "", "", [], [], "x" * 1_000_000])

    assert len(bomb) < 6000
    with pytest.raises(DeckLinkError, match="damaged"):
        decode_deck_link(bomb)


def _raw_code(raw: bytes) -> str:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return VERSION + base64.urlsafe_b64encode(compressor.compress(raw) + compressor.flush()).decode().rstrip("=")


@pytest.mark.parametrize("depth", [2_000, 30_000])
def test_it_refuses_a_payload_nested_too_deeply(depth):
    # A few dozen characters inflate to thousands of brackets: Python's json module raised RecursionError.
    code = _raw_code(b"[" * depth + b"]" * depth)

    assert len(code) < 300
    with pytest.raises(DeckLinkError, match="nested too deeply"):
        decode_deck_link(code)


@pytest.mark.parametrize("count", [10**30, 10**6, 100])
def test_it_refuses_a_count_past_the_decks_bound_naming_the_card(count):
    with pytest.raises(DeckLinkError, match=f"{count} copies of N-1; a count is 1 to 99"):
        decode_deck_link(_code(["apprentice", "", "", "", ["N-1", count], []]))


def test_it_refuses_a_deck_name_that_spoofs_its_display():
    with pytest.raises(DeckLinkError, match=r"not allowed \(U\+202E\)"):
        decode_deck_link(_code(["apprentice", "", "", "", [], [], "Ember\u202eRush"]))


_numbers = st.from_regex(r"[A-Z0-9]{2,8}-[0-9A-Z]{1,4}", fullmatch=True)
_counts = st.dictionaries(_numbers, st.integers(min_value=1, max_value=MAX_COUNT), max_size=40)


@pytest.mark.slow
@settings(deadline=None)
@given(
    ruler=st.from_regex(r"[a-z][a-z0-9-]{0,30}", fullmatch=True),
    geas=st.none() | st.from_regex(r"[a-z][a-z0-9-]{0,30}", fullmatch=True),
    attribute=st.text(max_size=30),
    rules_date=st.none() | st.dates(),
    main=_counts,
    resources=_counts,
    # A name that spoofs its display is refused (test_it_refuses_a_deck_name_that_spoofs_its_display).
    name=st.text(max_size=100).filter(lambda name: spoofing_refusal(name) is None),
)
def test_any_deck_round_trips(ruler, geas, attribute, rules_date, main, resources, name):
    deck = LinkedDeck(ruler, geas, attribute, rules_date, main, resources, name)

    assert decode_deck_link(encode_deck_link(deck)) == deck


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", max_size=300))
def test_garbage_raises_only_deck_link_errors(code):
    try:
        deck = decode_deck_link(code)
    except DeckLinkError:
        return
    assert isinstance(deck, LinkedDeck)
