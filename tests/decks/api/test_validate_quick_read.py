"""The validate body's quick reader (decks.api.parsing._quick_read) reads only what the body's model
reads, and reads it the same; everything else it leaves to the model (no database)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.api.bodies import DeckValidateInput
from decks.api.parsing import DeckListBody, _quick_read
from decks.drafts import DeckListLine
from decks.limits import MAX_LINE_COUNT
from decks.models import MAX_LINES


def model_read(raw: bytes) -> DeckListBody:
    return DeckListBody.of(DeckValidateInput.model_validate_json(raw))


def assert_read_alike(raw: bytes) -> DeckListBody | None:
    """If the quick reader takes the body, the model takes it too and reads it the same."""
    quick = _quick_read(raw)
    if quick is not None:
        assert quick == model_read(raw)
    return quick


_slug = st.from_regex(r"[-a-z0-9_]{1,12}", fullmatch=True)
_ascii_text = st.from_regex(r"[!-~]([ -~]{0,10}[!-~])?", fullmatch=True)
_clean_line = st.one_of(
    st.fixed_dictionaries({"number": _ascii_text, "count": st.integers(1, MAX_LINE_COUNT)}),
    st.fixed_dictionaries({"name": _ascii_text, "count": st.integers(1, MAX_LINE_COUNT)}),
)
_clean_dates = st.dates().map(lambda day: day.isoformat())
_clean_body = st.fixed_dictionaries(
    {"ruler": _slug, "main": st.lists(_clean_line, max_size=MAX_LINES)},
    optional={
        "geas": st.one_of(st.none(), _slug),
        "as_of": st.one_of(st.none(), _clean_dates),
        "attribute": st.one_of(st.none(), st.just(""), _ascii_text),
        "resources": st.lists(_clean_line, max_size=10),
    },
)

# Values near the edges of what the quick reader takes: spaces around, other whitespace, accents,
# control characters, NUL, a lone surrogate, blanks; counts of other JSON types or out of bounds.
_odd_texts = st.one_of(
    st.sampled_from(["", " ", " TS-001", "TS-001 ", "TS\t001", "TS-001\n", "Épée", "Ember\u00a0Squire", "a\x00b"]),
    st.sampled_from(["\x7f", "\x1f", "\u2028", "TS-001\u3000", "ｔｓ", "\ud800", "-", "a b"]),
    st.text(max_size=6),
)
_odd_counts = st.one_of(
    st.integers(-2, 0),
    st.integers(MAX_LINE_COUNT + 1, MAX_LINE_COUNT + 2),
    st.sampled_from([4.0, 1.5, True, False, None, "4", "4.0", [4], {"n": 4}, 10**6, 10**30]),
)
_odd_dates = st.sampled_from(
    ["2024-1-5", "20240105", "2024-W01-1", "2024-02-30", "2024-01-05T00:00", " 2024-01-05", "", 20240105]
)
_odd = st.one_of(_odd_texts, _odd_counts, _odd_dates)


@st.composite
def _body_with_odd_values(draw: Any) -> dict[str, Any]:
    """A body clients would send, with up to three of its values (or keys) changed to odd ones."""
    body = draw(_clean_body)
    for _ in range(draw(st.integers(1, 3))):
        lines = [
            line
            for section in ("main", "resources")
            if isinstance(body.get(section), list)
            for line in body[section]
            if isinstance(line, dict)
        ]
        target = body if not lines or draw(st.booleans()) else draw(st.sampled_from(lines))
        keys = (
            ["ruler", "geas", "as_of", "attribute", "main", "resources", "notes"]
            if target is body
            else ["number", "name", "count", "note"]
        )
        key = draw(st.sampled_from(keys))
        if draw(st.integers(0, 4)) == 0:
            target.pop(key, None)
        else:
            target[key] = draw(_odd)
    return body


def _dumped(body: Any, ascii_only: bool) -> bytes:
    return json.dumps(body, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@settings(max_examples=2000, deadline=None)
@given(_body_with_odd_values(), st.booleans())
def test_what_the_quick_reader_takes_the_model_reads_the_same(body, ascii_only):
    assert_read_alike(_dumped(body, ascii_only))


@settings(max_examples=300, deadline=None)
@given(_clean_body)
def test_a_body_as_clients_send_it_is_read_quickly(body):
    quick = assert_read_alike(json.dumps(body).encode())

    assert quick is not None
    assert len(quick.main) == len(body["main"])


@pytest.mark.parametrize(
    "raw",
    [
        # A "game" written with an escape: the model reads it (and refuses another game).
        b'{"gam\\u0065": "rulers-gambit", "ruler": "apprentice", "main": []}',
        # Both or neither of number and name; a null where text goes.
        b'{"ruler": "apprentice", "main": [{"number": "TS-001", "name": "Ember", "count": 1}]}',
        b'{"ruler": "apprentice", "main": [{"count": 1}]}',
        b'{"ruler": "apprentice", "main": [{"number": null, "name": "Ember", "count": 1}]}',
        b'{"ruler": "apprentice", "geas": null, "attribute": " Dragon ", "main": []}',
        # Counts the model refuses, or reads otherwise; texts it trims.
        b'{"ruler": "apprentice", "main": [{"number": "TS-001", "count": 4.0}]}',
        b'{"ruler": "apprentice", "main": [{"number": "TS-001", "count": 4e0}]}',
        b'{"ruler": "apprentice", "main": [{"number": 1001, "count": 4}]}',
        b'{"ruler": " apprentice ", "main": [{"number": " TS-001", "count": 4}]}',
        b'{"ruler": "apprentice\\n", "main": []}',
        b'{"ruler": "apprentice", "as_of": "2024-1-5", "main": []}',
        b'{"ruler": "apprentice", "as_of": "20240105", "main": []}',
        # Keys given twice; not an object; not JSON.
        b'{"ruler": "apprentice", "ruler": "knight", "main": [], "main": [{"number": "TS-001", "count": 2}]}',
        b'{"ruler": "apprentice", "main": [{"number": "TS-001", "count": 1, "count": 2}]}',
        b"[]",
        b'{"ruler": "apprentice", "main": [',
    ],
)
def test_bodies_near_the_edge_are_read_as_the_model_reads_them(raw):
    assert_read_alike(raw)


def test_it_reads_a_body_as_the_model_does():
    raw = json.dumps(
        {
            "ruler": "apprentice",
            "geas": "g-1",
            "as_of": "2024-01-05",
            "attribute": "Dragon",
            "main": [{"number": "TS-001", "count": 4, "note": "kept"}, {"name": "Ember Squire", "count": 2}],
            "resources": [{"number": "TS-E01", "count": 10}],
        }
    ).encode()

    quick = assert_read_alike(raw)

    assert quick is not None
    assert quick.as_of.isoformat() == "2024-01-05"
    assert quick.main == [DeckListLine(count=4, number="TS-001"), DeckListLine(count=2, name="Ember Squire")]
    assert quick.resources == [DeckListLine(count=10, number="TS-E01")]
