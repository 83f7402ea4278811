from __future__ import annotations

from django.apps import AppConfig


class OutboxConfig(AppConfig):
    """Celery tasks kept while the broker is down (issue 24) and the workers' heartbeats (/healthz/)."""

    name = "gatesite.outbox"
    label = "outbox"
    verbose_name = "Job queue"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the worker-start receiver that sends what waited while no worker or broker was there.
        from . import tasks  # noqa: F401
