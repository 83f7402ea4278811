"""The changes that queue a revalidation: admin edits of revisions and cards, load_rules; and the real worker."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path

import pytest
from django.utils import timezone

from cards.models import Card, RulerRevision
from cards.rules_loading import RULES_FILE, rules_load
from decks.models import Deck, DeckDraft, Visibility
from decks.revalidation.tasks import decks_revalidate
from decks.services import deck_create_from_draft
from decks.stats.models import StatisticsRun
from decks.stats.tasks import statistics_recompute
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main, runners_draft


def game_card_form(card: Card, **changes: object) -> dict[str, object]:
    """The admin's change form of a card of another game than Gate Ruler (no printing or erratum rows), with `changes`."""
    data: dict[str, object] = {
        "name": card.name,
        "name_ja": "",
        "type": card.type,
        "fields": json.dumps(card.fields),
        "text": card.text,
    }
    for prefix in ("printings", "errata"):
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return data | changes


def save(user, main=None, *, ruler="apprentice"):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler=ruler, main=main or legal_apprentice_main()))


def apprentice_revision() -> RulerRevision:
    return RulerRevision.objects.filter(ruler__slug="apprentice").order_by("-effective_from").first()


@pytest.mark.django_db
def test_an_admin_edit_of_a_ruler_revision_rejudges_that_rulers_decks(
    admin_client, deck_catalog, user, django_capture_on_commit_callbacks
):
    apprentice, other = save(user), save(user, ruler="highlander")
    other_before = Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=other.pk)
    revision = apprentice_revision()
    data = revision.data
    data["deck_construction"]["level_cap"] = 40
    form = {
        "ruler": revision.ruler_id,
        "effective_from": revision.effective_from.isoformat(),
        "document": revision.document,
        "source": revision.source,
        "data": json.dumps(data),
    }
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(f"/admin/cards/rulerrevision/{revision.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert callbacks

    apprentice.refresh_from_db()
    assert (apprentice.legal, apprentice.illegal_since) == (False, timezone.localdate())
    assert "40" in apprentice.verdict_reason
    assert Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=other.pk) == other_before


@pytest.mark.django_db
def test_an_admin_edit_of_a_cards_level_rejudges_the_decks_playing_it(
    admin_client, deck_catalog, user, django_capture_on_commit_callbacks
):
    plays, does_not = save(user), save(user, {"TS-100": 4})
    does_not_before = Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=does_not.pk)
    card = Card.objects.get(name="Ember Squire 1")
    form = {
        "name": card.name,
        "name_ja": "",
        "type": card.type,
        "faction": card.faction_id,
        "attributes": list(card.attributes.values_list("pk", flat=True)),
        "level": 3,
        "atk": card.atk,
        "hp": card.hp,
        "stk": card.stk,
        "text": card.text,
        "printings-TOTAL_FORMS": 0,
        "printings-INITIAL_FORMS": 0,
        "errata-TOTAL_FORMS": 0,
        "errata-INITIAL_FORMS": 0,
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/admin/cards/card/{card.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:3000]

    plays.refresh_from_db()
    assert plays.legal is False
    assert "level" in plays.verdict_reason.lower()
    assert Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=does_not.pk) == does_not_before


@pytest.mark.django_db
def test_load_rules_rejudges_the_decks_of_the_rulers_it_changed(
    deck_catalog, user, tmp_path: Path, django_capture_on_commit_callbacks
):
    apprentice, other = save(user), save(user, ruler="highlander")
    Deck.objects.filter(pk=other.pk).update(judged_on=None)
    payload = json.loads(RULES_FILE.read_text(encoding="utf-8"))
    for doc in payload["documents"]:
        for ruler in doc.get("rulers", []):
            if ruler["name"] == "Apprentice" and doc["effective_from"] == "2023-12-04":
                ruler["deck_construction"]["level_cap"] = 45
    changed = tmp_path / "rules.json"
    changed.write_text(json.dumps(payload), encoding="utf-8")

    with django_capture_on_commit_callbacks(execute=True):
        result = rules_load(path=changed)
    assert len(result.updated) == 1

    apprentice.refresh_from_db()
    assert (apprentice.legal, apprentice.illegal_since) == (False, timezone.localdate())
    assert Deck.objects.get(pk=other.pk).judged_on is None  # Highlander's rules did not change: not judged


