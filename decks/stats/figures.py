"""What the statistics pages draw, as plain values: bars, months, and the monthly trend chart's geometry.

Pure (no Django): the selectors fill these from the precomputed rows; the trend chart is
computed from them alone, so its tests need no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from decks.rules.wording import Wording, gettext_noop


@dataclass(frozen=True)
class Share:
    """One bar of a chart: a label, a count, a fraction (0-1), and a link when the label is a card or ruler."""

    # A name (shown in the reader's language) or a Wording of names ("Volnar + ATLAS", "All rulers").
    label: Wording | str
    decks: int
    share: float
    detail: Wording | str = ""
    href: str = ""

    @property
    def percent(self) -> float:
        return round(100 * self.share, 1)


@dataclass(frozen=True)
class RulerTopCards:
    ruler: str
    slug: str
    cards: list[Share]


@dataclass(frozen=True)
class GameFigures:
    """A game besides Gate Ruler: its public decks, its identity cards' shares, its most played main-deck cards."""

    slug: str
    name: str
    decks: int
    identity_label: str
    identity: list[Share]
    cards: list[Share]


@dataclass(frozen=True)
class MonthRow:
    month: date
    decks: int
    shares: list[Share]


def avg_copies_label(avg_copies: float) -> str:
    """ "avg 3.0 copies", "avg 1 copy": one decimal is all a reader of a bar needs."""
    rounded = round(avg_copies, 1)
    if rounded == 1:
        return Wording(gettext_noop("avg 1 copy"))
    return Wording(gettext_noop("avg %(n)s copies"), {"n": f"{rounded:.1f}"})


# Colours of the trend lines, distinguishable for the common colour-vision deficiencies (Okabe-Ito).
TREND_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00")


@dataclass(frozen=True)
class TrendLine:
    label: str
    colour: str
    points: str  # SVG polyline points, "x,y x,y …"
    last: float  # the last month's share, 0-1


@dataclass(frozen=True)
class TrendChart:
    width: int
    height: int
    lines: list[TrendLine]
    first: date
    last: date
    peak: float  # the share at the top of the chart, 0-1


def trend_chart(months: list[MonthRow], *, top: int = 5, width: int = 720, height: int = 200) -> TrendChart:
    """The monthly shares of the `top` rulers with the most decks over all months, as SVG polylines.

    x: the months, evenly spaced; y: share of the month's decks, 0 at the bottom, the highest share
    shown at the top. A ruler absent from a month is at 0 that month.
    """
    totals: dict[str, int] = {}
    for row in months:
        for share in row.shares:
            totals[share.label] = totals.get(share.label, 0) + share.decks
    leaders = sorted(totals, key=lambda label: (-totals[label], label))[:top]
    series = {
        label: [next((s.share for s in row.shares if s.label == label), 0.0) for row in months] for label in leaders
    }
    peak = max((v for values in series.values() for v in values), default=0.0) or 1.0
    step = width / max(len(months) - 1, 1)

    def points(values: list[float]) -> str:
        return " ".join(f"{i * step:.1f},{height - v / peak * height:.1f}" for i, v in enumerate(values))

    lines = [
        TrendLine(label, TREND_COLOURS[i % len(TREND_COLOURS)], points(series[label]), series[label][-1])
        for i, label in enumerate(leaders)
    ]
    return TrendChart(width, height, lines, months[0].month, months[-1].month, peak)
