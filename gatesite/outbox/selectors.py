"""Reads of the outbox and the workers' heartbeats."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .models import OutboxTask, WorkerHeartbeat


def outbox_task_waiting(*, task: str, **kwargs: Any) -> bool:
    """Whether a task of this name with these keyword arguments waits in the outbox for the broker."""
    return OutboxTask.objects.filter(task=task, **{f"kwargs__{key}": value for key, value in kwargs.items()}).exists()


def outbox_waiting_count() -> int:
    return OutboxTask.objects.count()


def worker_last_seen() -> datetime | None:
    """When a worker last ran the periodic outbox task (None: never)."""
    return WorkerHeartbeat.objects.order_by("-seen_at").values_list("seen_at", flat=True).first()
