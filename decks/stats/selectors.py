"""Reads of statistics: what /stats/ (and its API) and a card's page show, from the current run's rows only.

Never a live aggregate over decks: every figure was precomputed by decks.stats.services.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext

from cards.games import games
from cards.models import Card, Faction, Printing, Ruler
from cards.names import localized_name
from decks.rules.wording import Wording, gettext_noop

from .figures import GameFigures, MonthRow, RulerTopCards, Share, TrendChart, avg_copies_label, trend_chart
from .models import (
    CardInclusion,
    CardPairing,
    FactionShare,
    GameCardShare,
    LevelCurvePoint,
    MonthlyRulerShare,
    RulerShare,
    StatisticsChange,
    StatisticsRun,
)

# Most played first; at the same inclusion the card played in more copies, then by name (never arbitrary).
_CARD_RANK = (F("inclusion").desc(), F("avg_copies").desc(), F("card__name").asc())


def statistics_run_current() -> StatisticsRun | None:
    """The newest succeeded run: the figures the pages show."""
    return StatisticsRun.objects.filter(status=StatisticsRun.Status.SUCCEEDED).order_by("-id").first()


# ---------------------------------------------------------------- the /stats/ page


@dataclass(frozen=True)
class StatisticsOverview:
    run: StatisticsRun | None
    # Public decks saved since the figures were computed (the next refresh counts them).
    changes_since: int
    scope: Ruler | None
    rulers: list[Share]
    decks: int
    avg_cnt: float
    avg_size: float
    factions: list[Share]
    faction_pairs: list[Share]
    top_cards: list[Share]
    curve: list[Share]
    top_cards_per_ruler: list[RulerTopCards]
    months: list[MonthRow]
    all_rulers: list[Ruler]
    # The other games' figures (Ruler's Gambit, GateRunners): the figures above are Gate Ruler's.
    games: list[GameFigures] = field(default_factory=list)

    @property
    def computed_at(self) -> datetime | None:
        return self.run.computed_at if self.run else None

    @property
    def trend(self) -> TrendChart | None:
        return trend_chart(self.months) if len(self.months) > 1 else None


def statistics_overview(*, ruler_slug: str | None = None, top: int = 20, per_ruler: int = 5) -> StatisticsOverview:
    """What /stats/ shows, from the current run's rows only: ruler, faction and card shares, curve, trends.

    `ruler_slug` narrows factions, cards and curve to one ruler (an unknown slug: all rulers).
    """
    run = statistics_run_current()
    all_rulers = list(Ruler.objects.only("slug", "name", "code", "position"))
    scope = next((r for r in all_rulers if r.slug == ruler_slug), None) if ruler_slug else None
    changes = StatisticsChange.objects.count()
    if run is None:
        return StatisticsOverview(run, changes, scope, [], 0, 0.0, 0.0, [], [], [], [], [], [], all_rulers)
    names = {r.pk: r for r in all_rulers}
    scope_filter: dict[str, Any] = {"run": run, "ruler": scope} if scope else {"run": run, "ruler__isnull": True}
    shares = list(RulerShare.objects.filter(run=run))
    in_scope = next((s for s in shares if s.ruler_id == (scope.pk if scope else None)), None)
    factions, faction_pairs = _faction_bars(scope_filter=scope_filter, top=top)
    top_cards, top_cards_per_ruler = _card_bars(
        run=run, scope_filter=scope_filter, names=names, top=top, per_ruler=per_ruler if scope is None else 0
    )
    return StatisticsOverview(
        run=run,
        changes_since=changes,
        scope=scope,
        rulers=_ruler_bars(shares=shares, names=names),
        decks=in_scope.decks if in_scope else 0,
        avg_cnt=in_scope.avg_cnt if in_scope else 0.0,
        avg_size=in_scope.avg_size if in_scope else 0.0,
        factions=factions,
        faction_pairs=faction_pairs,
        top_cards=top_cards,
        curve=_curve_bars(list(LevelCurvePoint.objects.filter(**scope_filter))),
        top_cards_per_ruler=top_cards_per_ruler,
        months=_month_rows(run=run, names=names),
        all_rulers=all_rulers,
        games=_figures_by_game(run=run, top=top),
    )


def _figures_by_game(*, run: StatisticsRun, top: int) -> list[GameFigures]:
    """Each game besides Gate Ruler with public decks, in the data's order: its identity cards and `top` cards."""
    rows = list(GameCardShare.objects.filter(run=run).order_by("-share", "-avg_copies", "card_id"))
    bar = _card_bar_maker({r.card_id for r in rows if r.card_id is not None})
    out = []
    for slug, game in games().items():
        mine = [r for r in rows if r.game == slug]
        total = next((r.decks for r in mine if r.part == GameCardShare.Part.DECKS), 0)
        if not total:
            continue
        parts = {
            part: [bar(r.card_id, r.decks, r.share, r.avg_copies) for r in mine if r.part == part and r.card_id]
            for part in (GameCardShare.Part.IDENTITY, GameCardShare.Part.MAIN)
        }
        label = next((s.label for s in game.sections if s.identity), "")
        out.append(GameFigures(slug, game.name, total, label, parts["identity"], parts["main"][:top]))
    return out


