"""Revalidation judges exactly the decks a change affects, records their verdicts, and is idempotent."""

from __future__ import annotations

import datetime

import pytest
from django.utils.html import escape

from cards.importers.parsing import parse_card_file
from cards.models import Card, Geas, GeasRevision, RulerRevision
from cards.rules_selectors import rules_choice_get
from cards.services import card_catalog_import
from decks.models import Deck, DeckDraft
from decks.revalidation.services import decks_revalidate, decks_revalidate_revisions_taking_effect
from decks.services import deck_create_from_draft
from gatesite.errors import ApplicationError
from tests.cards.factories import set_file
from tests.decks.factories import legal_apprentice_main
from tests.decks.revalidation.verdicts import CHANGED_ON, TODAY, verdicts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_clock")]


def save(user, main, *, ruler="apprentice", geas=None, considering=None, rules_date=None):
    draft = DeckDraft(ruler=ruler, geas=geas, main=main, considering=considering or {}, rules_date=rules_date)
    return deck_create_from_draft(owner=user, draft=draft)


def revision_set(model, owner_filter, key, value):
    revision = model.objects.filter(**owner_filter).order_by("-effective_from").first()
    if model is RulerRevision:
        revision.data["deck_construction"][key] = value
    else:
        revision.data["modifications"].append({"text": f"{key} {value}", "set": {f"deck_construction.{key}": value}})
    revision.save()
    return revision


@pytest.fixture
def decks(deck_catalog, user):
    """Four legal decks: two Apprentice, one Apprentice under Oath of the Lone Banner, one Knight-like other ruler."""
    main = legal_apprentice_main()
    without_squire_1 = {**{k: v for k, v in main.items() if k != "TS-001"}, "TS-013": 4, "TS-200": 1, "TS-150": 1}
    return {
        "a1": save(user, main),
        "a2": save(user, without_squire_1, considering={"TS-001": 2}),
        "geas": save(user, main, geas="oath-of-the-lone-banner"),
        "other": save(user, main, ruler="highlander"),
    }


def test_the_fixture_decks_are_saved_with_their_verdicts(decks):
    assert decks["a1"].legal
    assert decks["geas"].legal
    assert decks["a2"].legal, "the variant without Ember Squire 1 is a legal Apprentice deck too"


def test_a_ruler_change_flags_exactly_that_rulers_decks(decks):
    before = verdicts()
    revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)

    result = decks_revalidate(ruler_ids=[decks["a1"].ruler_id], since=CHANGED_ON, today=TODAY)

    after = verdicts()
    changed = {pk for pk in after if after[pk] != before[pk]}
    # Both plain Apprentice decks play 50 levels; the geas deck's cap is the geas's 55.
    assert changed == {decks["a1"].pk, decks["a2"].pk}
    for key in ("a1", "a2"):
        legal, judged_on, since, reason, updated_at = after[decks[key].pk]
        assert (legal, judged_on, since) == (False, TODAY, CHANGED_ON)
        assert "49" in reason
        assert updated_at == before[decks[key].pk][4]  # a verdict is not an edit: updated_at kept
    assert after[decks["geas"].pk][0] is True
    assert after[decks["other"].pk] == before[decks["other"].pk]  # another ruler's deck: untouched
    assert (result.checked, result.changed, result.became_illegal) == (3, 2, 2)


def test_a_geas_change_flags_only_the_decks_with_that_geas(decks):
    # Stored verdicts no job should touch: if a deck outside the scope were judged, these would change.
    Deck.objects.exclude(pk=decks["geas"].pk).update(legal=None, judged_on=None)
    before = verdicts()
    revision_set(GeasRevision, {"geas__slug": "oath-of-the-lone-banner"}, "level_cap", 45)

    result = decks_revalidate(
        geas_ids=[Geas.objects.get(slug="oath-of-the-lone-banner").pk], since=CHANGED_ON, today=TODAY
    )

    after = verdicts()
    assert result.checked == 1
    assert result.became_illegal == 1
    assert after[decks["geas"].pk][:3] == (False, TODAY, CHANGED_ON)
    assert "45" in after[decks["geas"].pk][3]
    assert {pk: v for pk, v in after.items() if pk != decks["geas"].pk} == {
        pk: v for pk, v in before.items() if pk != decks["geas"].pk
    }


