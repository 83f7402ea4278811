"""Issue 24: a Redis this test started is killed while a player, a script and an admin work, then started again.

The site runs in-process (Django's test client) against that Redis for its cache, sessions
(cached_db), throttles and Celery broker. While Redis is down no request is a 500: pages, the
autosave, a sign-in, the validate API, a token PATCH and the admin's import upload all answer as
with Redis up (the upload says "queued, waiting for the worker"). Once Redis is back, a real
Celery worker (a thread of this process, consuming from that Redis) runs beat's outbox task, which
sends what the outbox kept, and runs the queued import once.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cards.models import Card, ImportJob
from decks.models import Deck, DeckDraft
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

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def wait_for(condition, *, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_killing_redis_gives_no_500_and_the_queued_import_runs_once_it_is_back(
    own_redis,
    broker_at,
    settings,
    deck_catalog,  # noqa: F811
):
    from celery.contrib.testing.worker import start_worker

    from gatesite.celery import app
    from gatesite.outbox.tasks import outbox_send

    settings.CACHES = cache_settings(own_redis.url)
    settings.SESSION_ENGINE = "gatesite.sessions.cached_db"
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100/minute", "user": "100/minute", "token": "10/minute"},
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    broker_at(own_redis.url.replace("/0", "/1"))
    player = get_user_model().objects.create_user("rin", "rin@example.com", PASSWORD)
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    deck = deck_create_from_draft(owner=player, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    client, admin = Client(raise_request_exception=False), Client(raise_request_exception=False)
    assert sign_in(client, "rin") == 302  # signed in with Redis up: the session is in its cache
    assert sign_in(admin, "root") == 302
    token = token_for("rin")
    assert client.get(f"/d/{deck.public_id}/").status_code == 200

    own_redis.kill()
    started = time.monotonic()
    steps = player_steps(client, deck, token)
    upload = admin_upload(admin)
    health = Client().get("/healthz/")
    took = time.monotonic() - started

    assert steps == PLAYER_STEPS_ANSWERED
    assert upload.status_code == 200
    assert "Queued, waiting for the worker" in upload.content.decode()
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.QUEUED
    assert OutboxTask.objects.filter(task="cards.import_job_run", kwargs__job_id=job.pk).count() == 1
    assert (health.status_code, health.json()["cache"]["status"], health.json()["broker"]["status"]) == (
        200,
        "down",
        "down",
    )
    assert Deck.objects.get(pk=deck.pk).name == "Renamed while Redis was down"
    assert took < 20, f"the requests during the outage took {took:.1f} s"

    own_redis.start()
    # Back: the same player goes on, and a worker starting sends what the outbox kept.
    assert client.get(f"/decks/{deck.public_id}/edit/").status_code == 200
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        # Beat's next tick (every 15 s; a `celery worker` also sends it when it starts, which this
        # in-process worker does not): the worker sends what the outbox kept, then runs the import.
        outbox_send.apply_async(ignore_result=True)
        ran = wait_for(lambda: ImportJob.objects.get(pk=job.pk).status == ImportJob.Status.SUCCEEDED, seconds=30)
    assert ran, f"the queued import did not run: {ImportJob.objects.get(pk=job.pk).status}"
    assert not OutboxTask.objects.exists()
    assert Card.objects.filter(name="Outage Squire").count() == 1  # imported once
    assert ImportJob.objects.get(pk=job.pk).attempts == 1
