"""Revalidation re-judges the saved decks of every game: a Ruler's Gambit or GateRunners card whose rules
fields an import changes re-judges the decks playing it by their game's rules, as a save would judge them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from cards.importers.parsing import parse_card_file
from cards.models import Card
from cards.services import card_catalog_import
from decks import drafts
from decks.drafts import deck_draft_judge
from decks.models import Deck, DeckDraft
from decks.revalidation import services
from decks.revalidation.services import decks_affected, decks_revalidate
from decks.revalidation.tasks import decks_revalidate as decks_revalidate_task
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft
from tests.cards.factories import game_set_file, gr_card_row, rg_card_row
from tests.decks.factories import game_deck, legal_apprentice_main
from tests.decks.revalidation.verdicts import CHANGED_ON, TODAY, verdicts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen_clock")]

# ---------------------------------------------------------------- the cards, through the real import path


def kingdom(colours=("red",)):
    return rg_card_row(1, name="Fire Kingdom", type="kingdom-ruler", cost=None, colours=list(colours), lp=20)


def imp(n, colours=("red",)):
    return rg_card_row(10 + n, name=f"Imp {n}", colours=list(colours))


def hero():
    return gr_card_row(1, name="Wayfinder", type="hero", level=None, instant=None)


def gate():
    return gr_card_row(11, name="North Gate", type="gate", level=None, power=None, health=None, instant=None)


def runner(card_type="unit"):
    if card_type == "gate":
        return gr_card_row(101, name="Runner", type="gate", level=None, power=None, health=None, instant=None)
    return gr_card_row(101, name="Runner")


@pytest.fixture
def run_import(django_capture_on_commit_callbacks):
    """Import set files as an admin's import does, and run what it queues after its commit (the revalidation)."""

    def run(game, *rows):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            card_catalog_import(
                files=[parse_card_file(f"{game}.json", game_set_file(game, *rows))], errata_effective_date=CHANGED_ON
            )
        return callbacks

    return run


@pytest.fixture
def gambit(run_import, user):
    """A legal Ruler's Gambit deck: the red Fire Kingdom and 39 red Imps (Imp 1..19 × 2, Imp 20 × 1)."""
    run_import("rulers-gambit", kingdom(), *(imp(n) for n in range(1, 21)))
    main = {f"RGT-{10 + n:03d}": 2 for n in range(1, 20)} | {"RGT-030": 1}
    draft = DeckDraft(name="Imps", game="rulers-gambit", main=main, others={"kingdom": {"RGT-001": 1}})
    return game_deck(user, draft)


@pytest.fixture
def runners(run_import, user):
    """A legal GateRunners deck: Wayfinder, the North Gate three times, 40 copies of Runner."""
    run_import("gaterunners", hero(), gate(), runner())
    others = {"hero": {"GRT-001": 1}, "gates": {"GRT-011": 3}}
    return game_deck(user, DeckDraft(name="Run", game="gaterunners", main={"GRT-101": 40}, others=others))


def test_the_fixture_decks_are_saved_legal(gambit, runners):
    assert (gambit.game, gambit.legal, gambit.verdict_reason) == ("rulers-gambit", True, "")
    assert (runners.game, runners.legal, runners.verdict_reason) == ("gaterunners", True, "")


# ---------------------------------------------------------------- Ruler's Gambit


def test_a_kingdom_whose_colours_change_makes_its_deck_illegal_and_legal_again_when_changed_back(gambit, run_import):
    callbacks = run_import("rulers-gambit", kingdom(colours=("blue",)))

    assert callbacks, "the import queues the revalidation after its commit"
    deck = Deck.objects.get(pk=gambit.pk)
    assert (deck.legal, deck.judged_on, deck.illegal_since) == (False, TODAY, CHANGED_ON)
    assert deck.verdict_reason.startswith("Colour not allowed by the Kingdom Fire Kingdom (blue): Imp 1 (red)")

    run_import("rulers-gambit", kingdom(colours=("red",)))

    deck.refresh_from_db()
    assert (deck.legal, deck.judged_on, deck.illegal_since, deck.verdict_reason) == (True, TODAY, None, "")


