"""Reading a body with its one model: what it accepts comes back as sent, what it refuses is named (no database)."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from decks.api.bodies import DeckInput, DeckPatchInput, DeckValidateInput
from decks.api.parsing import BodyInvalid, body_parse
from decks.limits import MAX_LINE_COUNT
from gatesite.parsers import JSONParser as GatesiteJSONParser

_slug = st.from_regex(r"[-a-zA-Z0-9_]{1,12}", fullmatch=True)
# What a DRF CharField keeps as it is: no surrounding space, no NUL, no lone surrogate.
_clean_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=12
).filter(lambda text: text == text.strip() and text != "")
# A count is bounded as a saved deck's line is (decks.limits; the validate API took any count before).
_line = st.one_of(
    st.fixed_dictionaries({"number": _clean_text, "count": st.integers(1, MAX_LINE_COUNT)}),
    st.fixed_dictionaries({"name": _clean_text, "count": st.integers(1, MAX_LINE_COUNT)}),
)
_valid_body = st.fixed_dictionaries(
    {"ruler": _slug, "main": st.lists(_line, max_size=6)},
    optional={
        "geas": st.one_of(st.none(), _slug),
        "as_of": st.one_of(st.none(), st.dates().map(datetime.date.isoformat)),
        "attribute": st.one_of(st.none(), st.just(""), _clean_text),
        "resources": st.lists(_line, max_size=3),
    },
)
_DEFAULTS = {"game": "gate-ruler", "geas": None, "as_of": None, "attribute": None, "resources": []}
_BAD_COUNTS = [0, -2, "4", 4.0, 1.5, True, None, [4], {"n": 4}, MAX_LINE_COUNT + 1, 10**6, 10**30]


def parse(model: Any, data: Any) -> Any:
    """`data` sent as a JSON request body, read with `model`."""
    request = APIRequestFactory().post("/api/v1/decks/", json.dumps(data), content_type="application/json")
    return body_parse(model, Request(request, parsers=[JSONParser()]))


def refusal(model: Any, data: Any) -> dict[str, Any]:
    with pytest.raises(BodyInvalid) as raised:
        parse(model, data)
    assert raised.value.status_code == 400
    return raised.value.detail


@settings(max_examples=300, deadline=None)
@given(_valid_body)
def test_any_valid_body_round_trips(body):
    parsed = parse(DeckValidateInput, body)

    assert parsed.model_dump(mode="json") == {**_DEFAULTS, **body}


@settings(max_examples=300, deadline=None)
@given(_valid_body, st.data())
def test_any_bad_count_is_refused_naming_its_line(body, data):
    section = data.draw(st.sampled_from(["main", "resources"]))
    lines = body.setdefault(section, [])
    lines.append({"number": "PS01-001", "count": 1})
    index = data.draw(st.integers(0, len(lines) - 1))
    bad = data.draw(st.sampled_from(_BAD_COUNTS))
    lines[index] = {**lines[index], "count": bad}

    detail = refusal(DeckValidateInput, body)

    assert detail["error"].startswith(f"{section}[{index}].count: ")
    assert detail["errors"][section][index]["count"]


@settings(max_examples=200, deadline=None)
@given(_valid_body, st.data())
def test_a_line_with_both_or_neither_of_number_and_name_is_refused_naming_it(body, data):
    body["main"].append({"number": "PS01-001", "count": 1})
    index = data.draw(st.integers(0, len(body["main"]) - 1))
    line = {"count": 1} if data.draw(st.booleans()) else {"number": "PS01-001", "name": "Ember", "count": 1}
    body["main"][index] = line

    detail = refusal(DeckValidateInput, body)

    assert detail["error"] == f"main[{index}]: Give exactly one of 'number' or 'name'."
    assert detail["errors"] == {"main": {index: {"non_field_errors": ["Give exactly one of 'number' or 'name'."]}}}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"ruler": None}, "ruler: This field may not be null."),
        (
            {"ruler": "not a slug"},
            'ruler: Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.',
        ),
        ({"ruler": "  "}, "ruler: This field may not be blank."),
        ({"ruler": ["apprentice"]}, "ruler: Not a valid string."),
        ({"as_of": "2023-02-30"}, "as_of: Date has wrong format. Use one of these formats instead: YYYY-MM-DD."),
        ({"as_of": 20230201}, "as_of: Date has wrong format. Use one of these formats instead: YYYY-MM-DD."),
        ({"main": None}, "main: This field may not be null."),
        ({"main": "all of them"}, 'main: Expected a list of items but got type "str".'),
        ({"main": ["PS01-001"]}, "main[0]: Invalid data. Expected a dictionary, but got str."),
        ({"main": [{"number": " ", "count": 1}]}, "main[0].number: This field may not be blank."),
        ({"main": [{"number": "PS\x0001", "count": 1}]}, "main[0].number: Null characters are not allowed."),
        ({"main": [{"number": "PS01-001", "count": "4"}]}, "main[0].count: Count must be a positive integer, got '4'."),
        (
            {"main": [{"number": "PS01-001", "count": True}]},
            "main[0].count: Count must be a positive integer, got True.",
        ),
    ],
)
def test_it_words_a_refusal_as_drf_did(change, error):
    detail = refusal(DeckValidateInput, {"ruler": "apprentice", "main": [], **change})

    assert detail["error"] == error


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({}, "main: This field is required."),
        ({"main": [], "visibility": "secret"}, 'visibility: "secret" is not a valid choice.'),
        ({"main": [], "name": "x" * 101}, "name: Ensure this field has no more than 100 characters."),
        (
            {"main": [{"number": "TS-001", "count": 100}]},
            "main[0].count: A deck keeps at most 99 copies of one printing.",
        ),
        ({"main": [{"number": "TS-001", "count": 1}] * 301}, "main: Ensure this field has no more than 300 elements."),
    ],
)
def test_it_words_a_saved_deck_refusal_as_drf_did(change, error):
    assert refusal(DeckInput, {"ruler": "apprentice", **change})["error"] == error


def test_a_body_that_is_not_an_object_is_refused():
    detail = refusal(DeckValidateInput, [1, 2])

    assert detail["error"] == "Invalid data. Expected a dictionary, but got list."
    assert detail["errors"] == {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}


@pytest.mark.parametrize(
    ("sent", "read"),
    [
        ({"ruler": 5}, {"ruler": "5"}),  # a number is taken as a string, as DRF's CharField did
        ({"attribute": " Dragon "}, {"attribute": "Dragon"}),  # and trimmed
        ({"as_of": "20230201"}, {"as_of": datetime.date(2023, 2, 1)}),  # Django's parse_date reads it
        ({"main": [{"name": "ドラゴン", "count": 3, "extra": 1}]}, {"main": [{"name": "ドラゴン", "count": 3}]}),
    ],
)
def test_it_reads_input_as_drf_did(sent, read):
    parsed = parse(DeckValidateInput, {"ruler": "apprentice", "main": [], **sent}).model_dump()

    assert parsed == {**parsed, **read}


def test_a_patch_leaves_out_what_it_does_not_send_and_refuses_null_where_put_would():
    parsed = parse(DeckPatchInput, {"version": "3", "name": "Renamed"}).model_dump()
    detail = refusal(DeckPatchInput, {"version": 3, "name": None})

    assert parsed == {"version": 3, "name": "Renamed"}
    assert detail["error"] == "name: This field may not be null."


def test_a_patch_still_needs_its_version():
    assert refusal(DeckPatchInput, {"name": "No version"})["error"] == "version: This field is required."


def test_malformed_json_is_drfs_parse_error():
    request = APIRequestFactory().post("/api/v1/decks/", '{"ruler": "apprentice",', content_type="application/json")

    with pytest.raises(ParseError, match="JSON parse error"):
        body_parse(DeckValidateInput, Request(request, parsers=[JSONParser()]))


def test_a_lone_surrogate_is_refused():
    with pytest.raises(ParseError):  # not valid UTF-8 JSON text for pydantic's reader
        parse(DeckValidateInput, {"ruler": "apprentice", "main": [{"number": "\ud800", "count": 1}]})


def test_an_empty_body_misses_every_required_field():
    request = APIRequestFactory().post("/api/v1/decks/", b"", content_type="application/json")

    with pytest.raises(BodyInvalid) as raised:
        body_parse(DeckValidateInput, Request(request, parsers=[JSONParser()]))

    assert raised.value.detail["errors"] == {"ruler": ["This field is required."], "main": ["This field is required."]}


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
def test_a_body_nested_too_deeply_is_a_parse_error_saying_so(content_type):
    # Both readers: pydantic's (plain JSON) stops at 200 levels, DRF's (with a charset) raised RecursionError.
    deep = '{"ruler": "apprentice", "main": ' + "[" * 50_000 + "]" * 50_000 + "}"
    request = APIRequestFactory().post("/api/v1/decks/", deep, content_type=content_type)

    with pytest.raises(ParseError, match="nested too deeply"):
        body_parse(DeckValidateInput, Request(request, parsers=[GatesiteJSONParser()]))
