"""Redis down (issue 24): the cache answers misses, so pages, saves, sign-ins and the API keep working; nothing 500s.

Redis here is a port nobody listens on; tests/gatesite/test_redis_outage.py kills a real one.
"""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from bench.common import free_port
from cards.models import ImportJob
from decks.models import DeckCard, DeckDraft
from decks.services import deck_create_from_draft
from gatesite.outbox.models import OutboxTask
from tests.decks.conftest import deck_catalog  # noqa: F401 (a fixture)
from tests.decks.factories import legal_apprentice_main
from tests.gatesite.redis_outage import (
    PASSWORD,
    PLAYER_STEPS_ANSWERED,
    admin_upload,
    cache_settings,
    player_steps,
    sign_in,
    token_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    """The cache and sessions of production (Redis, cached_db) with Redis unreachable; throttles and lockout on."""
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{free_port()}/0")
    settings.SESSION_ENGINE = "gatesite.sessions.cached_db"
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100/minute", "user": "100/minute", "token": "10/minute"},
    }
    settings.AXES_ENABLED = True


@pytest.fixture
def player(deck_catalog):  # noqa: F811
    user = get_user_model().objects.create_user("rin", "rin@example.com", PASSWORD)
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    return user, deck


def test_a_signed_in_player_works_on_with_redis_down(redis_down, player):
    user, deck = player
    client = Client(raise_request_exception=False)
    assert sign_in(client, user.username) == 302
    token = token_for(user.username)

    steps = player_steps(client, deck, token)

    assert steps == PLAYER_STEPS_ANSWERED
    deck.refresh_from_db()
    assert deck.name == "Renamed while Redis was down"
    assert DeckCard.objects.get(deck=deck, section="main", printing__collector_number="TS-013").count == 3  # autosaved


def test_the_cache_answers_misses_at_once_while_redis_is_down(redis_down):
    started = time.monotonic()
    cache.set("k", 1)
    for _ in range(100):
        assert cache.get("k", "missing") == "missing"
    assert cache.get_many(["k"]) == {}
    assert cache.add("k", 1) is False
    assert cache.delete("k") is False
    assert time.monotonic() - started < 2  # one refused connection, then a second without trying


def test_the_lockout_still_counts_wrong_passwords_with_redis_down(redis_down, player, settings):
    # Axes counts failures in the database, so the lockout holds without Redis (the throttles fail open).
    settings.AXES_FAILURE_LIMIT = 2
    user, _ = player
    assert Client().post("/accounts/login/", {"username": user.username, "password": "nope"}).status_code == 200
    Client().post("/accounts/login/", {"username": user.username, "password": "nope"})

    response = Client().post("/accounts/login/", {"username": user.username, "password": PASSWORD})

    assert response.status_code == 429


@pytest.mark.django_db(transaction=True)  # the job is sent once its row is committed, within the request
def test_an_admin_upload_with_the_broker_down_is_queued_waiting_for_the_worker(redis_down, broker_down, admin_client):
    response = admin_upload(admin_client)

    assert response.status_code == 200
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.QUEUED
    assert OutboxTask.objects.filter(task="cards.import_job_run", kwargs__job_id=job.pk).exists()
    text = response.content.decode()
    assert text.count("Queued, waiting for the worker: the job queue cannot be reached now") == 2  # message, status


def test_a_validate_with_a_throttle_and_redis_down_is_answered(redis_down, rules):
    body = {"ruler": "apprentice", "main": []}
    for _ in range(3):
        response = Client().post("/api/v1/decks/validate/", json.dumps(body), content_type="application/json")
        assert response.status_code == 200
