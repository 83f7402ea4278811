"""Celery application (layout of the Celery docs' proj/proj/celery.py)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gatesite.settings")

# DjangoTask adds .delay_on_commit() so a worker never sees an uncommitted row.
app = Celery("gatesite", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Features of the decks app that are not apps of their own keep their tasks in their folder.
app.autodiscover_tasks(["decks.revalidation", "decks.library"])


@app.task(name="gatesite.ping")
def ping() -> str:
    """Round trip used by the health check and the real-worker test."""
    return "pong"
