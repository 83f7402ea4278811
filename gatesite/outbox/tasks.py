"""The periodic outbox task (beat, every 15 seconds) and its run at each worker's start."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready

from .services import BROKER_ERRORS, PUBLISH_RETRY


@shared_task(name="gatesite.outbox_send", bind=True)
def outbox_send(self: Task) -> dict[str, int]:
    """Send the tasks kept while the broker was down, and record this worker's heartbeat."""
    from .services import outbox_send as send
    from .services import worker_heartbeat_record

    worker_heartbeat_record(worker=self.request.hostname or "in-process")
    return send()


@worker_ready.connect
def outbox_send_on_worker_start(sender: Any = None, **kwargs: Any) -> None:
    """A worker starting (after an outage, a deploy) sends what waited, without waiting for beat."""
    with suppress(*BROKER_ERRORS):  # beat sends it again every 15 seconds
        outbox_send.apply_async(ignore_result=True, retry_policy=PUBLISH_RETRY)
