"""The keys of the remembered parts (partial_memo) are derived from the values themselves: every field of
a dataclass, every editable field of a model instance inside it, a Wording's template and values. No key
lists fields by hand, so a field added to a row is part of its key without anyone remembering to add it."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Hashable, Mapping
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.db.models import Model

from cards.catalog import catalog_request_reset, catalog_request_start, catalog_token, catalog_version_bump
from cards.models import Card
from decks.deck_view import DeckLine
from decks.editor.browser import BrowserRow, CardHint
from decks.editor.state import SectionLine
from decks.odds.panel import Chance, ChanceRow, OddsHelp, OddsSummary
from decks.rules.odds import CardGroup
from decks.rules.rule_meters import Meter
from decks.rules.types import UNIT, CardFacts
from decks.rules.wording import Wording
from decks.templatetags.editor_partials import _constants, _key

SQUIRE = CardFacts(name="Ember Squire", type=UNIT, faction="Volnar", level=1, collector_numbers=("TS-001",))
CARD = Card(pk=7, name="Ember Squire", name_ja="", type="unit", game="gate-ruler", level=1, atk=2, hp=2, stk=1)
ROWS = {
    "hint": CardHint("TS-001", 1, (Wording("deck is full (%(n)s/50)", {"n": 50}),), False),
    "result": BrowserRow("TS-001", 1, ("deck is full",), False, CARD, SQUIRE, ("TS-901",), "main", 4),
    "line": DeckLine("TS-001", "main", 2, SQUIRE, ("max_copies",)),
    "section line": SectionLine(
        "RGT-011", "main", 1, SQUIRE, ("max_copies",), "Unit", "Cost: 2", "main", "rulers-gambit"
    ),
    "meter": Meter("factions", Wording("%(n)s factions", {"n": 2}), 3, 2, False, "Azure, Crimson", False),
    "odds help": OddsHelp(date(2026, 1, 1), "", (Wording("Setup: sees %(n)s.", {"n": 5}),), (("K-11", "Knight"),)),
    "odds summary": OddsSummary(True, "CNT cards", "sees 5", 4, 49, 50, "Apprentice", None),
    "odds row": ChanceRow(1, 5, 6, Chance.of(Fraction(1, 3)), Chance.of(Fraction(1, 2))),
    "group": CardGroup("card:Ember Squire", Wording("%(name)s", {"name": "Ember Squire"}), 2, ("Ember Squire",)),
}


def _different(value: Any) -> Any:
    """Another value of the same kind (what a change of one field looks like)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, Wording):
        return Wording(value.template + " ", dict(value.values))
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "x"
    if isinstance(value, date):
        return value + timedelta(days=1)
    if isinstance(value, tuple):
        return (*value, "x")
    if isinstance(value, list):
        return [*value, "x"]
    if isinstance(value, frozenset):
        return value | {"x"}
    if isinstance(value, Mapping):
        return {**value, "x": ("y",)}
    if isinstance(value, Model):
        other = copy.copy(value)
        other.name = _different(value.name)
        return other
    if dataclasses.is_dataclass(value):
        first = dataclasses.fields(value)[0].name
        return dataclasses.replace(value, **{first: _different(getattr(value, first))})  # type: ignore[type-var]
    raise AssertionError(f"no other value for {value!r}")


@pytest.mark.parametrize("name", ROWS)
def test_every_field_of_a_row_is_part_of_its_key(name):
    row = ROWS[name]
    hash(_key(row))

    for field in dataclasses.fields(row):
        other = dataclasses.replace(row, **{field.name: _different(getattr(row, field.name))})
        assert _key(other) != _key(row), field.name
    assert _key(copy.copy(row)) == _key(row)


