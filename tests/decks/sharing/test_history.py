"""The changelog and the comparison are pure: snapshot literals in, no database (no django_db mark)."""

from __future__ import annotations

import pytest

from decks.sharing.history import MINUS, deck_changelog, deck_compare

NAMES = {"TS-001": "Ember Squire", "TS-901": "Ember Squire", "TS-100": "Sky Lancer", "TS-300": "Spark"}


def snap(main=None, resources=None, **rules):
    return {
        "ruler": "apprentice",
        "geas": None,
        "attribute": "",
        "rules_date": None,
        "name": "Deck",
        "description": "",
        "main": main or {},
        "resources": resources or {},
        **rules,
    }


@pytest.mark.parametrize(
    ("before", "after", "lines"),
    [
        (snap({"TS-001": 2}), snap({"TS-001": 4}), ["+2 Ember Squire"]),
        (snap({"TS-001": 2, "TS-100": 1}), snap({"TS-001": 2}), [f"{MINUS}1 Sky Lancer"]),
        # Additions before removals, then by name.
        (snap({"TS-100": 3}), snap({"TS-001": 2, "TS-100": 1}), ["+2 Ember Squire", f"{MINUS}2 Sky Lancer"]),
        # Another printing of the same card is no change; printings add up by name.
        (snap({"TS-001": 2}), snap({"TS-901": 2}), []),
        (snap({"TS-001": 2}), snap({"TS-001": 1, "TS-901": 2}), ["+1 Ember Squire"]),
        # The deck's cards come before the resources, which say so.
        (snap({}, {"TS-300": 1}), snap({"TS-100": 1}, {"TS-300": 3}), ["+1 Sky Lancer", "+2 Spark (resources)"]),
        # A number the caller has no name for stands for itself.
        (snap({}), snap({"XX-404": 1}), ["+1 XX-404"]),
        (snap({"TS-001": 1}), snap({"TS-001": 1}), []),
    ],
)
def test_it_lists_card_changes_by_name(before, after, lines):
    assert list(deck_changelog(before, after, names=NAMES).lines) == lines


def test_it_names_ruler_geas_attribute_and_rules_date_changes():
    before = snap(ruler="apprentice", geas=None, attribute="", rules_date=None)
    after = snap(ruler="sage", geas="oath", attribute="Dragon", rules_date="2026-01-01")

    log = deck_changelog(before, after, names=NAMES, labels={"apprentice": "Apprentice", "sage": "Sage"})

    assert list(log.lines) == [
        "Ruler: Apprentice → Sage",
        "Geas: none → oath",
        "Attribute: none → Dragon",
        "Rules date: today → 2026-01-01",
    ]
    assert [c.field for c in log.fields] == ["ruler", "geas", "attribute", "rules_date"]


def test_it_notes_a_rename_and_a_new_description_without_quoting_it():
    log = deck_changelog(snap(name="Old"), snap(name="New", description="long text"), names={})

    assert list(log.lines) == ["Name: Old → New", "Description changed"]


def test_a_first_version_is_created_with_its_cards():
    log = deck_changelog(None, snap({"TS-001": 4}), names=NAMES)

    assert log.created
    assert list(log.lines) == ["+4 Ember Squire"]
    assert not deck_changelog(snap(), snap(), names={}).created


def test_an_unchanged_save_is_empty():
    assert deck_changelog(snap({"TS-001": 1}), snap({"TS-001": 1}), names=NAMES).is_empty
    assert not deck_changelog(snap({"TS-001": 1}), snap({"TS-001": 2}), names=NAMES).is_empty


def test_it_compares_two_decks_by_name_and_section():
    a = snap({"TS-001": 4, "TS-100": 2}, {"TS-300": 3})
    b = snap({"TS-901": 4, "TS-100": 1, "XX-1": 2}, {})

    result = deck_compare(a, b, names=NAMES)

    assert [(r.name, r.section, r.a, r.b) for r in result.only_a] == [("Spark", "resources", 3, 0)]
    assert [(r.name, r.a, r.b) for r in result.only_b] == [("XX-1", 0, 2)]
    assert [(r.name, r.a, r.b) for r in result.different] == [("Sky Lancer", 2, 1)]
    assert [(r.name, r.a, r.b) for r in result.same] == [("Ember Squire", 4, 4)]
    assert result.only_a[0].section_label == "Resources"
