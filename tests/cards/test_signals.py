"""cards.signals: the catalog announces rule and card changes after commit; decks listens (DecksConfig.ready)."""

from __future__ import annotations

import datetime

import pytest

from cards.signals import (
    cards_changed,
    cards_changed_send_on_commit,
    revision_change_date,
    rules_changed,
    rules_changed_send_on_commit,
)
from tests.cards.factories import card_row, set_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    sent: list[tuple[str, dict[str, object]]] = []

    def on_rules(sender: object, **kwargs: object) -> None:
        sent.append(("rules", kwargs))

    def on_cards(sender: object, **kwargs: object) -> None:
        sent.append(("cards", kwargs))

    rules_changed.connect(on_rules, weak=False)
    cards_changed.connect(on_cards, weak=False)
    yield sent
    rules_changed.disconnect(on_rules)
    cards_changed.disconnect(on_cards)


def test_it_sends_rules_changed_only_once_the_transaction_commits(heard, django_capture_on_commit_callbacks):
    since = datetime.date(2026, 1, 2)

    with django_capture_on_commit_callbacks() as callbacks:
        rules_changed_send_on_commit(sender=None, ruler_ids=[2, 1], since=since)
        assert heard == []  # not committed yet
    for callback in callbacks:
        callback()

    assert heard == [
        ("rules", {"signal": rules_changed, "ruler_ids": frozenset({1, 2}), "geas_ids": frozenset(), "since": since})
    ]


def test_it_sends_nothing_when_nothing_changed(heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        rules_changed_send_on_commit(sender=None)
        cards_changed_send_on_commit(sender=None, card_ids=set())

    assert (callbacks, heard) == ([], [])


def test_an_import_announces_the_cards_whose_rules_fields_changed(heard, django_capture_on_commit_callbacks):
    from cards.importers.parsing import parse_card_file
    from cards.models import Card
    from cards.services import card_catalog_import

    def run(*rows: dict[str, object]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            card_catalog_import(files=[parse_card_file("t01.json", set_file(*rows))])

    run(card_row(1, atk=1), card_row(2, name="Card 2", name_ja="旧"))
    heard.clear()

    run(card_row(1, atk=3), card_row(2, name="Card 2", name_ja="新"))

    # Card 2's Japanese name changed too, but a translation is not a rules change.
    stronger = Card.objects.get(name="Card 1")
    assert heard == [("cards", {"signal": cards_changed, "card_ids": frozenset({stronger.pk}), "since": None})]


def test_a_rolled_back_change_announces_nothing(heard, django_capture_on_commit_callbacks):
    from django.db import transaction

    def change_then_fail() -> None:
        with transaction.atomic():
            cards_changed_send_on_commit(sender=None, card_ids={1})
            raise RuntimeError

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        change_then_fail()

    assert heard == []


@pytest.mark.parametrize(
    ("effective_from", "expected"),
    [(datetime.date(2020, 1, 1), datetime.date(2026, 1, 2)), (datetime.date(2027, 5, 1), datetime.date(2027, 5, 1))],
)
def test_a_revision_change_takes_effect_today_or_on_its_own_later_date(effective_from, expected):
    assert revision_change_date(effective_from, today=datetime.date(2026, 1, 2)) == expected
