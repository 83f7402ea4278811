"""Writes to the card catalog: the set-file importer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from django.db import models, transaction
from django.utils.text import slugify

from .folding import card_search_text
from .importers.parsing import consistency_errors, parse_card_file
from .importers.records import (
    RULES_FIELDS,
    CardRecord,
    ImportFileError,
    ParsedFile,
    RowError,
    SetRecord,
)
from .models import Attribute, Card, CardSet, Faction, Printing

# Rows per INSERT/UPDATE and values per `IN (...)`: under SQLite's 999-variable limit
# for lookups, and small enough that PostgreSQL statements stay cheap.
BATCH_SIZE = 500
_M = TypeVar("_M", bound=models.Model)


@dataclass(frozen=True, slots=True)
class FieldChange:
    field: str
    old: object
    new: object


@dataclass(frozen=True, slots=True)
class CardChange:
    """What an import changed on an existing card's rules fields (the seam for errata history)."""

    card_id: int
    name: str
    changes: tuple[FieldChange, ...]


@dataclass
class RowCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged


@dataclass
class ImportResult:
    files: int = 0
    sets: RowCounts = field(default_factory=RowCounts)
    cards: RowCounts = field(default_factory=RowCounts)
    printings: RowCounts = field(default_factory=RowCounts)
    factions_created: int = 0
    attributes_created: int = 0
    card_changes: tuple[CardChange, ...] = ()

    def counts(self) -> dict[str, int]:
        """Flat, JSON-serialisable counts (what the Celery task returns)."""
        result = {"files": self.files}
        for kind in ("sets", "cards", "printings"):
            for key, value in asdict(getattr(self, kind)).items():
                result[f"{kind}_{key}"] = value
        result["factions_created"] = self.factions_created
        result["attributes_created"] = self.attributes_created
        return result


def card_files_import(*, paths: list[str]) -> ImportResult:
    """Read and parse every file first; if any is bad, raise ImportFileError with all their errors and write nothing."""
    parsed: list[ParsedFile] = []
    errors: list[RowError] = []
    for path in paths:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            errors.append(RowError(path, "", None, f"cannot read file: {exc.strerror or exc}"))
            continue
        try:
            parsed.append(parse_card_file(path, raw))
        except ImportFileError as exc:
            errors.extend(exc.errors)
    if errors:
        raise ImportFileError(errors)
    return card_catalog_import(files=parsed)


def card_catalog_import(*, files: list[ParsedFile]) -> ImportResult:
    """Upsert parsed set files into the catalog in one transaction.

    1. Check the files against each other (a collector number in two files, printings of a
       name that disagree): any error raises ImportFileError before anything is written.
    2. Merge: one set per code, one card (rules fields) per name, one printing per number.
    3. Load the existing rows in bulk, compare, and write only what differs, so a second run
       of the same files writes nothing. Sets by code, factions and attributes by name,
       cards by name, printings by collector number.
    """
    errors = consistency_errors(files)
    if errors:
        raise ImportFileError(errors)
    sets = {s.code: s for f in files for s in f.sets}
    cards: dict[str, CardRecord] = {}
    printings: dict[str, CardRecord] = {}
    for parsed in files:
        for record in parsed.cards:
            cards.setdefault(record.name, record)
            printings[record.collector_number] = record

    result = ImportResult(files=len(files))
    with transaction.atomic():
        set_ids = _sets_upsert(sets.values(), result)
        faction_ids = _factions_ensure({c.faction for c in cards.values() if c.faction is not None}, result)
        attribute_ids = _attributes_ensure({a for c in cards.values() for a in c.attributes}, result)
        card_ids = _cards_upsert(cards, faction_ids, attribute_ids, result)
        _printings_upsert(printings, card_ids, set_ids, result)
    return result


# --- steps ------------------------------------------------------------------------------


