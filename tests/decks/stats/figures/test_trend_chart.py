"""The monthly trend chart's geometry (pure: no database)."""

from __future__ import annotations

import datetime

from decks.stats.figures import MonthRow, Share, trend_chart


def month(m: int, **shares: tuple[int, float]) -> MonthRow:
    rows = [Share(name, decks, share) for name, (decks, share) in shares.items()]
    return MonthRow(datetime.date(2025, m, 1), sum(s.decks for s in rows), rows)


def test_it_draws_the_rulers_with_the_most_decks_scaled_to_the_highest_share():
    months = [
        month(1, Knight=(3, 0.75), Apprentice=(1, 0.25)),
        month(2, Knight=(1, 0.5), Apprentice=(1, 0.5)),
        month(3, Apprentice=(2, 1.0)),  # no Knight deck that month: 0
    ]
    chart = trend_chart(months, top=1, width=100, height=50)
    assert [line.label for line in chart.lines] == ["Apprentice"]  # 4 decks against Knight's 4: name order
    chart = trend_chart(months, top=2, width=100, height=50)
    assert chart.peak == 1.0
    assert [(line.label, line.points, line.last) for line in chart.lines] == [
        ("Apprentice", "0.0,37.5 50.0,25.0 100.0,0.0", 1.0),
        ("Knight", "0.0,12.5 50.0,25.0 100.0,50.0", 0.0),
    ]
    assert (chart.first, chart.last) == (datetime.date(2025, 1, 1), datetime.date(2025, 3, 1))


def test_the_top_of_the_chart_is_the_highest_share_shown():
    chart = trend_chart([month(1, A=(1, 0.2)), month(2, A=(1, 0.4))], width=10, height=10)
    assert chart.peak == 0.4
    assert chart.lines[0].points == "0.0,5.0 10.0,0.0"
