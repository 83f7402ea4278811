"""Rule messages in Japanese (decks/wording.py): every violation code, with its numbers and names.

The engine words each violation in English and keeps its template and values; the Django side
words it again in the active language. The rows of the engine's check tests (one or more per
rule code) give real violations of every code.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from decks.rules.registry import RULES
from decks.rules.tally import Tally
from decks.rules.types import Violation
from decks.rules.wording import Wording
from decks.wording import word
from tests.decks.rules.test_checks import ROWS

pytestmark = pytest.mark.django_db


def _violations() -> list[Violation]:
    out = []
    for row in ROWS:
        out.extend(row.check(Tally.of(row.deck), row.rules))
    return out


VIOLATIONS = _violations()


def _japanese(text: object) -> str:
    with translation.override("ja"):
        return word(text)


def test_the_rows_break_every_rule_of_the_registry() -> None:
    assert {v.rule for v in VIOLATIONS} == {rule.code for rule in RULES}


@pytest.mark.parametrize("violation", VIOLATIONS, ids=lambda v: f"{v.rule}:{v.message[:40]}")
def test_every_violation_reads_in_japanese_with_its_numbers(violation: Violation) -> None:
    assert isinstance(violation.message, Wording)
    japanese = _japanese(violation)
    # Worded from a Japanese template: kana in it, and none of the English sentence left.
    assert re.search(r"[\u3040-\u30ff]", japanese), japanese
    assert japanese != violation.message
    for key, value in violation.message.values.items():
        if isinstance(value, int) and f"%({key})s" in violation.message.template:
            assert str(value) in japanese, (value, japanese)
    # English is unchanged, byte for byte.
    with translation.override("en"):
        assert word(violation) == violation.message


@pytest.mark.parametrize(
    ("template", "values", "expected"),
    [
        (
            "Deck level %(level)s is over %(ruler)s's cap of %(cap)s.",
            {"level": 53, "ruler": "Apprentice", "cap": 50},
            "デッキのレベル合計 53 は アプレンティス の上限 50 を超えています。",
        ),
        (
            "The deck has %(size)s cards; %(ruler)s's deck must have exactly %(want)s.",
            {"size": 41, "ruler": "Knight", "want": 40},
            "デッキは 41 枚です。ナイト のデッキはちょうど 40 枚でなければなりません。",
        ),
        (
            "%(count)s copies of %(name)s; %(ruler)s allows at most %(limit)s.",
            {"count": 5, "name": "Frost Hare", "ruler": "Apprentice", "limit": 4},
            "Frost Hare が 5 枚あります。アプレンティス では 4 枚までです。",
        ),
        (
            "The deck has %(count)s factions (%(factions)s); %(ruler)s allows at most %(limit)s.",
            {"count": 3, "factions": ("ATLAS", "Crimson", "Volnar"), "ruler": "Apprentice", "limit": 2},
            "デッキの勢力は 3 個(ATLAS、Crimson、Volnar)です。アプレンティス で使える勢力は 2 個までです。",
        ),
        (
            "would be a %(nth)s faction",
            {"n": 3, "nth": "3rd"},
            "3 番目の勢力になる",
        ),
    ],
)
def test_a_wording_reads_in_japanese(rules: None, template: str, values: dict[str, object], expected: str) -> None:
    # Rulers are named in Japanese (data/rules.json, loaded for the test session); cards and
    # factions the catalog does not have stay in English.
    assert _japanese(Wording(template, values)) == expected


def test_names_are_shown_in_japanese_where_the_catalog_has_them(rules: None) -> None:
    from cards.models import Faction

    Faction.objects.create(name="Volnar", name_ja="ウォルナー", slug="volnar")
    wording = Wording(
        "The deck has %(count)s factions (%(factions)s); %(ruler)s allows at most %(limit)s.",
        {"count": 3, "factions": ("Nowhere", "Volnar"), "ruler": "Apprentice", "limit": 2},
    )
    # Apprentice's Japanese name comes from data/rules.json; "Nowhere" has none and stays English.
    assert (
        _japanese(wording)
        == "デッキの勢力は 3 個(Nowhere、ウォルナー)です。アプレンティス で使える勢力は 2 個までです。"
    )


def test_a_hint_and_a_meter_label_read_in_japanese() -> None:
    hint = Wording("level total would be %(level)s/%(cap)s", {"level": 52, "cap": 50})
    assert _japanese(hint) == "レベル合計が 52/50 になる"
    assert _japanese("Deck size") == "デッキの枚数"
    assert _japanese("Over the CNT cap") == "CNT 上限超え"


def test_a_saved_verdict_reason_reads_in_japanese_on_my_decks(client, user, rules) -> None:
    from datetime import date

    from decks.stored_wording import stored_wording
    from tests.decks.factories import DeckFactory

    reason = "Deck level 56 is over Apprentice's cap of 50."
    DeckFactory(
        owner=user, legal=False, judged_on=date(2024, 1, 1), illegal_since=date(2024, 1, 1), verdict_reason=reason
    )
    client.force_login(user)

    response = client.get("/decks/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200, response
    japanese = response.content.decode()
    assert "2024-01-01 から使用不可: デッキのレベル合計 56 は アプレンティス の上限 50 を超えています。" in japanese
    english = client.get("/decks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Not legal since 2024-01-01: {reason}" in english.replace("&#x27;", "'")
    # A text no engine template matches is shown as it is.
    assert stored_wording("Something else entirely.") is None


@pytest.mark.parametrize("violation", VIOLATIONS, ids=lambda v: v.rule)
def test_in_english_a_wording_is_its_own_text(violation: Violation, monkeypatch) -> None:
    # word() returns an English Wording's own text without wording it again (decks/wording.py): the
    # same as translating its template and filling it with its values' English words would give.
    with translation.override("en"):
        fast = [word(violation), word(violation.source)]
        monkeypatch.setattr("decks.wording._english", lambda: False)
        slow = [word(violation), word(violation.source)]
    assert fast == slow
    assert fast[0] == violation.message


def test_a_games_label_is_worded_in_the_players_language_alone_and_inside_a_message():
    from decks.rules.wording import Label, gettext_noop

    section = Label({"en": "main deck", "ja": "メインデッキ"})
    message = Wording(gettext_noop("The %(section)s has exactly %(want)s cards."), {"section": section, "want": 39})

    with translation.override("ja"):
        assert word(section) == "メインデッキ"
        assert word(message) == "メインデッキはちょうど 39 枚。"
    with translation.override("en"):
        assert word(section) == "main deck"
        assert word(message) == "The main deck has exactly 39 cards."


def test_an_ordinal_of_a_games_copy_limit_is_counted_in_japanese():
    from decks.rules.wording import gettext_noop

    hint = Wording(gettext_noop("would be a %(nth)s copy; at most %(max)s"), {"nth": "3rd", "n": 3, "max": 2})

    with translation.override("ja"):
        assert word(hint) == "3 枚目になる(2 枚まで)"
