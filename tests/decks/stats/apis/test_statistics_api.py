"""GET /api/v1/statistics/: the precomputed figures as JSON."""

from __future__ import annotations

import pytest

from decks.stats.services import statistics_recompute

pytestmark = pytest.mark.django_db


def test_the_api_returns_the_precomputed_figures(client, played):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    body = client.get("/api/v1/statistics/").json()
    assert body["computed_at"].startswith(f"{run.computed_at:%Y-%m-%dT%H:%M}")
    assert (body["decks"], body["ruler"], body["changes_since"]) == (2, None, 0)
    assert body["rulers"][0]["label"] == "Apprentice"
    assert body["rulers"][0]["share"] == 1.0
    assert {c["label"]: c["share"] for c in body["top_cards"]} == {"<Fire> & Ice": 1.0, "Frost Hare": 1.0}
    assert [(p["label"], p["detail"]) for p in body["curve"]] == [("1", "3.00"), ("2", "1.00")]
    knight = client.get("/api/v1/statistics/?ruler=knight").json()
    assert (knight["ruler"], knight["decks"], knight["top_cards"]) == ("knight", 0, [])


def test_the_api_without_figures(client, rules):
    body = client.get("/api/v1/statistics/").json()
    assert (body["computed_at"], body["decks"], body["rulers"]) == (None, 0, [])
