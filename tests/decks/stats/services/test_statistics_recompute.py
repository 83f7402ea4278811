"""The full recompute against a small deck sample whose figures are worked out by hand below."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cards.models import Ruler
from decks.models import Deck, Visibility
from decks.stats.models import (
    CardInclusion,
    CardPairing,
    FactionShare,
    LevelCurvePoint,
    MonthlyRulerShare,
    RulerShare,
    StatisticsChange,
    StatisticsRun,
)
from decks.stats.services import statistics_recompute, statistics_refresh_if_stale
from decks.stats.sql import FIGURE_MODELS
from tests.cards.factories import CardFactory, FactionFactory, PrintingFactory
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.django_db

JAN = datetime.datetime(2025, 1, 15, 12, 0, tzinfo=datetime.UTC)
FEB = datetime.datetime(2025, 2, 3, 23, 30, tzinfo=datetime.UTC)


@pytest.fixture
def sample(rules):
    """Cards A (Red, level 1), B (Red, level 2, CNT), C (Blue, level 1), E (energy); A has two printings.

    Counted (public, not archived):
      D1 Apprentice, Jan: A×2 + A(reprint)×1, B×2; resources E×1; considering C×4 (neither counts)
      D2 Apprentice, Jan: A×4, C×2
      D3 Knight, Feb: B×1, C×3
      D6 Knight, Jan: no cards
      D7 Knight, Feb: A×1, B×1
    Not counted: D4 Knight private (A×4), D5 Apprentice public but archived (C×4).
    """
    red, blue = FactionFactory(name="Red"), FactionFactory(name="Blue")
    a = CardFactory(name="Card A", faction=red, level=1)
    b = CardFactory(name="Card B", faction=red, level=2, cnt=True)
    c = CardFactory(name="Card C", faction=blue, level=1)
    e = CardFactory(name="Card E", energy=True)
    a1, a2 = PrintingFactory(card=a, collector_number="S-001"), PrintingFactory(card=a, collector_number="S-101")
    b1, c1 = PrintingFactory(card=b, collector_number="S-002"), PrintingFactory(card=c, collector_number="S-003")
    e1 = PrintingFactory(card=e, collector_number="S-004")
    apprentice, knight = Ruler.objects.get(slug="apprentice"), Ruler.objects.get(slug="knight")

    def deck(ruler, month, lines, visibility=Visibility.PUBLIC, archived=False):
        d = DeckFactory(ruler=ruler, visibility=visibility, archived=archived)
        Deck.objects.filter(pk=d.pk).update(created_at=month)
        for printing, count, *section in lines:
            DeckCardFactory(deck=d, printing=printing, count=count, section=section[0] if section else "main")
        return d

    deck(apprentice, JAN, [(a1, 2), (a2, 1), (b1, 2), (e1, 1, "resources"), (c1, 4, "considering")])
    deck(apprentice, JAN, [(a1, 4), (c1, 2)])
    deck(knight, FEB, [(b1, 1), (c1, 3)])
    deck(knight, JAN, [(a1, 4)], visibility=Visibility.PRIVATE)
    deck(apprentice, JAN, [(c1, 4)], archived=True)
    deck(knight, JAN, [])
    deck(knight, FEB, [(a1, 1), (b1, 1)])
    return {"A": a, "B": b, "C": c, "red": red, "blue": blue, "apprentice": apprentice, "knight": knight}


def figures(run):
    """Every figure of a run as plain tuples (floats rounded), for comparisons."""
    return {
        "rulers": {
            (r.ruler_id, r.decks, round(r.share, 6), round(r.avg_size, 6), round(r.avg_cnt, 6))
            for r in RulerShare.objects.filter(run=run)
        },
        "factions": {
            (f.ruler_id, f.faction_id, f.other_faction_id, f.decks, round(f.share, 6))
            for f in FactionShare.objects.filter(run=run)
        },
        "cards": {
            (c.ruler_id, c.card_id, c.decks, round(c.inclusion, 6), round(c.avg_copies, 6))
            for c in CardInclusion.objects.filter(run=run)
        },
        "curve": {(p.ruler_id, p.level, round(p.avg_copies, 6)) for p in LevelCurvePoint.objects.filter(run=run)},
        "months": {
            (m.month, m.ruler_id, m.decks, round(m.share, 6)) for m in MonthlyRulerShare.objects.filter(run=run)
        },
        "pairs": {
            (p.card_id, p.other_card_id, p.decks, round(p.share, 6), round(p.lift, 6), p.rank)
            for p in CardPairing.objects.filter(run=run)
        },
    }


def test_it_computes_ruler_shares_sizes_and_cnt_counts(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    shares = {r.ruler_id: r for r in RulerShare.objects.filter(run=run)}
    apprentice, knight = sample["apprentice"].pk, sample["knight"].pk
    assert set(shares) == {None, apprentice, knight}
    # 5 counted decks: Apprentice D1, D2; Knight D3, D6, D7. Main sizes 5, 6, 4, 0, 2; CNT copies 2, 0, 1, 0, 1.
    assert (shares[None].decks, shares[None].share) == (5, 1.0)
    assert shares[None].avg_size == pytest.approx(17 / 5)
    assert shares[None].avg_cnt == pytest.approx(4 / 5)
    assert (shares[apprentice].decks, shares[apprentice].share) == (2, pytest.approx(2 / 5))
    assert shares[apprentice].avg_size == pytest.approx((5 + 6) / 2)
    assert shares[apprentice].avg_cnt == pytest.approx(2 / 2)
    assert (shares[knight].decks, shares[knight].share) == (3, pytest.approx(3 / 5))
    assert shares[knight].avg_size == pytest.approx((4 + 0 + 2) / 3)
    assert shares[knight].avg_cnt == pytest.approx((1 + 0 + 1) / 3)
    assert run.decks == 5
    assert run.status == StatisticsRun.Status.SUCCEEDED


def test_it_computes_faction_and_faction_pair_shares(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    red, blue, knight = sample["red"].pk, sample["blue"].pk, sample["knight"].pk
    low, high = sorted((red, blue))
    got = {
        (f.ruler_id, f.faction_id, f.other_faction_id): (f.decks, f.share) for f in FactionShare.objects.filter(run=run)
    }
    # Factions per counted deck: D1 {Red}, D2 {Red, Blue}, D3 {Red, Blue}, D6 {}, D7 {Red}.
    assert got[(None, red, None)] == (4, pytest.approx(4 / 5))
    assert got[(None, blue, None)] == (2, pytest.approx(2 / 5))
    assert got[(None, low, high)] == (2, pytest.approx(2 / 5))
    assert got[(knight, red, None)] == (2, pytest.approx(2 / 3))
    assert got[(knight, blue, None)] == (1, pytest.approx(1 / 3))
    assert got[(knight, low, high)] == (1, pytest.approx(1 / 3))
    assert got[(sample["apprentice"].pk, red, None)] == (2, 1.0)
    assert len(got) == 9  # 3 per scope (overall, Apprentice, Knight)


def test_it_computes_inclusion_rates_and_average_copies(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    a, b, c, knight = sample["A"].pk, sample["B"].pk, sample["C"].pk, sample["knight"].pk
    got = {(i.ruler_id, i.card_id): (i.decks, i.inclusion, i.avg_copies) for i in CardInclusion.objects.filter(run=run)}
    # A's two printings are one card: D1 plays 3 copies of it. Resources (E) and considering (C in D1) do not count.
    assert got[(None, a)] == (3, pytest.approx(3 / 5), pytest.approx((3 + 4 + 1) / 3))
    assert got[(None, b)] == (3, pytest.approx(3 / 5), pytest.approx((2 + 1 + 1) / 3))
    assert got[(None, c)] == (2, pytest.approx(2 / 5), pytest.approx((2 + 3) / 2))
    assert got[(knight, a)] == (1, pytest.approx(1 / 3), 1.0)
    assert got[(knight, b)] == (2, pytest.approx(2 / 3), 1.0)
    assert got[(knight, c)] == (1, pytest.approx(1 / 3), 3.0)
    assert got[(sample["apprentice"].pk, a)] == (2, 1.0, pytest.approx(3.5))
    assert sample["A"].pk in {card for _, card in got}
    assert len(got) == 3 + 3 + 3


def test_it_computes_the_average_level_curve(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    knight = sample["knight"].pk
    got = {(p.ruler_id, p.level): p.avg_copies for p in LevelCurvePoint.objects.filter(run=run)}
    # Level 1: A (3+4+1) and C (2+3) copies; level 2: B (2+1+1); the energy card has no level.
    assert got == {
        (None, 1): pytest.approx(13 / 5),
        (None, 2): pytest.approx(4 / 5),
        (sample["apprentice"].pk, 1): pytest.approx((3 + 4 + 2) / 2),
        (sample["apprentice"].pk, 2): pytest.approx(2 / 2),
        (knight, 1): pytest.approx((3 + 1) / 3),
        (knight, 2): pytest.approx((1 + 1) / 3),
    }


def test_it_computes_monthly_ruler_shares_by_creation_month(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    apprentice, knight = sample["apprentice"].pk, sample["knight"].pk
    got = {(str(m.month), m.ruler_id): (m.decks, m.share) for m in MonthlyRulerShare.objects.filter(run=run)}
    # January: D1, D2 (Apprentice), D6 (Knight); February: D3, D7 (Knight).
    assert got == {
        ("2025-01-01", apprentice): (2, pytest.approx(2 / 3)),
        ("2025-01-01", knight): (1, pytest.approx(1 / 3)),
        ("2025-02-01", knight): (2, 1.0),
    }


def test_it_ranks_the_cards_played_with_each_card_by_lift(sample):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    a, b, c = sample["A"].pk, sample["B"].pk, sample["C"].pk
    got = {
        (p.card_id, p.rank): (p.other_card_id, p.decks, p.share, p.lift) for p in CardPairing.objects.filter(run=run)
    }
    # Together: A+B in D1, D7; A+C in D2; B+C in D3. lift = both × 5 / (decks of one × decks of other).
    assert got[(a, 1)] == (b, 2, pytest.approx(2 / 3), pytest.approx(2 * 5 / (3 * 3)))
    assert got[(a, 2)] == (c, 1, pytest.approx(1 / 3), pytest.approx(1 * 5 / (3 * 2)))
    assert got[(b, 1)] == (a, 2, pytest.approx(2 / 3), pytest.approx(10 / 9))
    # C's partners tie on lift and decks: the lower card id first.
    assert got[(c, 1)] == (a, 1, pytest.approx(1 / 2), pytest.approx(5 / 6))
    assert got[(c, 2)] == (b, 1, pytest.approx(1 / 2), pytest.approx(5 / 6))
    assert len(got) == 6


def test_it_leaves_out_pairings_below_the_support_thresholds(sample):
    a, b, c = sample["A"].pk, sample["B"].pk, sample["C"].pk
    run = statistics_recompute(min_pair_decks=2, min_pair_share=0)
    assert {(p.card_id, p.other_card_id) for p in CardPairing.objects.filter(run=run)} == {(a, b), (b, a)}
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0.5)
    # Shares: A→B 2/3, A→C 1/3, B→A 2/3, B→C 1/3, C→A 1/2, C→B 1/2.
    assert {(p.card_id, p.other_card_id) for p in CardPairing.objects.filter(run=run)} == {
        (a, b),
        (b, a),
        (c, a),
        (c, b),
    }
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0, top_pairings=1)
    assert {(p.card_id, p.other_card_id) for p in CardPairing.objects.filter(run=run)} == {(a, b), (b, a), (c, a)}


def test_it_is_idempotent_and_keeps_only_the_previous_runs_figures(sample):
    first = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    second = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    assert figures(second) == figures(first)
    assert figures(first)["cards"]  # the previous run's rows are still readable
    third = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    assert figures(third) == figures(second)
    for model in FIGURE_MODELS:
        assert set(model.objects.values_list("run_id", flat=True).distinct()) <= {second.pk, third.pk}


def test_it_counts_nothing_without_public_decks(rules):
    run = statistics_recompute()
    overall = RulerShare.objects.get(run=run, ruler__isnull=True)
    assert (overall.decks, overall.share, overall.avg_size) == (0, 0.0, 0.0)
    assert not CardInclusion.objects.filter(run=run).exists()


def test_a_failed_run_keeps_the_previous_figures_and_records_the_error(sample, monkeypatch):
    good = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    before = figures(good)

    def broken(self, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("decks.stats.sql.RecomputeSql.card_pairings", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        statistics_recompute()
    failed = StatisticsRun.objects.order_by("-id").first()
    assert failed.status == StatisticsRun.Status.FAILED
    assert "disk full" in failed.error
    assert figures(good) == before
    # Nothing of the failed run was kept: every figure row belongs to the good run.
    for model in FIGURE_MODELS:
        assert set(model.objects.values_list("run_id", flat=True).distinct()) <= {good.pk}


def test_the_refresh_recomputes_only_when_a_public_deck_changed(sample):
    first = statistics_refresh_if_stale()
    assert first is not None  # no figures yet
    assert statistics_refresh_if_stale() is None  # nothing changed since
    StatisticsChange.objects.create(deck_id=1, changed_at=timezone.now())
    again = statistics_refresh_if_stale()
    assert again is not None
    assert again.pk > first.pk
    assert again.trigger == StatisticsRun.Trigger.STALE
    assert not StatisticsChange.objects.exists()


def test_an_energy_card_in_a_main_deck_counts_but_has_no_point_on_the_curve(rules):
    energy = PrintingFactory(card=CardFactory(name="Spark", energy=True), collector_number="S-900")
    unit = PrintingFactory(card=CardFactory(name="Ox", level=3), collector_number="S-901")
    deck = DeckFactory(visibility=Visibility.PUBLIC)
    DeckCardFactory(deck=deck, printing=energy, count=2)
    DeckCardFactory(deck=deck, printing=unit, count=1)

    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)

    assert {(p.ruler_id, p.level, p.avg_copies) for p in LevelCurvePoint.objects.filter(run=run)} == {
        (None, 3, 1.0),
        (deck.ruler_id, 3, 1.0),
    }
    assert CardInclusion.objects.get(run=run, ruler=None, card=energy.card).avg_copies == 2.0
    assert RulerShare.objects.get(run=run, ruler=None).avg_size == 3.0


def test_it_forgets_runs_older_than_the_log_keeps(rules):
    old = StatisticsRun.objects.create(
        status=StatisticsRun.Status.FAILED, started_at=timezone.now() - datetime.timedelta(days=91)
    )
    recent = StatisticsRun.objects.create(status=StatisticsRun.Status.FAILED, started_at=timezone.now())
    run = statistics_recompute()
    assert set(StatisticsRun.objects.values_list("pk", flat=True)) == {recent.pk, run.pk}
    assert old.pk not in StatisticsRun.objects.values_list("pk", flat=True)
