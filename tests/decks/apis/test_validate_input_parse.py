"""The validate API's fast path reads exactly what InputSerializer would, or leaves the body to it (no database)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.apis import DeckValidateApi, validate_input_parse


def serializer_data(body: dict[str, Any]) -> dict[str, Any] | None:
    serializer = DeckValidateApi.InputSerializer(data=body)
    if not serializer.is_valid():
        return None
    data = dict(serializer.validated_data)
    data["main"] = [dict(line) for line in data["main"]]
    data["resources"] = [dict(line) for line in data["resources"]]
    return data


LINE = {"number": "PS01-001", "count": 4}


@pytest.mark.parametrize(
    "body",
    [
        {"ruler": "apprentice", "main": [LINE]},
        {"ruler": "apprentice", "geas": None, "as_of": None, "attribute": None, "main": [LINE], "resources": []},
        {"ruler": "centurion", "geas": "oath-of-x", "as_of": "2024-02-29", "attribute": "Dragon", "main": []},
        {"ruler": "apprentice", "attribute": "", "main": [{"name": "Ember Squire", "count": 1}], "extra": [1]},
        {"ruler": "world_master-2020", "main": [LINE], "resources": [{"name": "ドラゴン", "count": 3}]},
    ],
)
def test_well_formed_bodies_are_read_as_the_serializer_reads_them(body):
    fast = validate_input_parse(body)

    assert fast is not None
    assert fast == serializer_data(body)


@pytest.mark.parametrize(
    "body",
    [
        {"main": [LINE]},  # no ruler
        {"ruler": "not a slug", "main": [LINE]},
        {"ruler": 5, "main": [LINE]},  # DRF's CharField takes 5 as "5": its call, not ours
        {"ruler": "apprentice"},  # no main
        {"ruler": "apprentice", "main": None},
        {"ruler": "apprentice", "main": [LINE], "resources": None},
        {"ruler": "apprentice", "as_of": "2023-02-30", "main": [LINE]},
        {"ruler": "apprentice", "as_of": "20230201", "main": [LINE]},
        {"ruler": "apprentice", "attribute": " Dragon ", "main": [LINE]},  # DRF trims it
        {"ruler": "apprentice", "main": [{"number": " PS01-001", "count": 4}]},
        {"ruler": "apprentice", "main": [{"number": "PS01-001", "count": True}]},
        {"ruler": "apprentice", "main": [{"number": "PS01-001", "count": 0}]},
        {"ruler": "apprentice", "main": [{"number": "PS01-001", "count": 4.0}]},
        {"ruler": "apprentice", "main": [{"number": "PS01-001", "name": "Ember", "count": 4}]},
        {"ruler": "apprentice", "main": [{"number": None, "name": "Ember", "count": 4}]},
        {"ruler": "apprentice", "main": [{"count": 4}]},
        {"ruler": "apprentice", "main": [{"number": "PS\x0001", "count": 4}]},
        {"ruler": "apprentice", "main": [{"number": "\ud800", "count": 4}]},
        {"ruler": "apprentice", "main": ["PS01-001"]},
    ],
)
def test_anything_else_is_left_to_the_serializer(body):
    assert validate_input_parse(body) is None


_text = st.one_of(
    st.sampled_from(["apprentice", "oath-of-x", "PS01-001", "Ember Squire", "", " x", "x ", "a b", "ドラゴン"]),
    st.text(max_size=6),
)
_value = st.one_of(st.none(), st.booleans(), st.integers(-2, 5), st.floats(allow_nan=False), _text)
_line = st.dictionaries(st.sampled_from(["number", "name", "count", "extra"]), _value, max_size=3)
_body = st.fixed_dictionaries(
    {},
    optional={
        "ruler": _value,
        "geas": _value,
        "as_of": st.one_of(_value, st.dates().map(datetime.date.isoformat)),
        "attribute": _value,
        "main": st.one_of(_value, st.lists(st.one_of(_line, _value), max_size=3)),
        "resources": st.one_of(_value, st.lists(_line, max_size=2)),
    },
)


@settings(max_examples=400, deadline=None)
@given(_body)
def test_the_fast_path_never_disagrees_with_the_serializer(body):
    fast = validate_input_parse(body)

    if fast is not None:
        assert fast == serializer_data(body)
