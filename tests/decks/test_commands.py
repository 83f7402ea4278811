"""manage.py recompute_statistics and revalidate_decks."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cards.models import Card, RulerRevision
from decks.models import Deck, DeckDraft, Visibility
from decks.services import deck_create_from_draft
from decks.stats.models import StatisticsRun
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_recompute_statistics_reports_the_run(deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    deck.visibility = Visibility.PUBLIC
    deck.save()
    out = StringIO()
    call_command("recompute_statistics", stdout=out)
    run = StatisticsRun.objects.get()
    assert (run.trigger, run.decks) == ("command", 1)
    assert f"Statistics run #{run.pk}: 1 public decks" in out.getvalue()


def test_revalidate_decks_judges_the_named_rulers_decks(deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    revision = RulerRevision.objects.filter(ruler__slug="apprentice").order_by("-effective_from").first()
    revision.data["deck_construction"]["level_cap"] = 10
    revision.save()
    out = StringIO()
    call_command("revalidate_decks", "--ruler", "apprentice", "--since", "2026-01-05", stdout=out)
    deck.refresh_from_db()
    assert (deck.legal, str(deck.illegal_since)) == (False, "2026-01-05")
    assert "1 decks judged: 1 verdicts written, 1 became illegal, 0 legal again." in out.getvalue()


def test_revalidate_decks_judges_another_games_decks_playing_a_named_card(game_catalog, user):
    deck = game_deck(user, gambit_draft())
    # A stale verdict, as if the Fire Kingdom had been red when the deck was saved and blue since.
    card = Card.objects.get(name="Fire Kingdom")
    card.fields = {**card.fields, "colours": ["blue"]}
    card.save()
    out = StringIO()

    call_command("revalidate_decks", "--card", "Fire Kingdom", "--since", "2026-01-05", stdout=out)

    deck = Deck.objects.get(pk=deck.pk)
    assert (deck.legal, str(deck.illegal_since)) == (False, "2026-01-05")
    assert deck.verdict_reason.startswith("Colour not allowed by the Kingdom Fire Kingdom (blue): Ember Imp 1 (red)")
    assert "1 decks judged: 1 verdicts written, 1 became illegal, 0 legal again." in out.getvalue()


def test_revalidate_decks_all_judges_every_game_and_even_an_empty_deck(deck_catalog, game_catalog, user):
    gate_ruler = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    gambit = game_deck(user, gambit_draft())
    empty = game_deck(user, gambit_draft(name="Empty", others={"kingdom": {}}, main={}))
    Deck.objects.update(legal=None, judged_on=None)  # never judged, as decks from before verdicts were kept
    out = StringIO()

    call_command("revalidate_decks", "--all", stdout=out)

    legal = dict(Deck.objects.values_list("pk", "legal"))
    assert legal == {gate_ruler.pk: True, gambit.pk: True, empty.pk: False}
    assert "3 decks judged: 3 verdicts written, 1 became illegal, 2 legal again." in out.getvalue()


def test_revalidate_decks_names_what_it_does_not_know(rules):
    with pytest.raises(CommandError, match="No ruler with slug 'nobody'"):
        call_command("revalidate_decks", "--ruler", "nobody")
    with pytest.raises(CommandError, match="Name what changed"):
        call_command("revalidate_decks")