def test_an_errata_import_flags_only_the_decks_playing_the_card(decks, django_capture_on_commit_callbacks):
    Deck.objects.update(legal=True, judged_on=None)  # so that any deck judged shows it
    before = verdicts()
    # Ember Squire 1 goes from level 1 to level 2: a1 and the geas deck play 4 of it (level 54 > 50;
    # the geas allows 55). a2 has it only on the considering board; the Highlander deck plays it too.
    row = {
        "number": "T99-001",
        "name": "Ember Squire 1",
        "type": "unit",
        "faction": "Volnar",
        "attributes": ["Dragon"],
        "level": 2,
        "atk": 2,
        "hp": 2,
        "stk": 1,
        "cnt": False,
        "legend": False,
        "rarity": "C",
        "text": "",
    }
    parsed = parse_card_file(
        "errata.json", set_file(row, card_set={"code": "T99", "name": "Errata", "release_date": "2026-11-01"})
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        card_catalog_import(files=[parsed], errata_effective_date=CHANGED_ON)
    assert Card.objects.get(name="Ember Squire 1").level == 2
    assert callbacks, "the import queues the revalidation after its commit"

    after = verdicts()
    judged = {pk for pk in after if after[pk][1] is not None}
    assert judged == {decks["a1"].pk, decks["geas"].pk, decks["other"].pk}
    assert after[decks["a1"].pk][0] is False
    assert after[decks["a1"].pk][2] == CHANGED_ON
    assert "level" in after[decks["a1"].pk][3].lower()
    assert after[decks["geas"].pk][:3] == (True, after[decks["geas"].pk][1], None)
    assert after[decks["a2"].pk] == before[decks["a2"].pk]


def test_it_is_idempotent(decks):
    revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)
    ruler_id = decks["a1"].ruler_id
    first = decks_revalidate(ruler_ids=[ruler_id], since=CHANGED_ON, today=TODAY)
    after_first = verdicts()
    second = decks_revalidate(ruler_ids=[ruler_id], since=CHANGED_ON, today=TODAY)
    assert first.changed > 0
    assert (second.checked, second.changed, second.became_illegal, second.became_legal) == (first.checked, 0, 0, 0)
    assert verdicts() == after_first


def test_a_deck_legal_again_has_its_date_and_reason_cleared(decks):
    revision = revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)
    ruler_id = decks["a1"].ruler_id
    decks_revalidate(ruler_ids=[ruler_id], since=CHANGED_ON, today=TODAY)
    revision.data["deck_construction"]["level_cap"] = 50
    revision.save()

    result = decks_revalidate(ruler_ids=[ruler_id], since=TODAY, today=TODAY)

    deck = Deck.objects.get(pk=decks["a1"].pk)
    assert (deck.legal, deck.illegal_since, deck.verdict_reason) == (True, None, "")
    assert result.became_legal >= 1


def test_an_illegal_deck_keeps_the_date_it_became_illegal(decks):
    revision = revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)
    ruler_id = decks["a1"].ruler_id
    decks_revalidate(ruler_ids=[ruler_id], since=CHANGED_ON, today=TODAY)
    revision.data["deck_construction"]["level_cap"] = 48
    revision.save()

    decks_revalidate(ruler_ids=[ruler_id], since=TODAY, today=TODAY)

    deck = Deck.objects.get(pk=decks["a1"].pk)
    assert (deck.legal, deck.illegal_since) == (False, CHANGED_ON)
    assert "48" in deck.verdict_reason


def test_a_deck_with_a_rules_date_is_judged_by_the_rules_of_that_date(decks, user):
    # The 2020 rulebook's Apprentice: the change to the 2023 revision does not concern this deck.
    old = save(user, legal_apprentice_main(), rules_date=datetime.date(2021, 6, 1))
    revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)
    decks_revalidate(ruler_ids=[old.ruler_id], since=CHANGED_ON, today=TODAY)
    old.refresh_from_db()
    assert old.judged_on == datetime.date(2021, 6, 1)
    assert old.legal is (old.verdict_reason == "")


def test_the_daily_job_rejudges_the_decks_of_revisions_taking_effect_today(decks):
    Deck.objects.update(judged_on=None)
    # 2023-03-25: the geases' appendix (only the geas deck); 2023-12-04: every ruler's revision.
    assert decks_revalidate_revisions_taking_effect(today=datetime.date(2023, 3, 25)).checked == 1
    assert set(Deck.objects.filter(judged_on__isnull=False).values_list("pk", flat=True)) == {decks["geas"].pk}
    assert decks_revalidate_revisions_taking_effect(today=datetime.date(2023, 12, 4)).checked == 4
    assert decks_revalidate_revisions_taking_effect(today=datetime.date(2023, 12, 6)).checked == 4  # caught up
    assert decks_revalidate_revisions_taking_effect(today=datetime.date(2023, 12, 7)).checked == 0
    assert decks_revalidate_revisions_taking_effect(today=TODAY).checked == 0


def test_nothing_to_do_without_a_change(decks):
    before = verdicts()
    assert decks_revalidate(today=TODAY).checked == 0
    assert verdicts() == before


def test_the_owner_reads_since_when_and_why_a_deck_is_not_legal_in_my_decks(decks, client, user):
    revision_set(RulerRevision, {"ruler__slug": "apprentice"}, "level_cap", 49)
    decks_revalidate(ruler_ids=[decks["a1"].ruler_id], since=CHANGED_ON, today=TODAY)
    reason = Deck.objects.get(pk=decks["a1"].pk).verdict_reason
    client.force_login(user)
    html = client.get("/decks/").content.decode()
    assert f"Not legal since 2026-11-20: {escape(reason)}" in html


def test_a_gate_ruler_deck_left_without_a_ruler_is_judged_as_a_save_judges_it(decks):
    # An admin may clear a deck's ruler; its verdict then says what a save of it says (no such ruler).
    Deck.objects.filter(pk=decks["a1"].pk).update(ruler=None)

    decks_revalidate(every_deck=True, since=CHANGED_ON, today=TODAY)

    legal, judged_on, since, reason, _ = verdicts()[decks["a1"].pk]
    assert (legal, judged_on, since) == (False, TODAY, CHANGED_ON)
    with pytest.raises(ApplicationError) as refused:
        rules_choice_get(ruler_slug="", geas_slug=None, on=TODAY)
    assert reason == refused.value.message