def test_a_field_added_to_a_row_changes_its_key():
    # A DeckLine with one more field, as a later change might add: no key to update by hand.
    wider = dataclasses.make_dataclass("WiderLine", [("badge", str, "")], bases=(DeckLine,), frozen=True)
    plain = wider("TS-001", "main", 2, SQUIRE)

    assert _key(wider("TS-001", "main", 2, SQUIRE, badge="new")) != _key(plain)
    assert _key(plain) != _key(DeckLine("TS-001", "main", 2, SQUIRE))  # another type, another key


def test_a_card_inside_a_row_is_keyed_by_every_field_an_import_may_change():
    row = ROWS["result"]
    edited = [f.attname for f in Card._meta.concrete_fields if f.editable and not f.primary_key]
    assert {"name", "name_ja", "type", "level", "atk", "hp", "stk", "cnt", "legend", "text", "fields"} <= set(edited)

    for attname in edited:
        card = copy.copy(CARD)
        setattr(card, attname, _different(getattr(card, attname)))
        assert _key(dataclasses.replace(row, card=card)) != _key(row), attname
    # The search columns are made from those fields: not part of the key.
    card = copy.copy(CARD)
    card.search_text = "anything"
    assert _key(dataclasses.replace(row, card=card)) == _key(row)


def test_a_wording_is_keyed_by_its_template_not_its_english_text():
    said = Wording("%(n)s factions", {"n": 2})
    same_english = Wording("2 factions")

    assert said == same_english
    assert _key(ROWS["meter"]) != _key(dataclasses.replace(ROWS["meter"], label=same_english))


@pytest.fixture
def in_a_request():
    """The catalog's token read once per request (and again after a write)."""
    catalog_request_start()
    yield
    catalog_request_reset()


@pytest.mark.django_db
def test_a_deferred_field_is_not_loaded_to_make_a_key(django_assert_num_queries, in_a_request):
    from tests.cards.factories import CardFactory

    CardFactory(name="Deferred Squire", text="Draw a card.")
    card = Card.objects.defer("text").get(name="Deferred Squire")
    row = dataclasses.replace(ROWS["result"], card=card)
    catalog_token()  # read as the request's first look at the catalog does

    with django_assert_num_queries(0):
        key = _key(row)
    assert _key(row) == key
    # Made in memory with the same fields, it is keyed by them: no token vouches for it.
    made = copy.copy(card)
    made._state.adding = True
    assert _key(dataclasses.replace(row, card=made)) != key


@pytest.mark.django_db
def test_a_card_read_from_the_catalog_is_keyed_anew_by_any_edit_an_admin_or_an_import_makes():
    from tests.cards.factories import CardFactory

    CardFactory(name="Ember Squire", text="Draw a card.")
    CardFactory(name="Ember Page", text="Draw a card.")

    def key(name: str = "Ember Squire") -> Hashable:
        """The key partial_memo remembers the row under: the render's constants (the catalog's token among them,
        read once per page) and the row's own key (its card by type and primary key)."""
        return (_constants(), _key(dataclasses.replace(ROWS["result"], card=Card.objects.get(name=name))))

    before = key()
    assert key() == before
    assert key("Ember Page") != before  # another card, another key

    edited = Card.objects.get(name="Ember Squire")
    edited.text = "Draw two cards."
    edited.save()  # as the admin saves it
    after_save = key()
    assert after_save != before

    # An import writes in bulk (no signals) and bumps the catalog's version in the same transaction.
    Card.objects.filter(name="Ember Squire").update(text="Draw three cards.")
    catalog_version_bump()
    assert key() not in (before, after_save)


def test_a_value_taken_on_trust_from_its_declared_type_is_checked_in_the_tests():
    # A card's facts are their own key (a plain frozen dataclass: its equality compares every field), taken on
    # trust from DeckLine's declaration; a Wording inside them would be compared by its English text alone.
    worded = dataclasses.replace(SQUIRE, name=Wording("Ember %(what)s", {"what": "Squire"}))

    assert _key(DeckLine("TS-001", "main", 2, SQUIRE))
    with pytest.raises(TypeError, match="not plain all the way down"):
        _key(DeckLine("TS-001", "main", 2, worded))
