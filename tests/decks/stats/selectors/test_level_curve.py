"""The statistics page's level curve: one bar per level from the lowest to the highest played."""

from __future__ import annotations

from decks.stats.models import LevelCurvePoint
from decks.stats.selectors import _curve_bars


def test_a_level_no_deck_plays_is_an_empty_bar_not_skipped():
    bars = _curve_bars([LevelCurvePoint(level=3, avg_copies=4.0), LevelCurvePoint(level=-1, avg_copies=2.0)])

    assert [b.label for b in bars] == ["-1", "0", "1", "2", "3"]
    assert [b.share for b in bars] == [0.5, 0.0, 0.0, 0.0, 1.0]
    assert bars[1].detail == "0.00"


def test_no_points_no_bars():
    assert _curve_bars([]) == []