def test_revalidation_and_statistics_run_through_the_real_worker(celery_worker_on_redis, deck_catalog, user):
    """With REDIS_URL: a Celery worker thread on Redis runs the jobs (eager in-process without it)."""
    deck = save(user)
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    revision = apprentice_revision()
    revision.data["deck_construction"]["level_cap"] = 30
    revision.save()
    since = datetime.date(2026, 1, 2)

    result = decks_revalidate.delay(ruler_ids=[revision.ruler_id], since=since.isoformat()).get(timeout=60)
    again = decks_revalidate.delay(ruler_ids=[revision.ruler_id], since=since.isoformat()).get(timeout=60)

    assert (result["checked"], result["became_illegal"]) == (1, 1)
    assert (again["checked"], again["changed"]) == (1, 0)
    deck.refresh_from_db()
    assert (deck.legal, deck.illegal_since) == (False, since)

    run_id = statistics_recompute.delay("command").get(timeout=60)
    run = StatisticsRun.objects.get(pk=run_id)
    assert (run.status, run.decks) == ("succeeded", 1)


@pytest.mark.django_db
def test_admins_can_rejudge_a_rulers_decks_from_the_ruler_list(
    admin_client, deck_catalog, user, django_capture_on_commit_callbacks
):
    deck, other = save(user), save(user, ruler="highlander")
    Deck.objects.update(legal=None, judged_on=None)
    apprentice = deck.ruler
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/cards/ruler/", {"action": "rejudge_decks", "_selected_action": [apprentice.pk]}
        )
    assert response.status_code == 302
    deck.refresh_from_db()
    assert (deck.legal, deck.judged_on) == (True, timezone.localdate())
    assert Deck.objects.get(pk=other.pk).judged_on is None


@pytest.mark.django_db
def test_an_admin_edit_of_a_game_cards_fields_rejudges_the_decks_playing_it(
    admin_client, game_catalog, user, django_capture_on_commit_callbacks
):
    plays, other = game_deck(user, gambit_draft()), game_deck(user, runners_draft())
    other_before = Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=other.pk)
    imp = Card.objects.get(name="Ember Imp 3")

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(
            f"/admin/cards/card/{imp.pk}/change/",
            game_card_form(imp, fields=json.dumps({**imp.fields, "colours": ["blue"]})),
        )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert callbacks

    plays.refresh_from_db()
    assert (plays.legal, plays.illegal_since) == (False, timezone.localdate())
    assert plays.verdict_reason == "Colour not allowed by the Kingdom Fire Kingdom (red): Ember Imp 3 (blue)."
    assert Deck.objects.values_list("legal", "judged_on", "verdict_reason").get(pk=other.pk) == other_before


@pytest.mark.django_db
def test_an_admin_edit_of_a_game_cards_type_rejudges_the_decks_playing_it(
    admin_client, game_catalog, user, django_capture_on_commit_callbacks
):
    deck = game_deck(user, runners_draft())
    runner = Card.objects.get(name="Runner 4")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/cards/card/{runner.pk}/change/", game_card_form(runner, type="gate", fields="{}")
        )
    assert response.status_code == 302, response.content.decode()[:3000]

    deck.refresh_from_db()
    assert (deck.legal, deck.verdict_reason) == (False, "Only Unit or Action cards go in the main deck: Runner 4.")


@pytest.mark.django_db(transaction=True)  # load_rules commits, as the release step does: its revalidation is sent then
def test_load_rules_succeeds_with_the_broker_down_and_its_revalidation_waits_for_it(
    deck_catalog, user, tmp_path: Path, broker_at
):
    from django.core.management import call_command

    from bench.common import free_port
    from gatesite.outbox.models import OutboxTask
    from gatesite.outbox.services import outbox_send

    apprentice = save(user)
    payload = json.loads(RULES_FILE.read_text(encoding="utf-8"))
    for doc in payload["documents"]:
        for ruler in doc.get("rulers", []):
            if ruler["name"] == "Apprentice" and doc["effective_from"] == "2023-12-04":
                ruler["deck_construction"]["level_cap"] = 45
    changed = tmp_path / "rules.json"
    changed.write_text(json.dumps(payload), encoding="utf-8")
    broker_at(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens: the broker is down

    call_command("load_rules", "--file", str(changed), stdout=io.StringIO())

    kept = OutboxTask.objects.get()
    assert kept.task == "decks.revalidate"
    assert kept.kwargs["ruler_ids"] == [apprentice.ruler_id]
    assert Deck.objects.get(pk=apprentice.pk).legal  # not judged yet: the job waits for the broker
    from gatesite.celery import app

    app.conf.task_always_eager = True  # the broker is back (in-process here: sent is run)
    assert outbox_send()["sent"] == 1
    assert not Deck.objects.get(pk=apprentice.pk).legal
