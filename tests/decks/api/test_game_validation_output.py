"""The validate answer of a game whose identity is a card, written as plain JSON values, is what its model
(GameDeckValidation) reads and dumps."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import translation

from decks.api.bodies import GameDeckValidation
from decks.api.outputs import validation_output
from decks.drafts import DeckListLine, deck_judge

pytestmark = pytest.mark.django_db

ON = datetime.date(2026, 11, 22)
IMPS = [DeckListLine(count=2, number=f"RGT-{10 + i:03d}") for i in range(1, 21)]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(
    ("game", "sections"),
    [
        (
            "rulers-gambit",
            {"kingdom": [DeckListLine(count=1, name="Fire Kingdom")], "main": IMPS[:19]},
        ),  # 38: not legal
        ("rulers-gambit", {"kingdom": [DeckListLine(count=1, name="Fire Kingdom")], "main": IMPS}),  # 40: not legal
        ("rulers-gambit", {"main": [DeckListLine(count=5, number="RGT-011")]}),  # no Kingdom, 5 copies
        ("gaterunners", {"hero": [DeckListLine(count=1, number="GRT-001")]}),
    ],
)
def test_the_answer_is_what_the_model_dumps(game_catalog, language, game, sections):
    judgement = deck_judge(on=ON, game=game, **sections)

    with translation.override(language):
        answer = validation_output(judgement=judgement)
        native = {**answer, "as_of": judgement.on}
        expected = GameDeckValidation.model_validate(native).model_dump(mode="json")

    # Byte for byte as rendered, field order included.
    assert json.dumps(answer, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)
    assert answer["legal"] == (not judgement.report.violations)
    assert answer["game"] == game
    assert answer["as_of"] == "2026-11-22"
    assert answer["violations"]
