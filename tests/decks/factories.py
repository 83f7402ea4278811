"""factory_boy factories for decks; they need the rules loaded (the `rules` fixture) for rulers."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from cards.models import Ruler
from decks.models import Deck, DeckCard, Section
from tests.cards.factories import PrintingFactory


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery")


class DeckFactory(factory.django.DjangoModelFactory):
    """An Apprentice deck by default; `DeckFactory(ruler=Ruler.objects.get(slug=...))` for another."""

    class Meta:
        model = Deck

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Deck {n}")
    ruler = factory.LazyFunction(lambda: Ruler.objects.get(slug="apprentice"))


class DeckCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = DeckCard

    deck = factory.SubFactory(DeckFactory)
    printing = factory.SubFactory(PrintingFactory)
    section = Section.MAIN
    count = 1


def legal_apprentice_main() -> dict[str, int]:
    """50 cards, 50 levels, one faction: 12 Ember Squires x 4 + 2 of the 13th."""
    main = {f"TS-{i:03d}": 4 for i in range(1, 13)}
    main["TS-013"] = 2
    return main


def every_field_draft():
    """A Gate Ruler draft with every field set (geas, attribute, rules date, description) and lines in
    every section, over the `deck_catalog` fixture: for reads that must give back all of a saved deck."""
    import datetime

    from decks.models import DeckDraft

    return DeckDraft(
        ruler="apprentice",
        geas="oath-of-the-lone-banner",
        attribute="Dragon",
        rules_date=datetime.date(2024, 5, 1),
        name="Squires",
        description="Four of each.",
        main=legal_apprentice_main(),
        resources={"TS-300": 2},
        considering={"TS-200": 1, "TS-150": 3},
    )


# Decks of the games besides Gate Ruler, over the `game_catalog` fixture (tests/decks/conftest.py).


def gambit_draft(**overrides):
    """A legal Ruler's Gambit draft: the Fire Kingdom and 39 red Ember Imps (19 × 2 + 1)."""
    from decks.models import DeckDraft

    main = {f"RGT-{10 + i:03d}": 2 for i in range(1, 20)} | {"RGT-030": 1}
    values = {"name": "Embers", "game": "rulers-gambit", "main": main, "others": {"kingdom": {"RGT-001": 1}}}
    return DeckDraft(**(values | overrides))


def runners_draft(**overrides):
    """A legal GateRunners draft: Wayfinder, the North, South and East Gates, 40 Runners (20 × 2)."""
    from decks.models import DeckDraft

    main = {f"GRT-{100 + i:03d}": 2 for i in range(1, 21)}
    others = {"hero": {"GRT-001": 1}, "gates": {"GRT-011": 1, "GRT-012": 1, "GRT-013": 1}}
    values = {"name": "Runners", "game": "gaterunners", "main": main, "others": others}
    return DeckDraft(**(values | overrides))


def game_deck(owner, draft, visibility="public"):
    """A saved deck of `draft`, through the service every save goes through."""
    from decks.services import deck_save

    return deck_save(owner=owner, draft=draft, visibility=visibility)