def _ruler_bars(*, shares: list[RulerShare], names: dict[int, Ruler]) -> list[Share]:
    """One bar per ruler (most decks first), linking to the page narrowed to it."""
    return [
        Share(
            names[s.ruler_id].name, s.decks, s.share, f"{s.avg_cnt:.1f} CNT", f"/stats/?ruler={names[s.ruler_id].slug}"
        )
        for s in sorted(shares, key=lambda s: (-s.decks, s.ruler_id or 0))
        if s.ruler_id is not None and s.ruler_id in names
    ]


def _faction_bars(*, scope_filter: dict[str, Any], top: int) -> tuple[list[Share], list[Share]]:
    """The scope's factions alone, and its `top` faction pairs."""
    factions = dict(Faction.objects.values_list("pk", "name"))
    rows = list(FactionShare.objects.filter(**scope_filter).order_by("-decks", "faction_id", "other_faction_id"))
    singles = [Share(factions[f.faction_id], f.decks, f.share) for f in rows if f.other_faction_id is None]
    pairs = [
        Share(_pair(factions[f.faction_id], factions[f.other_faction_id]), f.decks, f.share)
        for f in rows
        if f.other_faction_id is not None
    ]
    return singles, pairs[:top]


def _card_bars(
    *, run: StatisticsRun, scope_filter: dict[str, Any], names: dict[int, Ruler], top: int, per_ruler: int
) -> tuple[list[Share], list[RulerTopCards]]:
    """The scope's `top` most played cards, and each ruler's `per_ruler` (none when 0); card names in one query."""
    inclusions = list(
        CardInclusion.objects.filter(**scope_filter).order_by(*(f.copy() for f in _CARD_RANK), "card_id")[:top]
    )
    per_ruler_rows = _top_cards_per_ruler(run=run, limit=per_ruler) if per_ruler else []
    bar = _card_bar_maker({i.card_id for i in inclusions} | {row[1] for row in per_ruler_rows})
    by_ruler: dict[int, list[Share]] = {}
    for ruler_id, card_id, decks, inclusion, avg_copies in per_ruler_rows:
        by_ruler.setdefault(ruler_id, []).append(bar(card_id, decks, inclusion, avg_copies))
    per_ruler_tops = [
        RulerTopCards(names[ruler_id].name, names[ruler_id].slug, cards)
        for ruler_id, cards in sorted(by_ruler.items(), key=lambda kv: names[kv[0]].position)
        if ruler_id in names
    ]
    return [bar(i.card_id, i.decks, i.inclusion, i.avg_copies) for i in inclusions], per_ruler_tops


def _card_bar_maker(card_ids: set[int]) -> Callable[[int, int, float, float], Share]:
    """A function making a card's bar (name, link to its page); reads the cards' names and numbers once."""
    card_names = dict(Card.objects.filter(pk__in=card_ids).values_list("pk", "name"))
    numbers = _card_numbers(card_ids)

    def card_bar(card_id: int, decks: int, inclusion: float, avg_copies: float) -> Share:
        return Share(
            card_names.get(card_id, "?"),
            decks,
            inclusion,
            avg_copies_label(avg_copies),
            _card_href(numbers.get(card_id)),
        )

    return card_bar


def _top_cards_per_ruler(*, run: StatisticsRun, limit: int) -> list[tuple[int, int, int, float, float]]:
    """(ruler id, card id, decks, inclusion, avg copies) of each ruler's `limit` most played cards; one query."""
    return list(
        CardInclusion.objects.filter(run=run, ruler__isnull=False)
        .annotate(
            place=Window(
                RowNumber(),
                partition_by=[F("ruler_id")],
                order_by=[*(f.copy() for f in _CARD_RANK), F("card_id").asc()],
            )
        )
        .filter(place__lte=limit)
        .order_by("ruler_id", "place")
        .values_list("ruler_id", "card_id", "decks", "inclusion", "avg_copies")
    )


def _curve_bars(points: list[LevelCurvePoint]) -> list[Share]:
    """Average copies per level as bars scaled to the highest level (share = fraction of the peak)."""
    if not points:
        return []
    peak = max(p.avg_copies for p in points) or 1.0
    by_level = {p.level: p.avg_copies for p in points}
    # Every level from the lowest to the highest, a level no deck plays as an empty bar: a curve
    # that skipped it would draw level 1 next to level 3.
    return [
        Share(str(level), 0, by_level.get(level, 0.0) / peak, f"{by_level.get(level, 0.0):.2f}")
        for level in range(min(by_level), max(by_level) + 1)
    ]