def _sets_upsert(records: Iterable[SetRecord], result: ImportResult) -> dict[str, int]:
    records = list(records)
    existing = _by_key(CardSet, "code", [r.code for r in records])
    new: list[CardSet] = []
    changed: list[CardSet] = []
    for record in records:
        card_set = existing.get(record.code)
        if card_set is None:
            new.append(
                CardSet(
                    code=record.code,
                    name=record.name,
                    release_date=record.release_date,
                )
            )
        elif (card_set.name, card_set.release_date) != (
            record.name,
            record.release_date,
        ):
            card_set.name = record.name
            card_set.release_date = record.release_date
            changed.append(card_set)
    existing.update(_create(CardSet, "code", new))
    if changed:
        CardSet.objects.bulk_update(changed, ["name", "release_date"], batch_size=BATCH_SIZE)
    result.sets = RowCounts(len(new), len(changed), len(records) - len(new) - len(changed))
    return {code: s.pk for code, s in existing.items()}


def _factions_ensure(names: set[str], result: ImportResult) -> dict[str, int]:
    # Factions are a handful of rows: load them all, which also gives every taken slug.
    existing = {f.name: f for f in Faction.objects.all()}
    taken = {f.slug for f in existing.values()}
    new = [Faction(name=name, slug=_unique_slug(name, taken)) for name in sorted(names - existing.keys())]
    existing.update(_create(Faction, "name", new))
    result.factions_created = len(new)
    return {name: f.pk for name, f in existing.items()}


def _attributes_ensure(names: set[str], result: ImportResult) -> dict[str, int]:
    existing = _by_key(Attribute, "name", names)
    new = [Attribute(name=name) for name in sorted(names - existing.keys())]
    existing.update(_create(Attribute, "name", new))
    result.attributes_created = len(new)
    return {name: a.pk for name, a in existing.items()}


def _cards_upsert(
    records: dict[str, CardRecord],
    faction_ids: dict[str, int],
    attribute_ids: dict[str, int],
    result: ImportResult,
) -> dict[str, int]:
    link_model = Card.attributes.through
    existing = _by_key(Card, "name", records)
    faction_names = {pk: name for name, pk in faction_ids.items()}
    missing_faction_ids = {c.faction_id for c in existing.values() if c.faction_id is not None} - faction_names.keys()
    if missing_faction_ids:  # an erratum moving a card out of a faction not in this file
        faction_names.update(Faction.objects.filter(pk__in=missing_faction_ids).values_list("pk", "name"))
    old_attributes: dict[int, set[str]] = {c.pk: set() for c in existing.values()}
    for chunk in _chunks(old_attributes):
        for card_id, attribute_name in link_model.objects.filter(card_id__in=chunk).values_list(
            "card_id", "attribute__name"
        ):
            old_attributes[card_id].add(attribute_name)

    new: list[Card] = []
    changed: list[Card] = []
    changed_fields: set[str] = set()
    relink: list[Card] = []  # existing cards whose attributes changed
    card_changes: list[CardChange] = []
    for name, record in records.items():
        card = existing.get(name)
        if card is None:
            card = Card(name=name)
            _card_fill(card, record, faction_ids)
            new.append(card)
            continue
        old = _card_rules(card, faction_names, old_attributes[card.pk])
        new_rules = record.rules()
        diff = tuple(FieldChange(f, old[f], new_rules[f]) for f in RULES_FIELDS if old[f] != new_rules[f])
        if not diff:
            continue
        card_changes.append(CardChange(card.pk, name, diff))
        _card_fill(card, record, faction_ids)
        fields = {c.field for c in diff}
        if "attributes" in fields:
            relink.append(card)
            fields.discard("attributes")
        if fields:
            changed.append(card)
            changed_fields |= fields

    created = _create(Card, "name", new)
    existing.update(created)
    if changed:
        Card.objects.bulk_update(changed, [*sorted(changed_fields), "search_text"], batch_size=BATCH_SIZE)
    # A changed card's links are replaced whole: fewer queries than diffing pairs.
    for chunk in _chunks([c.pk for c in relink]):
        link_model.objects.filter(card_id__in=chunk).delete()
    links = [
        link_model(card_id=card.pk, attribute_id=attribute_ids[attribute])
        for card in [*created.values(), *relink]
        for attribute in records[card.name].attributes
    ]
    if links:
        link_model.objects.bulk_create(links, batch_size=BATCH_SIZE)

    result.cards = RowCounts(len(new), len(card_changes), len(records) - len(new) - len(card_changes))
    result.card_changes = tuple(card_changes)
    return {name: card.pk for name, card in existing.items()}