def test_a_main_deck_card_whose_colour_changes_makes_the_deck_illegal(gambit, run_import):
    run_import("rulers-gambit", imp(7, colours=("red", "green")))

    deck = Deck.objects.get(pk=gambit.pk)
    assert (deck.legal, deck.illegal_since) == (False, CHANGED_ON)
    assert deck.verdict_reason == "Colour not allowed by the Kingdom Fire Kingdom (red): Imp 7 (red/green)."

    run_import("rulers-gambit", imp(7))

    deck.refresh_from_db()
    assert (deck.legal, deck.illegal_since, deck.verdict_reason) == (True, None, "")


def test_a_csv_import_that_changes_a_cards_colour_rejudges_the_deck_too(gambit, django_capture_on_commit_callbacks):
    columns = (
        "game,set_code,set_name,release_date,number,name,type,colours,cost,race,attack,defence,critical,rarity,text"
    )
    row = "rulers-gambit,RGT,Ruler's Gambit Test Set,2025-06-01,RGT-015,Imp 5,unit,blue,2,Elf,3,2,1,C,Text."
    with django_capture_on_commit_callbacks(execute=True):
        card_catalog_import(files=[parse_card_file("rg.csv", f"{columns}\n{row}\n".encode())])

    deck = Deck.objects.get(pk=gambit.pk)
    assert (deck.legal, deck.illegal_since) == (False, TODAY)  # no effective date given: today
    assert deck.verdict_reason == "Colour not allowed by the Kingdom Fire Kingdom (red): Imp 5 (blue)."


def test_the_verdict_written_is_the_one_a_save_of_the_deck_would_write(gambit, run_import, user):
    run_import("rulers-gambit", kingdom(colours=("blue",)))

    deck = Deck.objects.get(pk=gambit.pk)
    saved = deck_create_from_draft(owner=user, draft=deck_draft_of(deck=deck))
    assert (deck.legal, deck.judged_on, deck.verdict_reason) == (saved.legal, saved.judged_on, saved.verdict_reason)
    judged = deck_draft_judge(draft=deck_draft_of(deck=deck))
    assert [v.rule for v in judged.report.violations] == ["colour"]


# ---------------------------------------------------------------- GateRunners


def test_a_unit_that_becomes_a_gate_makes_the_gaterunners_decks_playing_it_illegal(runners, run_import):
    run_import("gaterunners", runner(card_type="gate"))

    deck = Deck.objects.get(pk=runners.pk)
    assert (deck.legal, deck.judged_on, deck.illegal_since) == (False, TODAY, CHANGED_ON)
    assert deck.verdict_reason == "Only Unit or Action cards go in the main deck: Runner."


# ---------------------------------------------------------------- scope, idempotence, the job


def test_a_gate_ruler_deck_is_not_judged_for_another_games_card_change(deck_catalog, gambit, runners, run_import, user):
    gate_ruler = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    # Stored verdicts no job should touch: were the Gate Ruler deck judged, judged_on would be set again.
    Deck.objects.filter(pk=gate_ruler.pk).update(legal=None, judged_on=None)
    before = verdicts()

    run_import("gaterunners", runner(card_type="gate"))

    after = verdicts()
    assert after[gate_ruler.pk] == before[gate_ruler.pk]
    assert after[gambit.pk] == before[gambit.pk], "a Ruler's Gambit deck does not play GateRunners' cards"
    assert after[runners.pk][0] is False


def test_the_considering_board_is_not_judged(gambit, user):
    imp_20 = Card.objects.get(name="Imp 20")
    deck = game_deck(user, DeckDraft(game="rulers-gambit", considering={"RGT-030": 1}))

    assert set(Deck.objects.filter(decks_affected(card_ids=[imp_20.pk])).values_list("pk", flat=True)) == {gambit.pk}
    assert decks_revalidate(card_ids=[imp_20.pk]).checked == 1
    assert Deck.objects.get(pk=deck.pk).legal is False  # as saved: no Kingdom, no main deck