def _month_rows(*, run: StatisticsRun, names: dict[int, Ruler]) -> list[MonthRow]:
    rows: dict[date, list[Share]] = {}
    for month, ruler_id, decks, share in (
        MonthlyRulerShare.objects.filter(run=run)
        .order_by("month", "-decks", "ruler_id")
        .values_list("month", "ruler_id", "decks", "share")
    ):
        if ruler_id in names:
            rows.setdefault(month, []).append(Share(names[ruler_id].name, decks, share))
    return [MonthRow(month, sum(s.decks for s in shares), shares) for month, shares in rows.items()]


# ---------------------------------------------------------------- a card's page


@dataclass(frozen=True)
class CardStatistics:
    run: StatisticsRun | None
    overall: Share | None
    per_ruler: list[Share]
    pairings: list[Share]
    # The decks `overall` is a share of, for another game's card ("public Ruler's Gambit decks");
    # empty for Gate Ruler's (its public decks).
    scope: str = ""


def _copies_on_average(avg_copies: float) -> Wording:
    """A card's copies per deck that plays it ("2.00 copies"), worded in the reader's language by the template."""
    return Wording(gettext_noop("%(n)s copies"), {"n": f"{avg_copies:.2f}"})


def _pair(faction: str, other: str) -> Wording:
    """Two factions played together ("Volnar + ATLAS"), each by its name in the reader's language."""
    return Wording(gettext_noop("%(faction)s + %(name)s"), {"faction": faction, "name": other})


def card_statistics(*, card: Card) -> CardStatistics:
    """A card's figures in the current run: inclusion overall and per ruler, and its partners by lift.

    A card of another game than Gate Ruler: its share of that game's public decks (GameCardShare).
    """
    run = statistics_run_current()
    if run is None:
        return CardStatistics(None, None, [], [])
    game = games().get(card.game)
    if game is not None and not game.default:
        row = GameCardShare.objects.filter(run=run, card=card).order_by("-decks").first()
        overall = Share(game.name, row.decks, row.share, _copies_on_average(row.avg_copies)) if row else None
        return CardStatistics(
            run, overall, [], [], scope=gettext("public %(game)s decks") % {"game": localized_name(game.name)}
        )
    overall, per_ruler = _card_inclusion_bars(run=run, card=card)
    return CardStatistics(run, overall, per_ruler, _card_pairing_bars(run=run, card=card))


def _card_inclusion_bars(*, run: StatisticsRun, card: Card) -> tuple[Share | None, list[Share]]:
    """The card's inclusion over all public decks, and per ruler (most decks first)."""
    rulers = {r.pk: r for r in Ruler.objects.only("slug", "name", "position")}
    overall = None
    per_ruler = []
    for row in CardInclusion.objects.filter(run=run, card=card).order_by("-decks", "ruler_id"):
        bar = Share(
            rulers[row.ruler_id].name if row.ruler_id in rulers else Wording(gettext_noop("All rulers")),
            row.decks,
            row.inclusion,
            _copies_on_average(row.avg_copies),
            f"/stats/?ruler={rulers[row.ruler_id].slug}" if row.ruler_id in rulers else "/stats/",
        )
        if row.ruler_id is None:
            overall = bar
        elif row.ruler_id in rulers:
            per_ruler.append(bar)
    return overall, per_ruler


def _card_pairing_bars(*, run: StatisticsRun, card: Card) -> list[Share]:
    """The cards most often played with `card`, by rank (lift); the detail is the lift."""
    pairings = list(CardPairing.objects.filter(run=run, card=card).order_by("rank"))
    others = {p.other_card_id for p in pairings}
    names = dict(Card.objects.filter(pk__in=others).values_list("pk", "name"))
    numbers = _card_numbers(others)
    return [
        Share(
            names.get(p.other_card_id, "?"),
            p.decks,
            p.share,
            f"{p.lift:.2f}",
            _card_href(numbers.get(p.other_card_id)),
        )
        for p in pairings
    ]


# ---------------------------------------------------------------- links to cards


def _card_href(number: str | None) -> str:
    return f"/cards/{number}/" if number else ""


def _card_numbers(card_ids: set[int]) -> dict[int, str]:
    """A collector number per card (the lowest), for links to the card's page; one query."""
    numbers: dict[int, str] = {}
    for card_id, number in (
        Printing.objects.filter(card_id__in=card_ids)
        .order_by("card_id", "collector_number")
        .values_list("card_id", "collector_number")
    ):
        numbers.setdefault(card_id, number)
    return numbers
