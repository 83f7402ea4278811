"""Gate Ruler's validate answer, written as plain JSON values, is what its model (DeckValidation) reads and dumps."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import translation

from decks.api.bodies import DeckValidation
from decks.api.outputs import validation_output
from decks.drafts import DeckListLine, deck_judge
from tests.decks.api.test_deck_validate_api import catalog  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

LEGAL = {f"TS-{i:03d}": 4 for i in range(1, 13)} | {"TS-013": 2}


def _through_the_model(judgement) -> dict:
    """The answer as it was built before: the same values (dates as dates) validated and dumped by the model."""
    answer = validation_output(judgement=judgement)
    native = {
        **answer,
        "as_of": judgement.choice.on,
        "rules_effective_from": judgement.choice.ruler_revision.effective_from,
    }
    return DeckValidation.model_validate(native).model_dump(mode="json")


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(
    ("ruler", "geas", "on", "attribute", "main", "resources"),
    [
        ("apprentice", None, datetime.date(2024, 1, 1), None, LEGAL, {}),  # legal
        ("apprentice", None, datetime.date(2019, 1, 1), None, LEGAL, {}),  # judged by the earliest rules: a note
        ("knight", None, datetime.date(2024, 1, 1), "", LEGAL | {"TS-100": 9, "TS-200": 2}, {"TS-300": 2}),
        ("centurion", None, datetime.date(2024, 1, 1), "Dragon", LEGAL | {"TS-100": 1}, {"TS-001": 1}),
        ("dreadnaught", "oath-of-the-unstoppable-advance", datetime.date(2025, 6, 1), None, {"TS-100": 30}, {}),
    ],
)
def test_the_answer_is_what_the_model_dumps(catalog, language, ruler, geas, on, attribute, main, resources):  # noqa: F811
    judgement = deck_judge(
        ruler=ruler,
        geas=geas,
        on=on,
        attribute=attribute,
        main=[DeckListLine(count=count, number=number) for number, count in main.items()],
        resources=[DeckListLine(count=count, number=number) for number, count in resources.items()],
    )

    with translation.override(language):
        answer = validation_output(judgement=judgement)
        expected = _through_the_model(judgement)

    # Byte for byte as rendered, field order included.
    assert json.dumps(answer, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)
    assert answer["legal"] == (not judgement.report.violations)
