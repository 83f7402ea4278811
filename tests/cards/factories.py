"""factory_boy factories for the card catalog; `.build()` when no row is needed."""

from __future__ import annotations

import datetime

import factory
from django.utils.text import slugify

from cards.models import Attribute, Card, CardSet, CardType, Faction, Printing


class FactionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Faction
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Faction {n}")
    slug = factory.LazyAttribute(lambda o: slugify(o.name))


class AttributeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Attribute
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Attribute {n}")


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"TS{n:02d}")
    name = factory.Sequence(lambda n: f"Test Set {n}")
    release_date = datetime.date(2021, 1, 1)


class CardFactory(factory.django.DjangoModelFactory):
    """A unit by default; `CardFactory(energy=True)` gives an energy card (no faction, no level)."""

    class Meta:
        model = Card
        django_get_or_create = ("name",)
        # attributes are M2M rows, not a field to re-save
        skip_postgeneration_save = True

    class Params:
        energy = factory.Trait(type=CardType.ENERGY, faction=None, level=None, atk=None, hp=None, stk=None)

    name = factory.Sequence(lambda n: f"Card {n}")
    type = CardType.UNIT
    faction = factory.SubFactory(FactionFactory)
    level = 2
    atk = 2
    hp = 2
    stk = 1
    cnt = False
    legend = False
    text = ""

    @factory.post_generation
    def attributes(self, create: bool, extracted: list[Attribute] | None, **kwargs):
        """`CardFactory(attributes=[attr, ...])` links the given attributes."""
        if create and extracted:
            self.attributes.set(extracted)


class PrintingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Printing
        django_get_or_create = ("collector_number",)

    collector_number = factory.Sequence(lambda n: f"TS-{n:04d}")
    card = factory.SubFactory(CardFactory)
    card_set = factory.SubFactory(CardSetFactory)
    rarity = "C"
