"""The engine's Wording (pure): it is its English text, and keeps its template and values."""

from __future__ import annotations

import pickle

import pytest

from decks.rules.wording import Wording, gettext_noop


def test_a_wording_is_its_english_text() -> None:
    wording = Wording(gettext_noop("%(count)s cards from %(faction)s"), {"count": 13, "faction": "Volnar"})
    assert wording == "13 cards from Volnar"
    assert isinstance(wording, str)
    assert hash(wording) == hash("13 cards from Volnar")
    assert wording.template == "%(count)s cards from %(faction)s"
    assert dict(wording.values) == {"count": 13, "faction": "Volnar"}


def test_a_list_of_names_is_joined_with_commas_in_english() -> None:
    wording = Wording("not in the pool: %(cards)s.", {"cards": ("Frost Hare", "Sky Lancer")})
    assert wording == "not in the pool: Frost Hare, Sky Lancer."
    assert wording.values["cards"] == ("Frost Hare", "Sky Lancer")


def test_a_nested_wording_reads_as_its_english_text() -> None:
    part = Wording("the %(factions)s faction", {"factions": "Volnar"})
    wording = Wording("cards with %(a)s", {"a": part})
    assert wording == "cards with the Volnar faction"
    assert wording.values["a"].template == "the %(factions)s faction"


def test_a_wording_survives_pickling_with_its_template_and_values() -> None:
    wording = Wording(
        "Deck level %(level)s is over %(ruler)s's cap of %(cap)s.", {"level": 53, "ruler": "A", "cap": 50}
    )
    again = pickle.loads(pickle.dumps(wording))
    assert again == wording
    assert isinstance(again, Wording)
    assert (again.template, dict(again.values)) == (wording.template, dict(wording.values))


def test_the_values_cannot_be_changed_afterwards() -> None:
    wording = Wording("%(n)s", {"n": 1})
    with pytest.raises(TypeError):
        wording.values["n"] = 2  # type: ignore[index]
    assert wording.values["n"] == 1


def test_the_same_template_and_values_give_the_one_wording_made_first() -> None:
    # Made again and again while the editor judges a deck per card shown: the one made first serves.
    first = Wording("The deck has %(size)s cards", {"size": 51})
    again = Wording("The deck has %(size)s cards", {"size": 51})
    assert again is first
    assert Wording("The deck has %(size)s cards", {"size": 52}) == "The deck has 52 cards"


def test_values_equal_as_keys_but_read_differently_make_their_own_wordings() -> None:
    assert Wording("%(n)s", {"n": 1}) == "1"
    assert Wording("%(n)s", {"n": True}) == "True"
    assert Wording("%(n)s", {"n": 1.0}) == "1.0"
    # A nested wording counts by its template, not its English text.
    plain = Wording("%(a)s", {"a": Wording("Volnar")})
    templated = Wording("%(a)s", {"a": Wording("%(f)s", {"f": "Volnar"})})
    assert plain == templated == "Volnar"
    assert plain is not templated
    assert templated.values["a"].template == "%(f)s"


def test_a_value_that_cannot_be_a_key_still_makes_a_wording() -> None:
    wording = Wording("%(cards)s", {"cards": ["A", "B"]})
    assert wording == "['A', 'B']"
