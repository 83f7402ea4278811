"""The statistics page, a card's page figures, the admin's recompute button, and the save hook."""

from __future__ import annotations

import re

import pytest
from django.utils.timezone import now

from decks.models import DeckDraft, StatisticsChange, StatisticsRun, Visibility
from decks.services import deck_create_from_draft, deck_delete, deck_update
from decks.statistics import statistics_recompute
from tests.cards.factories import CardFactory, FactionFactory, PrintingFactory
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(rules):
    """Two public Apprentice decks playing <Fire> & Ice (a name to escape) with Frost Hare."""
    fire = CardFactory(name="<Fire> & Ice", faction=FactionFactory(name="Red & Co"), level=1)
    hare = CardFactory(name="Frost Hare", level=2)
    fire_print = PrintingFactory(card=fire, collector_number="ST-001")
    hare_print = PrintingFactory(card=hare, collector_number="ST-002")
    for _ in range(2):
        deck = DeckFactory(visibility=Visibility.PUBLIC)
        DeckCardFactory(deck=deck, printing=fire_print, count=3)
        DeckCardFactory(deck=deck, printing=hare_print, count=1)
    private = DeckFactory(visibility=Visibility.PRIVATE)
    DeckCardFactory(deck=private, printing=hare_print, count=4)
    return {"fire": fire, "hare": hare}


def test_the_page_says_when_nothing_was_computed_yet(client, rules):
    response = client.get("/stats/")
    assert response.status_code == 200
    assert "No statistics have been computed yet." in response.content.decode()


def test_the_page_shows_the_precomputed_figures_and_their_date(client, played):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()
    assert f"{run.computed_at:%Y-%m-%d %H:%M}" in html
    assert "2 decks" in html
    assert "Apprentice" in html
    assert "100.0% <small>(2 decks)</small> <small>· 0.0 CNT</small>" in html  # ruler share
    assert "&lt;Fire&gt; &amp; Ice" in html
    assert "<Fire>" not in html
    assert "Red &amp; Co" in html
    assert "avg 3.0 copies" in html  # average copies of <Fire> & Ice
    assert "avg 1 copy" in html  # Frost Hare
    assert 'href="/cards/ST-001/"' in html


def test_cards_at_the_same_inclusion_rank_by_average_copies_then_name(client, rules):
    # Created so that their ids are in neither order the page should show.
    bravo, zulu, alpha = (
        PrintingFactory(card=CardFactory(name=name), collector_number=number)
        for name, number in [("Bravo", "ST-011"), ("Zulu", "ST-012"), ("Alpha", "ST-013")]
    )
    for _ in range(2):
        deck = DeckFactory(visibility=Visibility.PUBLIC)
        DeckCardFactory(deck=deck, printing=bravo, count=1)
        DeckCardFactory(deck=deck, printing=zulu, count=3)
        DeckCardFactory(deck=deck, printing=alpha, count=1)
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()

    def order(section: str) -> list[str]:
        part = html[html.index(section) :]
        part = part[: part.index("</ul>")]
        return re.findall(r'<a href="/cards/ST-\d+/">(\w+)</a>', part)

    assert order("<h2>Most played cards</h2>") == ["Zulu", "Alpha", "Bravo"]
    assert order("<h2>Top cards per ruler</h2>") == ["Zulu", "Alpha", "Bravo"]


def test_the_page_narrows_to_one_ruler(client, played):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/?ruler=knight").content.decode()
    assert "<h1>Statistics: Knight</h1>" in html
    assert "0 decks of Knight" in html
    assert "&lt;Fire&gt;" not in html


def test_the_page_reads_only_precomputed_rows(client, played, django_assert_max_num_queries):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    # A dozen small reads of the figure tables, however many decks there are.
    with django_assert_max_num_queries(14):
        assert client.get("/stats/").status_code == 200


def test_the_card_page_shows_inclusion_and_cards_played_with_it(client, played):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/cards/ST-002/").content.decode()
    assert "Played in 100.0% of public decks (2), 1.00 copies on average" in html
    assert "&lt;Fire&gt; &amp; Ice" in html  # its partner, escaped
    assert 'href="/cards/ST-001/"' in html
    assert "Printings" in html
    assert "Errata history" in html


def test_the_card_page_without_figures(client, played):
    assert "No statistics have been computed yet." in client.get("/cards/ST-001/").content.decode()


def test_admins_can_recompute_from_the_admin(admin_client, played):
    assert admin_client.get("/admin/decks/statisticsrun/").status_code == 200
    response = admin_client.post("/admin/decks/statisticsrun/recompute/")
    assert response.status_code == 302
    run = StatisticsRun.objects.get()  # tests run tasks eagerly
    assert (run.status, run.trigger, run.decks) == ("succeeded", "admin", 2)
    assert admin_client.get("/admin/decks/statisticsrun/recompute/").status_code == 405


