"""Properties of a game's draft: it comes back the same from the session, a share link and its text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.decklists.selectors import deck_draft_from_link, deck_draft_link, deck_draft_text, deck_text_import
from decks.models import DeckDraft


def _counts(numbers, max_count=3):
    return st.dictionaries(st.sampled_from(numbers), st.integers(1, max_count), max_size=len(numbers))


_IMPS = [f"RGT-{10 + i:03d}" for i in range(1, 21)] + ["RGT-040"]
_RUNNERS = [f"GRT-{100 + i:03d}" for i in range(1, 21)]
_GATES = ["GRT-011", "GRT-012", "GRT-013", "GRT-014"]

gambit_drafts = st.builds(
    lambda name, kingdom, main: DeckDraft(
        name=name, game="rulers-gambit", main=main, others={"kingdom": kingdom} if kingdom else {}
    ),
    st.sampled_from(["", "Embers", "Blue wall"]),
    _counts(["RGT-001", "RGT-002"], 2),
    _counts(_IMPS),
)
runner_drafts = st.builds(
    lambda hero, gates, main: DeckDraft(
        game="gaterunners", main=main, others={k: v for k, v in (("hero", hero), ("gates", gates)) if v}
    ),
    _counts(["GRT-001", "GRT-002"], 1),
    _counts(_GATES, 3),
    _counts(_RUNNERS, 6),
)
any_game_draft = st.one_of(gambit_drafts, runner_drafts)


@given(any_game_draft)
def test_the_session_keeps_a_game_draft(draft):
    assert DeckDraft.from_session(draft.to_session()) == draft


@given(any_game_draft)
def test_a_share_link_keeps_a_game_draft(draft):
    linked = deck_draft_from_link(code=deck_draft_link(draft=draft))

    assert (linked.game, linked.name, linked.main, linked.others) == (draft.game, draft.name, draft.main, draft.others)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(draft=any_game_draft)
def test_a_game_drafts_text_reads_back_as_the_same_cards(game_catalog, draft):
    # The catalog fixture is the same for every example: nothing an example does changes it.
    result = deck_text_import(text=deck_draft_text(draft=draft), draft=DeckDraft(ruler="apprentice"))

    assert result.errors == ()
    assert result.draft.game == draft.game
    assert result.draft.main == draft.main
    assert result.draft.others == {k: v for k, v in draft.others.items() if v}
