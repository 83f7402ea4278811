"""The editor's parts drawn once per value (partial_memo): each is keyed by everything it shows.

For each part: drawn remembered, it is what the partial draws; each value it is given, changed,
changes what it draws (so a change of that value is never answered with the old drawing); and
the same values read differently in Japanese (the language is part of the key). Then the
editor's answers to changes are the same bytes with every part remembered as drawn afresh.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from django.template import engines
from django.template.defaultfilters import date as date_filter
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.timezone import override as timezone_override

from decks.editor.state import Bar, DeckLine
from decks.odds.panel import Chance, ChanceRow, GroupOption, OddsHelp, OddsSummary
from decks.rules.types import UNIT, CardFacts
from decks.rules.wording import Wording
from decks.templatetags import editor_partials
from decks.templatetags.editor_partials import _key, ymd, ymd_hm
from tests.decks.templatetags.test_editor_partials import PAGE, memo

SQUIRE = CardFacts(
    name="Ember <Squire>", type=UNIT, faction="Volnar", level=1, collector_numbers=("TS-001",), text="Draw a card."
)


def _row(turn: int, first: Fraction, second: Fraction) -> ChanceRow:
    return ChanceRow(turn, turn + 1, turn + 2, Chance.of(first), Chance.of(second))


ROWS = (_row(1, Fraction(1, 3), Fraction(1, 2)), _row(2, Fraction(2, 3), Fraction(2, 3)))
SUMMARY = OddsSummary(True, "CNT cards", "sees 0 at setup, then 2 a turn", 4, 49, 50, "Apprentice", None)
HELP = OddsHelp(date(2026, 1, 1), "", ("Setup: sees 0 cards.",), (("K-11", "Knight"),))
OPTION = GroupOption("cnt", "CNT cards (4)", False)
LINE = DeckLine("TS-001", "main", 2, SQUIRE)

# name: (the values it is given, each value changed in turn)
PARTS = {
    "decks/editor/_editor_tabs.html#editor-tabs": (
        {"count": 40, "size": 50, "at_least": False, "legal": False, "problems": 2, "ruler": "Apprentice", "oob": True},
        {"count": 41, "size": 60, "at_least": True, "legal": True, "problems": 1, "ruler": "Knight", "oob": False},
    ),
    "verdict": (
        {"legal": False, "problems": 2, "ruler": "Apprentice", "geas": None, "on": date(2026, 1, 1)},
        {"legal": True, "problems": 3, "ruler": "Knight", "geas": "Oath", "on": date(2026, 2, 1)},
    ),
    "deck-heading": ({"count": 40, "size": 50, "at_least": False}, {"count": 41, "size": 60, "at_least": True}),
    "group-heading": ({"label": "Units", "count": 3}, {"label": "Events", "count": 4}),
    "considering": (
        {"lines": [DeckLine("TS-001", "considering", 1, SQUIRE)], "oob": True},
        {"lines": [DeckLine("TS-001", "considering", 2, SQUIRE)], "oob": False},
    ),
    "deck-charts": (
        {"curve": [Bar("1", 3, 100)], "factions": [Bar("Volnar", 3, 100, 3, 0)], "oob": True},
        {"curve": [Bar("1", 4, 100)], "factions": [Bar("Volnar", 3, 100, 2, 1)], "oob": False},
    ),
    "decks/_odds.html#k-options": ({"choices": range(1, 5), "k": 2}, {"choices": range(1, 4), "k": 3}),
    "decks/_odds.html#odds-form": (
        {
            "url": "/decks/new/odds/",
            "choices": range(1, 5),
            "k": 1,
            "groups": [OPTION],
            "cards": [GroupOption("card:A", "A (4)", False)],
            "group": "picked",
            "names": ["A", "B"],
            "picked": ("A",),
        },
        {
            "url": "/decks/abc/odds/",
            "choices": range(1, 4),
            "k": 2,
            "groups": [OPTION._replace(text="CNT cards (5)")],
            "cards": [GroupOption("card:A", "A (3)", False)],
            "group": "cnt",
            "names": ["A", "C"],
            "picked": ("B",),
        },
    ),
    "decks/_odds.html#odds-form-head": (
        {"url": "/decks/new/odds/", "choices": range(1, 5), "k": 1},
        {"url": "/decks/abc/odds/", "choices": range(1, 4), "k": 2},
    ),
    "decks/_odds.html#odds-form-middle": ({"group": "picked"}, {"group": "cnt"}),
    "decks/_odds.html#odds-pick": (
        {"names": ["A", "B"], "picked": ("A",)},
        {"names": ["A", "C"], "picked": ("B",)},
    ),
    "decks/_odds.html#odds-summary": (
        {"summary": SUMMARY},
        {
            "summary": replace(SUMMARY, label="Legendary cards"),
            "summary ": replace(SUMMARY, pattern="sees 4 at setup"),
            "summary  ": replace(SUMMARY, count=5),
            "summary   ": replace(SUMMARY, deck_size=50),
            "summary    ": replace(SUMMARY, want=40),
            "summary     ": replace(SUMMARY, ruler="Knight"),
            "summary      ": replace(SUMMARY, geas="Oath"),
            "summary       ": replace(SUMMARY, gate_ruler=False, game="GateRunners"),
        },
    ),
    "decks/_odds.html#odds-chances": (
        {"rows": ROWS, "same": False, "k": 1},
        {"rows": (ROWS[0], _row(2, Fraction(3, 4), Fraction(2, 3))), "same": True, "k": 2},
    ),
    "decks/_odds.html#odds-help-items": (
        {"help": HELP, "size": 49},
        {"help": replace(HELP, geas="Oath"), "size": 50},
    ),
    "decks/editor/_line_actions.html#line-actions": (
        {
            "dom": "considering-TS-001",
            "key": "considering TS-001",
            "number": "TS-001",
            "section": "considering",
            "target": "main",
        },
        {
            "dom": "considering-TS-002",
            "key": "considering TS-002",
            "number": "TS-002",
            "section": "main",
            "target": "resources",
        },
    ),
    "decks/_card_peek.html#card-peek": (
        {"facts": SQUIRE, "peek_id": "main-TS-001-peek"},
        {"facts": replace(SQUIRE, text="Draw two cards."), "peek_id": "main-TS-002-peek"},
    ),
}


def _full(name: str) -> str:
    return name if "#" in name else f"{PAGE}#{name}"


@pytest.fixture(autouse=True)
def _forgotten(monkeypatch):
    monkeypatch.setattr(editor_partials, "_rows", {})


@pytest.mark.django_db
@pytest.mark.parametrize("name", PARTS)
def test_each_value_a_remembered_part_is_given_changes_what_it_draws(name):
    values, changed = PARTS[name]
    drawn = memo(name, **values)
    assert drawn == render_to_string(_full(name), values)
    assert memo(name, **values) == drawn  # remembered

    for key, value in changed.items():
        other = {**values, key.strip(): value}
        assert memo(name, **other) != drawn, key
        assert memo(name, **other) == render_to_string(_full(name), other), key


@pytest.mark.django_db
@pytest.mark.parametrize("name", [name for name in PARTS if name != "decks/_odds.html#k-options"])
def test_a_remembered_part_reads_in_the_players_language(name):
    values, _ = PARTS[name]
    english = memo(name, **values)

    with translation.override("ja"):
        japanese = memo(name, **values)
        assert japanese == render_to_string(_full(name), values)
    assert japanese != english
    assert memo(name, **values) == english


def test_a_list_is_keyed_by_its_items():
    assert _key([Bar("1", 3, 100)]) == _key([Bar("1", 3, 100)])
    assert _key([Bar("1", 3, 100)]) != _key([Bar("1", 4, 100)])
    assert _key([]) != _key([Bar("1", 3, 100)])
    hash(_key([[1, 2], HELP, {"a": [1]}, {1, 2}]))  # lists, dataclasses, mappings and sets: still a key


def test_a_plain_value_or_a_tuple_of_them_is_its_own_key():
    assert _key("Units") == "Units"
    assert _key(OPTION) == OPTION
    assert _key(("A", "B")) == ("A", "B")
    # A card's facts inside the line: by their own equality (a frozen dataclass of plain values).
    assert _key(LINE) == (DeckLine, ("TS-001", "main", 2, SQUIRE, (), "", ""))
    assert _key([OPTION, LINE]) == (OPTION, _key(LINE))


def test_a_line_is_keyed_by_every_field_it_shows():
    line_keys = {
        _key(LINE),
        _key(replace(LINE, number="TS-002")),
        _key(replace(LINE, section="considering")),
        _key(replace(LINE, count=3)),
        _key(replace(LINE, facts=replace(SQUIRE, text="Draw two cards."))),
        _key(replace(LINE, facts=replace(SQUIRE, fields={"colours": ("red",)}))),
        _key(replace(LINE, rules=("max_copies",))),
    }
    assert len(line_keys) == 7
    assert _key(DeckLine("TS-001", "main", 2, replace(SQUIRE))) == _key(LINE)  # equal facts, another object


def test_a_meter_is_keyed_by_its_wording_and_every_field():
    from dataclasses import fields

    from decks.rules.meters import Meter

    meter = Meter("factions", Wording("%(n)s factions", {"n": 2}), 3, 2, False, Wording("Rule %(n)s", {"n": 1}), False)
    assert meter == replace(meter, label=Wording("2 factions"))
    assert _key(meter) != _key(replace(meter, label=Wording("2 factions")))
    assert _key(meter) != _key(replace(meter, detail=Wording("Rule 1")))
    changed = {"key": "size", "value": 4, "limit": None, "exact": True, "at_least": True}
    assert {f.name for f in fields(Meter)} == {*changed, "label", "detail"}
    for name, value in changed.items():
        assert _key(replace(meter, **{name: value})) != _key(meter), name


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 24, 5, 7, 37, tzinfo=UTC),
        datetime(2026, 1, 2, 23, 59, 59, tzinfo=timezone(timedelta(hours=-5))),
        datetime(987, 3, 4, 0, 0, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4),  # noqa: DTZ001 (a naive one: the date filter leaves it as it is)
        date(2026, 2, 3),
        date(987, 3, 4),
        None,
        "",
        "not a date",
    ],
)
@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo"])
def test_ymd_and_ymd_hm_write_what_the_date_filter_writes(value, zone):
    with timezone_override(zone):
        day = engines["django"].from_string('{% load editor_partials %}{{ v|ymd }}|{{ v|date:"Y-m-d" }}')
        ours, django = day.render({"v": value}).split("|")
        assert ours == django
        minute = engines["django"].from_string('{% load editor_partials %}{{ v|ymd_hm }}|{{ v|date:"Y-m-d H:i" }}')
        if isinstance(value, date) and not isinstance(value, datetime):
            # A date has no time: Django's filter refuses it, and so does ours (it is Django's then).
            with pytest.raises(TypeError):
                engines["django"].from_string("{% load editor_partials %}{{ v|ymd_hm }}").render({"v": value})
            return
        ours, django = minute.render({"v": value}).split("|")
        assert ours == django
    if isinstance(value, date):
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", ymd(value))
    if isinstance(value, datetime):
        assert ymd_hm(value) == date_filter(value, "Y-m-d H:i")


# ---------------------------------------------------------------- the editor's answers: remembered = afresh

HX = {"HX-Request": "true"}
SHOWN = " ".join(f"TS-{n:03d}" for n in range(1, 14))
_TOKEN = re.compile(r'csrfmiddlewaretoken" value="[^"]*')
CHANGES = [
    ("add main TS-001", {}),
    ("add main TS-100", {"k": "2"}),
    ("to_considering main TS-100", {"group": "units-level-1", "k": "3"}),
    ("add main TS-150", {"group": "picked", "card": ["Ember Squire 1", "Frost Hare"]}),
    ("remove main TS-001", {"group": "legend"}),
]


def _answers(client) -> list[str]:
    client.post("/decks/new/reset/", {"confirmed": "1"})
    answers = []
    for op, odds in CHANGES:
        response = client.post("/decks/new/change/", {"op": op, "shown": SHOWN, **odds}, headers=HX)
        assert response.status_code == 200
        # A draft's header holds forms, whose CSRF tokens are masked anew for every answer.
        answers.append(_TOKEN.sub("csrfmiddlewaretoken", response.content.decode()))
    return answers


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_answers_to_changes_are_the_same_remembered_as_drawn_afresh(client, deck_catalog, language):
    client.cookies["django_language"] = language
    afresh = _answers(client)  # every part drawn for the first time (the memory emptied by _forgotten)
    assert 'id="draw-odds"' in afresh[0]
    assert 'id="editor-tabs"' in afresh[0]

    remembered = _answers(client)  # the same changes again: every part remembered

    assert remembered == afresh
    editor_partials._rows.clear()
    assert _answers(client) == afresh  # and forgotten again, drawn afresh
