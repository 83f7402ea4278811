"""GET /healthz/: each dependency with its status; 503 only when the database is down."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from bench.common import free_port
from gatesite.outbox.models import OutboxTask, WorkerHeartbeat
from tests.gatesite.redis_outage import cache_settings

pytestmark = pytest.mark.django_db


def test_it_reports_each_dependency(client):
    response = client.get("/healthz/")

    assert response.status_code == 200
    report = response.json()
    assert report["ok"] is True
    assert report["database"] == {"status": "ok", "vendor": connection.vendor}
    assert set(report) == {"ok", "database", "cache", "broker", "worker"}
    assert report["cache"]["status"] == "ok"


def test_it_answers_503_when_the_database_is_down(client, monkeypatch, caplog):
    def down(*args, **kwargs):
        raise OperationalError('connection to server at "10.0.0.7", port 5432 failed: connection refused')

    monkeypatch.setattr(connection, "cursor", down)

    response = client.get("/healthz/")

    assert response.status_code == 503
    report = response.json()
    assert report["ok"] is False
    assert report["database"]["status"] == "down"
    # The public body names the kind of failure, not the message (host and port): that goes to the log.
    assert report["database"]["error"] == "OperationalError"
    assert "10.0.0.7" not in response.content.decode()
    assert "10.0.0.7" in caplog.text


def test_a_cache_down_is_reported_and_the_site_stays_up(client, settings):
    settings.CACHES = cache_settings(f"redis://127.0.0.1:{free_port()}/0")

    response = client.get("/healthz/")

    assert response.status_code == 200
    assert response.json()["cache"]["status"] == "down"


def test_a_broker_down_is_reported_with_the_jobs_waiting(client, broker_down):
    OutboxTask.objects.create(task="cards.import_job_run", kwargs={"job_id": 1})

    response = client.get("/healthz/")

    assert response.status_code == 200
    broker = response.json()["broker"]
    assert broker["status"] == "down"
    assert broker["waiting_in_outbox"] == 1


def test_the_workers_heartbeat_is_ok_or_stale(client, broker_down):
    assert client.get("/healthz/").json()["worker"] == {"status": "never seen"}

    WorkerHeartbeat.objects.create(worker="celery@a", seen_at=timezone.now() - timezone.timedelta(seconds=5))
    assert client.get("/healthz/").json()["worker"]["status"] == "ok"

    WorkerHeartbeat.objects.update(seen_at=timezone.now() - timezone.timedelta(minutes=5))
    assert client.get("/healthz/").json()["worker"] == {"status": "stale", "last_seen_seconds": 300}
