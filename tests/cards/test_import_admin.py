"""The admin's "Import card set": upload, job page with live progress, result."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from cards.models import Card, Erratum, ImportJob
from tests.cards.factories import CardFactory, FactionFactory, ImportJobFactory, card_row, set_file

pytestmark = pytest.mark.django_db

IMPORT_URL = "/admin/cards/importjob/import/"


def job_url(job: ImportJob) -> str:
    return f"/admin/cards/importjob/{job.pk}/change/"


def progress_url(job: ImportJob) -> str:
    return f"/admin/cards/importjob/{job.pk}/progress/"


@pytest.fixture
def admin_client(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "correct horse battery")
    client.force_login(admin)
    return client


@pytest.fixture
def staff_client(client):
    """Staff, but without any permission on import jobs."""
    staff = get_user_model().objects.create_user("bob", "bob@example.com", "correct horse battery", is_staff=True)
    client.force_login(staff)
    return client


def post_upload(client, captured, raw: bytes, *, name: str = "gb05.json", mode: str = "apply", date: str = ""):
    with captured(execute=True):  # the job is enqueued on commit; without REDIS_URL it runs right there
        return client.post(
            IMPORT_URL,
            {"file": SimpleUploadedFile(name, raw), "mode": mode, "errata_effective_date": date},
        )


@pytest.mark.parametrize(
    "url",
    [
        IMPORT_URL,
        "/admin/cards/importjob/",
        "/admin/cards/importjob/{pk}/change/",
        "/admin/cards/importjob/{pk}/progress/",
    ],
)
def test_it_sends_anonymous_and_non_staff_users_to_the_login(client, user, url):
    url = url.format(pk=ImportJobFactory().pk)

    anonymous = client.get(url)
    client.force_login(user)
    not_staff = client.get(url)

    for response in (anonymous, not_staff):
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize(
    "url", [IMPORT_URL, "/admin/cards/importjob/{pk}/change/", "/admin/cards/importjob/{pk}/progress/"]
)
def test_it_forbids_staff_without_the_permission(staff_client, url):
    assert staff_client.get(url.format(pk=ImportJobFactory().pk)).status_code == 403


def test_it_lets_staff_with_the_permissions_upload(staff_client, django_capture_on_commit_callbacks):
    from django.contrib.auth.models import User

    bob = User.objects.get(username="bob")
    bob.user_permissions.add(*Permission.objects.filter(codename__in=["add_importjob", "view_importjob"]))

    response = post_upload(staff_client, django_capture_on_commit_callbacks, set_file(card_row(1)))

    assert response.status_code == 302
    assert ImportJob.objects.get().created_by == bob


def test_it_offers_the_upload_form_from_the_job_list(admin_client):
    jobs = admin_client.get("/admin/cards/importjob/")
    form = admin_client.get(IMPORT_URL)

    assert jobs.status_code == 200
    assert IMPORT_URL.encode() in jobs.content
    assert form.status_code == 200
    for needle in (b'type="file"', b'value="dry_run"', b'value="apply"', b'name="errata_effective_date"'):
        assert needle in form.content


def test_it_dry_runs_an_upload_and_shows_the_diff(admin_client, django_capture_on_commit_callbacks):
    CardFactory(name="Card 1", faction=FactionFactory(name="Red", slug="red"), atk=1, text="Old <b>text</b>.")

    response = post_upload(
        admin_client,
        django_capture_on_commit_callbacks,
        set_file(card_row(1, text="New."), card_row(2, name="<script>alert(1)</script>")),
        mode="dry_run",
    )

    job = ImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == job_url(job)
    assert (job.dry_run, job.status) == (True, ImportJob.Status.SUCCEEDED)
    assert Card.objects.count() == 1  # nothing written
    page = admin_client.get(job_url(job)).content.decode()
    assert "What applying this file would change" in page
    assert "New cards (1)" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)</script>" not in page
    assert "Changed cards (old → new) (1)" in page
    assert "<del>“Old &lt;b&gt;text&lt;/b&gt;.”</del> → <ins>“New.”</ins>" in page
    assert "<del>1</del> → <ins>2</ins>" in page  # atk
    assert "hx-trigger" not in page  # finished: no more polling


def test_it_applies_an_upload_with_an_errata_date(admin_client, django_capture_on_commit_callbacks):
    card = CardFactory(name="Card 1", faction=FactionFactory(name="Red", slug="red"), atk=2, hp=3, text="Old.")

    response = post_upload(
        admin_client, django_capture_on_commit_callbacks, set_file(card_row(1, text="New.")), date="2024-02-01"
    )

    job = ImportJob.objects.get()
    assert response["Location"] == job_url(job)
    assert job.status == ImportJob.Status.SUCCEEDED
    card.refresh_from_db()
    assert card.text == "New."
    erratum = Erratum.objects.get(field="text")
    assert (str(erratum.effective_date), erratum.job) == ("2024-02-01", job)
    page = admin_client.get(job_url(job)).content.decode()
    assert "What changed" in page
    assert "errata recorded" in page
    card_page = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert "Errata history" in card_page
    assert "2024-02-01" in card_page or "Feb. 1, 2024" in card_page


def test_it_tells_when_the_same_file_was_applied_before(admin_client, django_capture_on_commit_callbacks):
    raw = set_file(card_row(1))
    post_upload(admin_client, django_capture_on_commit_callbacks, raw)

    response = post_upload(admin_client, django_capture_on_commit_callbacks, raw)

    first, second = ImportJob.objects.order_by("pk")
    page = admin_client.get(response["Location"]).content.decode()
    assert f"Import #{first.pk} already applied this same file" in page
    assert second.counts["cards_unchanged"] == 1
    assert "Nothing to change" in page


def test_it_refuses_a_file_of_the_wrong_type_in_the_form(admin_client, django_capture_on_commit_callbacks):
    response = post_upload(admin_client, django_capture_on_commit_callbacks, b"\x89PNG\x00", name="cards.png")

    assert response.status_code == 200
    assert "cards.png: unsupported file type &#x27;.png&#x27;; expected .json or .csv" in response.content.decode()
    assert ImportJob.objects.count() == 0


def test_it_refuses_a_file_over_the_limit_in_the_form(admin_client, django_capture_on_commit_callbacks, settings):
    settings.IMPORT_MAX_BYTES = 100

    response = post_upload(admin_client, django_capture_on_commit_callbacks, set_file(card_row(1), card_row(2)))

    assert response.status_code == 200
    assert "the limit is 100 bytes" in response.content.decode()
    assert ImportJob.objects.count() == 0


def test_it_shows_every_bad_row_of_a_failed_job(admin_client, django_capture_on_commit_callbacks):
    raw = set_file(card_row(1, level="two"), card_row(2, cnt="perhaps"), card_row(3))

    response = post_upload(admin_client, django_capture_on_commit_callbacks, raw)

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    page = admin_client.get(response["Location"]).content.decode()
    assert 'id="job-errors"' in page
    assert "<td>cards[0]</td><td>level</td><td>&quot;two&quot; is not an integer</td>" in page
    assert "<td>cards[1]</td><td>cnt</td>" in page
    assert Card.objects.count() == 0


def test_it_polls_the_progress_of_a_running_job(admin_client):
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, rows_done=500, rows_total=2000, heartbeat_at=timezone.now())

    page = admin_client.get(job_url(job)).content.decode()
    fragment = admin_client.get(progress_url(job), headers={"HX-Request": "true"})

    assert 'hx-trigger="every 1s"' in page
    assert "htmx" in page  # the script django-htmx serves
    assert fragment.status_code == 200
    assert "no-store" in fragment["Cache-Control"]
    body = fragment.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="job-status"')
    assert f'hx-get="{progress_url(job)}"' in body
    assert '<progress max="2000" value="500">25%</progress>' in body
    assert "500 / 2000 rows checked (25%)" in body


def test_it_stops_polling_and_shows_the_result_once_the_job_is_done(admin_client):
    job = ImportJobFactory(
        status=ImportJob.Status.SUCCEEDED,
        rows_done=2,
        rows_total=2,
        finished_at=timezone.now(),
        counts={"cards_created": 2, "printings_created": 2, "errata": 0},
        diff={"new_cards": {"total": 2, "items": [{"name": "Card 1", "type": "unit", "faction": "Red", "level": 2}]}},
    )

    body = admin_client.get(progress_url(job), headers={"HX-Request": "true"}).content.decode()

    assert "hx-trigger" not in body
    assert 'id="job-counts"' in body
    assert "New cards (2)" in body
    assert "… and 1 more" in body


@pytest.mark.parametrize("eager", [True, False])
def test_a_finished_job_says_when_it_finished_and_whether_it_ran_inline(admin_client, settings, eager):
    settings.CELERY_TASK_ALWAYS_EAGER = eager  # the embedded default (no REDIS_URL) runs the job in the upload
    finished = timezone.make_aware(timezone.datetime(2026, 11, 24, 19, 40, 5))
    job = ImportJobFactory(
        status=ImportJob.Status.SUCCEEDED, rows_done=1, rows_total=1, started_at=finished, finished_at=finished
    )

    body = admin_client.get(job_url(job)).content.decode()
    form = admin_client.get(IMPORT_URL).content.decode()

    assert "p.m.." not in body
    assert "on 2026-11-24" in body
    assert ("no progress to follow" in body) is eager
    assert ("rather than live progress" in form) is eager


def test_it_warns_about_a_job_without_heartbeat(admin_client):
    job = ImportJobFactory(
        status=ImportJob.Status.RUNNING, attempts=1, heartbeat_at=timezone.now() - ImportJob.LEASE * 2
    )

    body = admin_client.get(progress_url(job), headers={"HX-Request": "true"}).content.decode()

    assert "the worker may have stopped" in body


def test_it_sends_a_plain_progress_request_to_the_job_page(admin_client):
    job = ImportJobFactory()

    response = admin_client.get(progress_url(job))

    assert response.status_code == 302
    assert response["Location"] == job_url(job)


def test_it_answers_404_for_an_unknown_job(admin_client):
    assert admin_client.get("/admin/cards/importjob/987654/change/").status_code == 404
    assert (
        admin_client.get("/admin/cards/importjob/987654/progress/", headers={"HX-Request": "true"}).status_code == 404
    )


def test_it_lists_errata_and_shows_one_without_loading_job_files(admin_client, django_assert_max_num_queries):
    from tests.cards.factories import ErratumFactory

    job = ImportJobFactory(status=ImportJob.Status.SUCCEEDED, file_content=b"x" * 1000)
    erratum = ErratumFactory(job=job, old_value=["Human"], new_value=["Human", "Knight"])

    listing = admin_client.get("/admin/cards/erratum/")
    with django_assert_max_num_queries(12) as captured:
        detail = admin_client.get(f"/admin/cards/erratum/{erratum.pk}/change/")
    card = admin_client.get(f"/admin/cards/card/{erratum.card_id}/change/")

    assert listing.status_code == detail.status_code == card.status_code == 200
    assert "Human, Knight" in listing.content.decode()
    assert "Human, Knight" in card.content.decode()
    assert not any("file_content" in q["sql"] for q in captured.captured_queries)


@pytest.mark.parametrize(
    ("state", "shown"),
    [
        ({"status": ImportJob.Status.QUEUED}, "Waiting for a worker…"),
        ({"status": ImportJob.Status.RUNNING, "attempts": 1}, "Reading the file…"),
        (
            {"status": ImportJob.Status.RUNNING, "attempts": 1, "rows_done": 9, "rows_total": 9},
            "9 rows checked; writing…",
        ),
    ],
)
def test_it_says_what_a_job_is_doing(admin_client, state, shown):
    job = ImportJobFactory(heartbeat_at=timezone.now(), **state)

    body = admin_client.get(progress_url(job), headers={"HX-Request": "true"}).content.decode()

    assert shown in body


def test_it_shows_when_a_worker_stopped_and_that_the_job_was_retried(admin_client):
    job = ImportJobFactory(
        status=ImportJob.Status.RUNNING,
        attempts=2,
        heartbeat_at=timezone.now(),
        recoveries=[
            {
                "attempt": 1,
                "heartbeat_at": "2026-11-23T22:00:00+00:00",
                "detected_at": "2026-11-23T22:01:30+00:00",
                "outcome": "retried",
            }
        ],
    )

    body = admin_client.get(progress_url(job), headers={"HX-Request": "true"}).content.decode()

    assert 'id="job-recoveries"' in body
    assert "Worker stopped at Nov. 23, 2026, 10 p.m." in body
    assert "retried." in body


def test_it_shows_that_a_job_failed_after_its_last_attempt(admin_client):
    job = ImportJobFactory(
        status=ImportJob.Status.FAILED,
        attempts=ImportJob.MAX_ATTEMPTS,
        finished_at=timezone.now(),
        recoveries=[
            {"attempt": n, "heartbeat_at": None, "detected_at": "2026-11-23T22:01:30+00:00", "outcome": outcome}
            for n, outcome in ((1, "retried"), (2, "retried"), (3, "failed"))
        ],
    )

    body = admin_client.get(job_url(job)).content.decode()

    assert body.count("retried.") == 2
    assert f"failed after {ImportJob.MAX_ATTEMPTS} attempts: nothing imported." in body


def test_the_job_page_reads_in_the_admins_language(admin_client):
    job = ImportJobFactory(
        status=ImportJob.Status.SUCCEEDED,
        rows_done=2,
        rows_total=2,
        finished_at=timezone.now(),
        counts={"cards_created": 2, "printings_created": 2, "errata": 0},
        diff={"new_cards": {"total": 2, "items": [{"name": "Card 1", "type": "unit", "faction": "Red", "level": 2}]}},
    )

    body = admin_client.get(job_url(job), HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "<h2>件数</h2>" in body
    assert "新しいカード (2)" in body
    assert "…ほか 1 件" in body
    assert "Counts" not in body


def test_the_upload_form_reads_in_the_admins_language(admin_client):
    body = admin_client.get(IMPORT_URL, HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "試行:変わる内容を表示するだけで、何も書き込まない" in body
    assert "ない場合はゲートルーラー。" in body
    assert "Dry run" not in body
    assert "Dry run: show what would change" in admin_client.get(IMPORT_URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