def test_a_second_run_writes_nothing(gambit, runners, run_import):
    run_import("rulers-gambit", kingdom(colours=("blue",)))
    run_import("gaterunners", runner(card_type="gate"))
    Deck.objects.update(legal=True, illegal_since=None, verdict_reason="")  # stale verdicts to correct
    card_ids = list(Card.objects.filter(name__in=["Fire Kingdom", "Runner"]).values_list("pk", flat=True))

    first = decks_revalidate(card_ids=card_ids, since=CHANGED_ON, today=TODAY)
    after_first = verdicts()
    with CaptureQueriesContext(connection) as queries:
        second = decks_revalidate(card_ids=card_ids, since=CHANGED_ON, today=TODAY)

    assert (first.checked, first.changed, first.became_illegal) == (2, 2, 2)
    assert (second.checked, second.changed, second.became_illegal, second.became_legal) == (2, 0, 0, 0)
    assert verdicts() == after_first
    assert not [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("UPDATE")]


def test_the_job_judges_a_chunk_of_all_three_games_each_by_its_rules(
    deck_catalog, gambit, runners, run_import, user, monkeypatch
):
    run_import("rulers-gambit", kingdom(colours=("blue",)))
    run_import("gaterunners", runner(card_type="gate"))
    squire_deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    second_gambit = game_deck(user, deck_draft_of(deck=gambit))
    Deck.objects.update(legal=True, judged_on=None, illegal_since=None, verdict_reason="")
    squire = Card.objects.get(name="Ember Squire 1")
    squire.level = 3  # 58 levels: over Apprentice's 50
    squire.save()
    card_ids = Card.objects.filter(name__in=["Fire Kingdom", "Runner", "Ember Squire 1"]).values_list("pk", flat=True)
    # Each game's cards looked up once per job, though its decks fall into different chunks.
    loaded: list[str] = []
    monkeypatch.setattr(
        services,
        "card_facts_by_number",
        lambda game, numbers: loaded.append(game.slug) or drafts.card_facts_by_number(game, numbers),
    )
    monkeypatch.setattr(services, "CHUNK_SIZE", 2)

    result = decks_revalidate_task(card_ids=sorted(card_ids), since=CHANGED_ON.isoformat())

    assert (result["checked"], result["changed"], result["became_illegal"]) == (4, 4, 4)
    decks = {d.pk: d for d in Deck.objects.all()}
    assert "level" in decks[squire_deck.pk].verdict_reason.lower()
    assert decks[gambit.pk].verdict_reason.startswith("Colour not allowed by the Kingdom")
    assert decks[second_gambit.pk].verdict_reason == decks[gambit.pk].verdict_reason
    assert decks[runners.pk].verdict_reason == "Only Unit or Action cards go in the main deck: Runner."
    assert {d.judged_on for d in decks.values()} == {TODAY}
    assert sorted(loaded) == ["gate-ruler", "gaterunners", "rulers-gambit"]


# ---------------------------------------------------------------- what the owner and browse show


def test_my_decks_and_browse_show_the_new_verdict(gambit, run_import, client, user):
    run_import("rulers-gambit", kingdom(colours=("blue",)))
    reason = Deck.objects.get(pk=gambit.pk).verdict_reason

    client.force_login(user)
    assert f"Not legal since 2026-11-20: {escape(reason)}" in client.get("/decks/").content.decode()
    illegal = client.get("/decks/browse/", {"game": "rulers-gambit", "legal": "false"}).content.decode()
    legal = client.get("/decks/browse/", {"game": "rulers-gambit", "legal": "true"}).content.decode()
    assert gambit.name in illegal
    assert gambit.name not in legal
