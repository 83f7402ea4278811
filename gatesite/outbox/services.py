"""Send a Celery task, or keep it in the database while the broker cannot be reached (a transactional outbox's fallback).

A broker outage must not fail the request that queues a job (an import upload, a rules
release's revalidation, an admin's recompute), nor lose the job: `task_send` tries the broker
briefly and, if it is unreachable, writes an OutboxTask row instead. `outbox_send` (beat, every
15 seconds, and at every worker's start) sends the rows once the broker is back. The happy path
writes nothing: the row exists only for a task the broker refused. After a failure this process
puts tasks straight in the outbox for RETRY_AFTER seconds rather than make each request wait for
the broker again. With Celery eager (no REDIS_URL) a task runs in-process, as before.
"""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Any

from celery import Task, current_app
from celery.result import AsyncResult
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .models import OutboxTask, WorkerHeartbeat

logger = logging.getLogger(__name__)

# What publishing raises when the broker cannot be reached (kombu wraps the transport's errors).
BROKER_ERRORS = (OperationalError, RedisConnectionError, RedisTimeoutError, OSError)
# One retry, for the pool's connection that a restarted Redis dropped; then the task is kept (about 0.4 s).
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# Seconds after a failed send during which this process keeps tasks without trying the broker.
RETRY_AFTER = 5.0
# Rows sent per outbox_send run (the next run sends the rest).
SEND_LIMIT = 1000

_broker_down_until = 0.0


def task_send(task: Task, **kwargs: Any) -> AsyncResult | None:
    """Send `task` with these keyword arguments now; None when the broker was unreachable and it was kept.

    No result is stored for it (nobody waits on these): the Redis result backend would otherwise
    subscribe for it, and with Redis down retry that for 20 seconds.
    """
    global _broker_down_until
    if task.app.conf.task_always_eager:
        return task.apply_async(kwargs=kwargs)
    if time.monotonic() < _broker_down_until:
        error = "the broker was unreachable moments before"
    else:
        try:
            return task.apply_async(kwargs=kwargs, ignore_result=True, retry_policy=PUBLISH_RETRY)
        except BROKER_ERRORS as exc:
            _broker_down_until = time.monotonic() + RETRY_AFTER
            error = f"{type(exc).__name__}: {exc}"
    OutboxTask.objects.create(task=task.name, kwargs=kwargs, last_error=error[:2000])
    logger.warning("Broker unreachable (%s): %s kept in the outbox until it is back.", error, task.name)
    return None


def task_send_on_commit(task: Task, **kwargs: Any) -> None:
    """task_send once the caller's transaction commits (a worker must see what the task reads)."""
    transaction.on_commit(partial(task_send, task, **kwargs))


def outbox_send(*, limit: int = SEND_LIMIT) -> dict[str, int]:
    """Send the kept tasks, oldest first, each row deleted once sent; stops at the first the broker refuses.

    Two runs at once may send a row twice: every task sent this way is idempotent.
    """
    global _broker_down_until
    counts = {"sent": 0, "waiting": 0, "unknown": 0}
    rows = list(OutboxTask.objects.order_by("pk")[:limit])
    if rows:
        current_app.loader.import_default_modules()  # every app's tasks module, so each name is found
    for index, row in enumerate(rows):
        task = current_app.tasks.get(row.task)
        if task is None:  # a task renamed or removed since: kept for an admin to see, never sent
            counts["unknown"] += 1
            OutboxTask.objects.filter(pk=row.pk).update(last_error=f"no task named {row.task!r}")
            continue
        try:
            task.apply_async(kwargs=row.kwargs, ignore_result=True, retry_policy=PUBLISH_RETRY)
        except BROKER_ERRORS as exc:
            _broker_down_until = time.monotonic() + RETRY_AFTER
            OutboxTask.objects.filter(pk=row.pk).update(
                attempts=F("attempts") + 1, last_error=f"{type(exc).__name__}: {exc}"[:2000]
            )
            counts["waiting"] = len(rows) - index
            break
        OutboxTask.objects.filter(pk=row.pk).delete()
        counts["sent"] += 1
    else:
        _broker_down_until = 0.0
    if counts["sent"]:
        logger.warning("Outbox: %d tasks kept while the broker was down were sent.", counts["sent"])
    return counts


def worker_heartbeat_record(*, worker: str) -> None:
    """A worker ran the periodic outbox task: it, the broker and beat all work (read by /healthz/)."""
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(worker=worker[:255], defaults={"seen_at": now})
    # Workers renamed or gone for a day are forgotten.
    WorkerHeartbeat.objects.filter(seen_at__lt=now - timezone.timedelta(days=1)).delete()
