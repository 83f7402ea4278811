from __future__ import annotations

import pytest

from cards.folding import card_search_text, fold


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("ドラゴン", "どらごん"),
        ("どらごん", "どらごん"),
        ("ﾄﾞﾗｺﾞﾝ", "どらごん"),  # half-width katakana
        ("ド・ラ・ゴ・ン", "どらごん"),  # middle dots
        ("ドラゴーン", "どらごん"),  # long-vowel mark
        ("ＤＲＡＧＯＮ", "dragon"),  # full-width Latin
        ("Dragon", "dragon"),
        ("D\u20104 ドレッドノート", "d-4 どれっどのと"),
        ("１２３", "123"),
    ],
)
def test_it_folds_how_a_player_might_type(typed, folded):
    assert fold(typed) == folded


def test_it_indexes_both_names_and_the_text():
    text = card_search_text(name="Red Dragon", name_ja="赤きドラゴン", text="【CNT】 Draw 1.")

    assert "red dragon" in text
    assert fold("ドラゴン") in text
    assert "【cnt】" in text
