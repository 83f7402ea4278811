"""The main deck's size against its size rule (judge.main_size_meter): what the game editor's phone tab counts.
Pure: no Django, no database."""

from __future__ import annotations

from dataclasses import replace

from decks.rules.judge import judging, main_size_meter

from .gamedecks import GATERUNNERS, RULERS_GAMBIT, rg_legal, rg_main, snapshot


def test_an_exact_size_is_the_limit_the_main_deck_must_reach():
    meter = main_size_meter(judging(RULERS_GAMBIT, snapshot(**{**rg_legal(), "main": rg_main()[:-1]})))

    assert meter is not None
    assert (meter.value, meter.limit, meter.exact, meter.at_least) == (38, 39, True, False)


def test_a_least_size_says_so():
    meter = main_size_meter(judging(GATERUNNERS, snapshot()))

    assert meter is not None
    assert (meter.value, meter.limit, meter.at_least) == (0, 40, True)


def test_a_game_whose_data_sets_no_main_size_has_none():
    unsized = replace(
        RULERS_GAMBIT,
        rules=tuple(r for r in RULERS_GAMBIT.rules if not (r.kind == "section_size" and r.params["section"] == "main")),
    )
    assert any(r.kind == "section_size" for r in unsized.rules)  # the Kingdom's size is still a rule

    assert main_size_meter(judging(unsized, snapshot(**rg_legal()))) is None


def test_a_least_size_that_is_met_reads_as_met():
    from .gamedecks import gr_legal, gr_main

    meter = main_size_meter(judging(GATERUNNERS, snapshot(**{**gr_legal(), "main": gr_main(41)})))

    assert meter is not None
    assert (meter.text, meter.state) == ("41 · at least 40", "ok")
