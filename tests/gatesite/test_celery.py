from __future__ import annotations

import pytest
from django.conf import settings

from gatesite.celery import ping


@pytest.mark.django_db(transaction=True)
def test_it_runs_a_task_through_the_configured_broker(celery_worker_on_redis):
    result = ping.delay()

    assert result.get(timeout=20) == "pong"
    # With REDIS_URL the task went through Redis to a real worker, not eagerly in-process.
    assert (celery_worker_on_redis is not None) == bool(settings.REDIS_URL)
    assert result.successful()


def test_it_is_eager_without_a_broker_in_tests():
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
