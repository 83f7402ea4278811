"""The statistics runs' admin: the run log and the recompute button."""

from __future__ import annotations

import pytest
from django.utils.timezone import now

from decks.stats.models import StatisticsRun

pytestmark = pytest.mark.django_db


def test_admins_can_recompute_from_the_admin(admin_client, played):
    assert admin_client.get("/admin/stats/statisticsrun/").status_code == 200
    response = admin_client.post("/admin/stats/statisticsrun/recompute/")
    assert response.status_code == 302
    run = StatisticsRun.objects.get()  # tests run tasks eagerly
    assert (run.status, run.trigger, run.decks) == ("succeeded", "admin", 2)
    assert admin_client.get("/admin/stats/statisticsrun/recompute/").status_code == 405


def test_the_recompute_message_says_done_when_the_task_ran_in_process(admin_client, played):
    response = admin_client.post("/admin/stats/statisticsrun/recompute/", follow=True)
    run = StatisticsRun.objects.get()
    text = response.content.decode()
    assert f"Statistics recomputed: run {run.pk}, succeeded" in text
    assert "queued" not in text


def test_the_recompute_message_says_queued_when_a_worker_will_run_it(admin_client, played, monkeypatch):
    class Pending:  # what sending returns when a broker took the task and no worker ran it yet
        def ready(self) -> bool:
            return False

    monkeypatch.setattr("decks.stats.admin.task_send", lambda task, **kwargs: Pending())
    response = admin_client.post("/admin/stats/statisticsrun/recompute/", follow=True)
    assert "Statistics recompute queued; the new run appears here when it is done." in response.content.decode()
    assert not StatisticsRun.objects.exists()


def test_the_run_list_shows_seconds_rounded(admin_client, played):
    StatisticsRun.objects.create(
        status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=0.00483057700057
    )
    StatisticsRun.objects.create(status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=6.4213)
    StatisticsRun.objects.create(status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=12.3456)
    text = admin_client.get("/admin/stats/statisticsrun/").content.decode()
    assert "0.005 s" in text
    assert "6.4 s" in text
    assert "12.3 s" in text
    assert "0.00483" not in text


def test_a_non_staff_user_cannot_recompute(client, user, played):
    client.force_login(user)
    response = client.post("/admin/stats/statisticsrun/recompute/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert not StatisticsRun.objects.exists()


def test_it_sends_the_old_admin_addresses_to_the_new_ones(admin_client):
    response = admin_client.get("/admin/decks/statisticsrun/?status__exact=failed")
    assert response.status_code == 308
    assert response["Location"] == "/admin/stats/statisticsrun/?status__exact=failed"
    assert admin_client.get("/admin/decks/statisticsrun/", follow=True).status_code == 200


def test_it_still_recomputes_from_a_run_list_loaded_at_the_old_address(admin_client, played):
    # 308: the browser repeats the POST at the new address (a 301 would turn it into a refused GET).
    response = admin_client.post("/admin/decks/statisticsrun/recompute/", follow=True)
    assert response.redirect_chain[0] == ("/admin/stats/statisticsrun/recompute/", 308)
    assert StatisticsRun.objects.get().trigger == "admin"


def test_the_recompute_waits_for_the_worker_when_the_broker_is_down(admin_client, played, broker_down):
    from gatesite.outbox.models import OutboxTask

    response = admin_client.post("/admin/stats/statisticsrun/recompute/", follow=True)

    assert response.status_code == 200
    assert "Statistics recompute queued, waiting for the worker" in response.content.decode()
    kept = OutboxTask.objects.get()
    assert (kept.task, kept.kwargs) == ("decks.statistics_recompute", {"trigger": "admin"})