def _printings_upsert(
    records: dict[str, CardRecord],
    card_ids: dict[str, int],
    set_ids: dict[str, int],
    result: ImportResult,
) -> None:
    existing = _by_key(Printing, "collector_number", records)
    new: list[Printing] = []
    changed: list[Printing] = []
    for number, record in records.items():
        wanted = (card_ids[record.name], set_ids[record.set_code], record.rarity)
        printing = existing.get(number)
        if printing is None:
            new.append(
                Printing(
                    collector_number=number,
                    card_id=wanted[0],
                    card_set_id=wanted[1],
                    rarity=wanted[2],
                )
            )
        elif (printing.card_id, printing.card_set_id, printing.rarity) != wanted:
            printing.card_id, printing.card_set_id, printing.rarity = wanted
            changed.append(printing)
    if new:
        Printing.objects.bulk_create(new, batch_size=BATCH_SIZE)
    if changed:
        Printing.objects.bulk_update(changed, ["card", "card_set", "rarity"], batch_size=BATCH_SIZE)
    result.printings = RowCounts(len(new), len(changed), len(records) - len(new) - len(changed))


# --- helpers ----------------------------------------------------------------------------


def _card_rules(card: Card, faction_names: dict[int, str], attributes: set[str]) -> dict[str, Any]:
    """The card's rules fields as a CardRecord holds them (faction by name, attributes sorted)."""
    values: dict[str, Any] = {
        f: getattr(card, f)
        for f in RULES_FIELDS
        if f not in ("faction", "attributes")  # card.faction would query the faction
    }
    values["faction"] = faction_names[card.faction_id] if card.faction_id is not None else None
    values["attributes"] = tuple(sorted(attributes))
    return values


def _card_fill(card: Card, record: CardRecord, faction_ids: dict[str, int]) -> None:
    for name in RULES_FIELDS:
        if name not in ("faction", "attributes"):
            setattr(card, name, getattr(record, name))
    card.faction_id = faction_ids[record.faction] if record.faction else None
    card.search_text = card_search_text(name=card.name, name_ja=card.name_ja, text=card.text)


def _by_key(model: type[_M], key: str, values: Iterable[str]) -> dict[str, _M]:
    """Existing rows whose `key` is in values, in batched `IN` queries."""
    found: dict[str, _M] = {}
    for chunk in _chunks(sorted(set(values))):
        for obj in model._default_manager.filter(**{f"{key}__in": chunk}):
            found[getattr(obj, key)] = obj
    return found


def _create(model: type[_M], key: str, objs: list[_M]) -> dict[str, _M]:
    """bulk_create, then make sure every object has its primary key."""
    if not objs:
        return {}
    model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)
    if any(obj.pk is None for obj in objs):  # backends that cannot return inserted ids
        return _by_key(model, key, [getattr(obj, key) for obj in objs])
    return {getattr(obj, key): obj for obj in objs}


_T = TypeVar("_T")


def _chunks(values: Iterable[_T], size: int = BATCH_SIZE) -> Iterator[list[_T]]:
    batch: list[_T] = []
    for value in values:
        batch.append(value)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _unique_slug(name: str, taken: set[str]) -> str:
    base = (slugify(name) or slugify(name, allow_unicode=True) or "faction")[:90]
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug
