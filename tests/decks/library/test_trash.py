"""The trash: a deleted deck leaves every list, count, page and job, comes back whole on Restore, and
the daily purge deletes it for good 30 days later (decks.library.services, selectors, tasks)."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.urls import reverse

from decks.library.selectors import deck_choices_for_owner, deck_public_list, deck_trash_list
from decks.library.services import (
    deck_archive_set,
    deck_delete_forever,
    deck_restore,
    deck_tag_add,
    deck_trash,
    decks_trash_purge,
)
from decks.models import Deck, DeckDraft, DeckTag, DeckVersion, Visibility
from decks.selectors import deck_list_owned, deck_list_public
from decks.services import deck_create_from_draft, deck_update, deck_visibility_set
from decks.sharing.services import deck_copy
from decks.stats.models import RulerShare, StatisticsChange
from decks.stats.services import statistics_recompute
from gatesite.errors import ApplicationError

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 28, 12, tzinfo=datetime.UTC)


def a_deck(user, name="Squires", visibility=Visibility.PUBLIC, main=None):
    deck = deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", main=main or {"TS-001": 4}), name=name
    )
    return deck_visibility_set(deck=deck, visibility=visibility)


# ---------------------------------------------------------------- trashed: gone everywhere


def test_a_trashed_deck_is_in_no_list(deck_catalog, user):
    deck = a_deck(user)
    kept = a_deck(user, name="Kept")

    deck_trash(deck=deck)

    assert deck.trashed_at is not None
    assert list(Deck.objects.filter(owner=user)) == [kept]
    assert list(deck_public_list()) == [kept]
    assert list(deck_list_public()) == [kept]
    assert list(deck_list_owned(user=user)) == [kept]
    assert deck_choices_for_owner(user=user) == [(kept.public_id, "Kept")]
    assert list(user.decks.all()) == [kept]
    assert list(deck_trash_list(user=user)) == [deck]


def test_my_decks_counts_the_trash_and_offers_no_tag_only_trashed_decks_have(client, deck_catalog, user):
    deck = a_deck(user)
    deck_tag_add(deck=deck, name="tournament")
    deck_trash(deck=deck)
    client.force_login(user)

    html = client.get("/decks/").content.decode()

    assert "Squires" not in html
    assert "Trash (1)" in html
    assert "tournament" not in html


def test_its_page_is_a_404_to_others_and_tells_its_owner_where_it_is(client, deck_catalog, user, other_user):
    deck = a_deck(user)
    deck_trash(deck=deck)

    client.force_login(other_user)
    assert client.get(f"/d/{deck.public_id}/").status_code == 404
    assert client.get(f"/d/{deck.public_id}/export.txt").status_code == 404
    assert client.get(f"/d/{deck.public_id}/v/1/").status_code == 404
    client.force_login(user)
    response = client.get(f"/d/{deck.public_id}/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "it is in your trash until" in html
    assert reverse("decks:trash-restore", args=[deck.public_id]) in html


def test_the_statistics_leave_a_trashed_deck_out(deck_catalog, user, django_capture_on_commit_callbacks):
    deck = a_deck(user)
    a_deck(user, name="Kept")
    with django_capture_on_commit_callbacks(execute=True):
        deck_trash(deck=deck)

    assert StatisticsChange.objects.filter(deck_id=deck.pk).exists()  # the figures it was in are stale
    run = statistics_recompute()
    assert RulerShare.objects.get(run=run, ruler=None).decks == 1


def test_revalidation_leaves_a_trashed_deck_alone_and_restore_judges_it_again(deck_catalog, user):
    from cards.models import Ruler
    from decks.revalidation.services import decks_revalidate

    deck = a_deck(user)
    Deck.objects.filter(pk=deck.pk).update(legal=True, verdict_reason="")
    deck_trash(deck=deck)

    result = decks_revalidate(ruler_ids=[Ruler.objects.get(slug="apprentice").pk])

    assert result.checked == 0
    assert Deck.everything.get(pk=deck.pk).legal is True  # as it was (a 4-card deck is not legal)
    deck_restore(deck=Deck.everything.get(pk=deck.pk))
    restored = Deck.objects.get(pk=deck.pk)
    assert restored.legal is False
    assert "50" in restored.verdict_reason


def test_a_trashed_copy_is_not_counted_by_its_source_until_restored(deck_catalog, user, other_user):
    source = a_deck(user)
    copy = deck_copy(source=source, owner=other_user)
    assert Deck.objects.get(pk=source.pk).copies_count == 1

    deck_trash(deck=copy)
    assert Deck.objects.get(pk=source.pk).copies_count == 0
    deck_trash(deck=copy)  # again: nothing more
    assert Deck.objects.get(pk=source.pk).copies_count == 0

    deck_restore(deck=Deck.everything.get(pk=copy.pk))
    assert Deck.objects.get(pk=source.pk).copies_count == 1


# ---------------------------------------------------------------- restore


def test_restore_brings_back_everything(client, deck_catalog, user, other_user):
    deck = a_deck(user, visibility=Visibility.UNLISTED)
    deck = deck_update(deck=deck, draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}), base_version=deck.version)
    deck_tag_add(deck=deck, name="budget")
    deck_archive_set(deck=deck, archived=True)
    deck_trash(deck=deck)

    deck_restore(deck=Deck.everything.get(pk=deck.pk))

    back = Deck.objects.get(pk=deck.pk)
    assert back.trashed_at is None
    assert (back.visibility, back.archived) == (Visibility.UNLISTED, True)
    assert list(DeckTag.objects.filter(deck=back).values_list("name", flat=True)) == ["budget"]
    assert list(DeckVersion.objects.filter(deck=back).order_by("number").values_list("number", flat=True)) == [1, 2]
    client.force_login(other_user)
    assert client.get(f"/d/{deck.public_id}/").status_code == 200


def test_the_trash_page_lists_each_deck_with_its_purge_date_and_restores_it(client, deck_catalog, user):
    deck = a_deck(user)
    with time_machine.travel(NOW, tick=False):
        deck_trash(deck=deck)
    client.force_login(user)

    html = client.get(reverse("decks:trash")).content.decode()
    assert "Squires" in html
    assert "2026-12-28" in html  # 30 days after it was trashed
    response = client.post(reverse("decks:trash-restore", args=[deck.public_id]), {"next": "/decks/"}, follow=True)

    assert "Restored “Squires”" in response.content.decode()
    assert Deck.objects.filter(pk=deck.pk).exists()


def test_no_one_else_restores_or_deletes_a_deck_from_a_trash(client, deck_catalog, user, other_user):
    deck = a_deck(user)
    deck_trash(deck=deck)
    client.force_login(other_user)

    assert client.post(reverse("decks:trash-restore", args=[deck.public_id])).status_code == 404
    assert client.post(reverse("decks:trash-delete", args=[deck.public_id]), {"confirmed": "1"}).status_code == 404
    assert Deck.everything.get(pk=deck.pk).trashed_at is not None


# ---------------------------------------------------------------- deleting: into the trash, then forever


def test_the_editors_delete_moves_the_deck_to_the_trash_with_an_undo(client, deck_catalog, user):
    deck = a_deck(user)
    client.force_login(user)

    response = client.post(reverse("decks:delete", args=[deck.public_id]), follow=True)

    assert Deck.everything.get(pk=deck.pk).trashed_at is not None
    html = response.content.decode()
    assert "Moved “Squires” to the trash." in html
    assert reverse("decks:trash-restore", args=[deck.public_id]) in html


def test_the_apis_delete_answers_204_and_moves_the_deck_to_the_trash(client, deck_catalog, user):
    deck = a_deck(user)
    client.force_login(user)

    assert client.delete(f"/api/v1/decks/{deck.public_id}/").status_code == 204

    assert client.get(f"/api/v1/decks/{deck.public_id}/").status_code == 404
    assert Deck.everything.get(pk=deck.pk).trashed_at is not None


def test_delete_forever_asks_first(client, deck_catalog, user):
    deck = a_deck(user)
    deck_trash(deck=deck)
    client.force_login(user)
    url = reverse("decks:trash-delete", args=[deck.public_id])

    asked = client.get(url).content.decode()
    assert "Delete forever?" in asked
    assert "cannot be undone" in asked
    client.post(url)  # without the confirmation
    assert Deck.everything.filter(pk=deck.pk).exists()

    client.post(url, {"confirmed": "1"})
    assert not Deck.everything.filter(pk=deck.pk).exists()
    assert not DeckVersion.objects.filter(deck_id=deck.pk).exists()


def test_only_a_trashed_deck_is_deleted_forever(deck_catalog, user):
    deck = a_deck(user)

    with pytest.raises(ApplicationError, match="Only a deck in the trash"):
        deck_delete_forever(deck=deck)

    assert Deck.objects.filter(pk=deck.pk).exists()


# ---------------------------------------------------------------- the purge


def test_the_purge_deletes_decks_trashed_more_than_30_days_ago_once(deck_catalog, user):
    old, recent, live = a_deck(user, name="Old"), a_deck(user, name="Recent"), a_deck(user, name="Live")
    with time_machine.travel(NOW - datetime.timedelta(days=31), tick=False):
        deck_trash(deck=old)
    with time_machine.travel(NOW - datetime.timedelta(days=29), tick=False):
        deck_trash(deck=recent)

    assert decks_trash_purge(now=NOW) == 1
    assert decks_trash_purge(now=NOW) == 0  # idempotent: a rerun finds nothing

    assert set(Deck.everything.values_list("name", flat=True)) == {"Recent", "Live"}
    assert not DeckVersion.objects.filter(deck_id=old.pk).exists()
    assert live.pk in Deck.objects.values_list("pk", flat=True)


def test_beat_runs_the_purge_daily_through_a_thin_task(deck_catalog, user):
    from django.conf import settings

    from decks.library.tasks import decks_trash_purge as task
    from gatesite.celery import app

    app.loader.import_default_modules()
    entry = settings.CELERY_BEAT_SCHEDULE["decks-trash-purge"]
    assert entry["task"] == task.name == "decks.trash_purge"
    assert entry["task"] in app.tasks
    deck = a_deck(user)
    with time_machine.travel(NOW - datetime.timedelta(days=40), tick=False):
        deck_trash(deck=deck)

    assert task.delay().get() == 1
    assert not Deck.everything.filter(pk=deck.pk).exists()


def test_an_editor_left_open_on_a_trashed_deck_changes_nothing(client, deck_catalog, user):
    from django.http import Http404

    from decks.saved_drafts import deck_and_lines_for_owner, deck_draft_for_owner

    deck = a_deck(user)
    deck_trash(deck=deck)
    client.force_login(user)

    assert client.get(reverse("decks:edit", args=[deck.public_id])).status_code == 404
    for read in (deck_and_lines_for_owner, deck_draft_for_owner):
        with pytest.raises(Http404):
            read(public_id=deck.public_id, user=user)
