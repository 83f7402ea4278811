"""What /healthz/ reports: the database, the cache, the broker and the workers, each with its status.

Only the database decides the answer's code (503 without it: nothing works). The others degrade
the site without taking it down (a cache outage: sessions from the database; a broker outage:
jobs wait in the outbox; no worker: jobs wait in the queue), so a load balancer must keep sending
traffic; the body says what is wrong, for monitoring. The endpoint is public: the body names the kind
of failure (the exception's class), and its message, which may hold host names and ports, goes to the log.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.utils import timezone

from .cache import RedisCache
from .celery import app as celery_app

logger = logging.getLogger(__name__)

# Beat sends the outbox task every 15 s (settings.CELERY_BEAT_SCHEDULE): four missed beats is a stale worker.
WORKER_STALE_AFTER = timedelta(seconds=60)
# Seconds the broker check waits for Redis.
BROKER_TIMEOUT = 0.5


def health_report() -> dict[str, Any]:
    database = database_status()
    database_up = database["status"] == "ok"
    return {
        "ok": database_up,
        "database": database,
        "cache": cache_status(),
        "broker": broker_status(database_up=database_up),
        "worker": worker_status(database_up=database_up),
    }


def database_status() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        return {"status": "down", "vendor": connection.vendor, "error": _logged("database", exc)}
    return {"status": "ok", "vendor": connection.vendor}


def _logged(dependency: str, exc: Exception) -> str:
    """The failure's kind for the public body; its message for the operators' log."""
    logger.warning("healthz: the %s is down: %s: %s", dependency, type(exc).__name__, exc)
    return type(exc).__name__


def cache_status() -> dict[str, Any]:
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        return {"status": "ok", "kind": "per-process memory"}
    if cache.ping():
        return {"status": "ok", "kind": "redis"}
    return {"status": "down", "kind": "redis", "effect": "sessions read from the database, throttles open"}


def broker_status(*, database_up: bool) -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"status": "not used", "effect": "tasks run in the web process"}
    report: dict[str, Any] = {"status": "ok"}
    url = str(celery_app.conf.broker_url)
    if url.startswith(("redis://", "rediss://")):
        import redis

        try:
            with redis.Redis.from_url(
                url, socket_connect_timeout=BROKER_TIMEOUT, socket_timeout=BROKER_TIMEOUT
            ) as client:
                client.ping()
        except redis.RedisError as exc:
            report = {"status": "down", "error": _logged("broker", exc)}
    else:
        report = {"status": "unknown", "error": "only a Redis broker is checked"}
    if database_up:
        from .outbox.selectors import outbox_waiting_count

        # Jobs kept while the broker was down, sent by the next outbox run once it is back.
        report["waiting_in_outbox"] = outbox_waiting_count()
    return report


def worker_status(*, database_up: bool) -> dict[str, Any]:
    if celery_app.conf.task_always_eager:
        return {"status": "not used", "effect": "tasks run in the web process"}
    if not database_up:
        return {"status": "unknown"}
    from .outbox.selectors import worker_last_seen

    seen = worker_last_seen()
    if seen is None:
        return {"status": "never seen"}
    age = (timezone.now() - seen).total_seconds()
    return {"status": "ok" if age <= WORKER_STALE_AFTER.total_seconds() else "stale", "last_seen_seconds": round(age)}