def test_the_recompute_message_says_done_when_the_task_ran_in_process(admin_client, played):
    response = admin_client.post("/admin/decks/statisticsrun/recompute/", follow=True)
    run = StatisticsRun.objects.get()
    text = response.content.decode()
    assert f"Statistics recomputed: run {run.pk}, succeeded" in text
    assert "queued" not in text


def test_the_recompute_message_says_queued_when_a_worker_will_run_it(admin_client, played, monkeypatch):
    from decks.tasks import statistics_recompute

    class Pending:  # what .delay() returns when a broker took the task and no worker ran it yet
        def ready(self) -> bool:
            return False

    monkeypatch.setattr(statistics_recompute, "delay", lambda *args: Pending())
    response = admin_client.post("/admin/decks/statisticsrun/recompute/", follow=True)
    assert "Statistics recompute queued; the new run appears here when it is done." in response.content.decode()
    assert not StatisticsRun.objects.exists()


def test_the_run_list_shows_seconds_rounded(admin_client, played):
    StatisticsRun.objects.create(
        status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=0.00483057700057
    )
    StatisticsRun.objects.create(status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=6.4213)
    StatisticsRun.objects.create(status="succeeded", trigger="admin", started_at=now(), decks=2, seconds=12.3456)
    text = admin_client.get("/admin/decks/statisticsrun/").content.decode()
    assert "0.005 s" in text
    assert "6.4 s" in text
    assert "12.3 s" in text
    assert "0.00483" not in text


def test_a_non_staff_user_cannot_recompute(client, user, played):
    client.force_login(user)
    response = client.post("/admin/decks/statisticsrun/recompute/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert not StatisticsRun.objects.exists()


def test_saving_a_public_deck_marks_the_figures_stale_after_the_commit(
    user, deck_catalog, django_capture_on_commit_callbacks
):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 4})
    with django_capture_on_commit_callbacks(execute=True):
        deck = deck_create_from_draft(owner=user, draft=draft)
    assert not StatisticsChange.objects.exists()  # a private deck is not in the figures

    deck.visibility = Visibility.PUBLIC
    deck.save()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deck = deck_update(
            deck=deck, draft=DeckDraft(ruler="apprentice", main={"TS-001": 3}), base_version=deck.version
        )
    assert not StatisticsChange.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [deck.pk]

    deck_id = deck.pk
    with django_capture_on_commit_callbacks(execute=True):
        deck_delete(deck=deck)
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [deck_id, deck_id]


def test_the_api_returns_the_precomputed_figures(client, played):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    body = client.get("/api/v1/statistics/").json()
    assert body["computed_at"].startswith(f"{run.computed_at:%Y-%m-%dT%H:%M}")
    assert (body["decks"], body["ruler"], body["changes_since"]) == (2, None, 0)
    assert body["rulers"][0]["label"] == "Apprentice"
    assert body["rulers"][0]["share"] == 1.0
    assert {c["label"]: c["share"] for c in body["top_cards"]} == {"<Fire> & Ice": 1.0, "Frost Hare": 1.0}
    assert [(p["label"], p["detail"]) for p in body["curve"]] == [("1", "3.00"), ("2", "1.00")]
    knight = client.get("/api/v1/statistics/?ruler=knight").json()
    assert (knight["ruler"], knight["decks"], knight["top_cards"]) == ("knight", 0, [])


def test_the_api_without_figures(client, rules):
    body = client.get("/api/v1/statistics/").json()
    assert (body["computed_at"], body["decks"], body["rulers"]) == (None, 0, [])


def test_sharing_or_archiving_a_deck_marks_the_figures_stale_when_it_enters_or_leaves_them(
    user, deck_catalog, django_capture_on_commit_callbacks
):
    from decks.library.services import deck_archive_set
    from decks.services import deck_visibility_set

    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 4}))
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.UNLISTED)
    assert StatisticsChange.objects.count() == 0  # never counted: nothing changes in the figures
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)
    assert StatisticsChange.objects.count() == 1  # enters the figures
    with django_capture_on_commit_callbacks(execute=True):
        deck_archive_set(deck=deck, archived=True)
    assert StatisticsChange.objects.count() == 2  # leaves them
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.PRIVATE)
    assert StatisticsChange.objects.count() == 2  # archived: was not counted, is not


def test_every_scheduled_task_exists():
    from django.conf import settings

    from gatesite.celery import app

    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name


def test_the_page_draws_the_monthly_trend_when_there_are_several_months(client, played):
    import datetime

    from decks.models import Deck

    first = Deck.objects.filter(visibility=Visibility.PUBLIC).order_by("pk").first()
    Deck.objects.filter(pk=first.pk).update(created_at=datetime.datetime(2025, 3, 5, tzinfo=datetime.UTC))
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()
    assert "<polyline" in html
    assert "for the 1 ruler with the most decks" in html
