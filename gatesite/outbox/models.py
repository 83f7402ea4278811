from __future__ import annotations

from django.db import models
from django.utils import timezone


class OutboxTask(models.Model):
    """A Celery task the broker could not take when it was sent; sent again once it is back (services.outbox_send).

    Every task sent this way is idempotent (an import job is claimed once, a revalidation writes
    only verdicts that differ, a recompute computes the same figures), so a row sent twice does no harm.
    """

    task = models.CharField(max_length=200, help_text="The Celery task's name.")
    kwargs = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveIntegerField(default=1, help_text="Times sending it failed.")
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = "task waiting for the broker"
        verbose_name_plural = "tasks waiting for the broker"

    def __str__(self) -> str:
        return f"{self.task} {self.kwargs}"


class WorkerHeartbeat(models.Model):
    """When a Celery worker last ran the periodic outbox task: a worker, the broker and beat all work (/healthz/)."""

    worker = models.CharField(max_length=255, primary_key=True)
    seen_at = models.DateTimeField()

    class Meta:
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return self.worker
