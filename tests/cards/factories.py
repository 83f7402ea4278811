"""factory_boy factories for the card catalog; `.build()` when no row is needed."""

from __future__ import annotations

import datetime
import hashlib
import json

import factory
from django.utils.text import slugify

from cards.models import Attribute, Card, CardSet, CardType, Erratum, Faction, ImportJob, Printing


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


class ImportJobFactory(factory.django.DjangoModelFactory):
    """A queued job holding `file_content` (bytes); nothing is enqueued: call the service or task yourself."""

    class Meta:
        model = ImportJob

    file_name = "set.json"
    file_content = b'{"set": {"code": "T01", "name": "Test Set"}, "cards": []}'
    file_size = factory.LazyAttribute(lambda o: len(o.file_content))
    file_sha256 = factory.LazyAttribute(lambda o: hashlib.sha256(o.file_content).hexdigest())
    dry_run = False


class ErratumFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Erratum

    card = factory.SubFactory(CardFactory)
    field = "text"
    old_value = "Old text."
    new_value = "New text."
    effective_date = datetime.date(2022, 6, 1)


# Set files in the import format (data/README.md), as bytes.

TEST_SET = {"code": "T01", "name": "Test Set", "release_date": "2021-03-20"}


def card_row(n: int = 1, **overrides: object) -> dict[str, object]:
    """One card of a JSON set file: a plain unit, `overrides` on top."""
    values: dict[str, object] = {
        "number": f"T01-{n:03d}",
        "name": f"Card {n}",
        "type": "unit",
        "faction": "Red",
        "attributes": ["Human"],
        "level": 2,
        "atk": 2,
        "hp": 3,
        "stk": 1,
        "cnt": False,
        "legend": False,
        "rarity": "C",
        "text": "Text.",
    }
    values.update(overrides)
    return values


def set_file(*cards: dict[str, object], card_set: dict[str, object] | None = None) -> bytes:
    return json.dumps({"set": card_set or TEST_SET, "cards": list(cards)}, ensure_ascii=False).encode()


# Cards of the games besides Gate Ruler (data/games/<slug>.json), as set-file rows and as rows.

RG_SET = {"code": "RGT", "name": "Ruler's Gambit Test Set", "release_date": "2025-06-01"}
GR_SET = {"code": "GRT", "name": "GateRunners Test Set", "release_date": "2025-06-01"}


def rg_card_row(n: int = 1, **overrides: object) -> dict[str, object]:
    """One Ruler's Gambit card of a JSON set file: a red unit, `overrides` on top (None drops a key)."""
    values: dict[str, object] = {
        "number": f"RGT-{n:03d}",
        "name": f"Gambit Card {n}",
        "type": "unit",
        "colours": ["red"],
        "cost": 2,
        "race": "Elf",
        "attack": 3,
        "defence": 2,
        "critical": 1,
        "rarity": "C",
        "text": "Text.",
    }
    values.update(overrides)
    return {k: v for k, v in values.items() if v is not None or k == "cost"}


def gr_card_row(n: int = 1, **overrides: object) -> dict[str, object]:
    """One GateRunners card of a JSON set file: a level-2 unit, `overrides` on top (None drops a key)."""
    values: dict[str, object] = {
        "number": f"GRT-{n:03d}",
        "name": f"Runner Card {n}",
        "type": "unit",
        "level": 2,
        "power": 3,
        "health": 4,
        "instant": False,
        "rarity": "C",
        "text": "Text.",
    }
    values.update(overrides)
    return {k: v for k, v in values.items() if v is not None}


def game_set_file(game: str | None, *cards: dict[str, object], card_set: dict[str, object] | None = None) -> bytes:
    """A JSON set file of `game` (None: no "game" key, the default game)."""
    default_set = {"rulers-gambit": RG_SET, "gaterunners": GR_SET}.get(game or "", TEST_SET)
    body: dict[str, object] = {"set": card_set or default_set, "cards": list(cards)}
    if game is not None:
        body = {"game": game, **body}
    return json.dumps(body, ensure_ascii=False).encode()


class GameCardFactory(CardFactory):
    """A Ruler's Gambit unit by default (no Gate Ruler faction or level); pass game, type and fields."""

    game = "rulers-gambit"
    type = "unit"
    faction = None
    level = None
    atk = None
    hp = None
    stk = None
    fields = factory.LazyFunction(
        lambda: {"colours": ["red"], "cost": 2, "race": "Elf", "attack": 3, "defence": 2, "critical": 1}
    )
