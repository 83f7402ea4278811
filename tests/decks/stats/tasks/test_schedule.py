"""The statistics tasks keep their names: beat's schedule and messages already queued use them."""

from __future__ import annotations

import pytest

from gatesite.celery import app


@pytest.fixture(scope="module")
def tasks():
    app.loader.import_default_modules()
    return app.tasks


def test_every_scheduled_task_exists(tasks):
    from django.conf import settings

    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in tasks, name


@pytest.mark.parametrize(
    ("name", "function"),
    [
        ("decks.statistics_recompute", "statistics_recompute"),
        ("decks.statistics_refresh_if_stale", "statistics_refresh_if_stale"),
        ("decks.statistics_deck_changed", "statistics_deck_changed"),
    ],
)
def test_it_keeps_each_tasks_name_from_before_the_move(tasks, name, function):
    from decks.stats import tasks as stats_tasks

    assert getattr(stats_tasks, function).name == name
    assert tasks[name].run.__module__ == "decks.stats.tasks"  # the registered task is the moved one
