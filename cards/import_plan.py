"""What an import would change: the plan (reads only) and the results an import reports.

The plan compares parsed set files with the catalog, batch by batch, without writing; the
writing steps (cards.services) and the job lifecycle (cards.import_jobs) both work from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, TypeVar

from django.db import models

from gatesite.iterables import chunks

from .importers.consistency import consistency_errors
from .importers.records import RULES_FIELDS, CardRecord, ImportFileError, ParsedFile, RowError, SetRecord
from .models import Attribute, Card, CardSet, Faction, Printing

# Rows per INSERT/UPDATE and values per `IN (...)`: under SQLite's 999-variable limit
# for lookups, and small enough that PostgreSQL statements stay cheap.
BATCH_SIZE = 500
# Entries per list kept in a diff (new cards, changed cards, ...); the totals count them all.
DIFF_LIST_LIMIT = 1000
# Rules fields whose change is an erratum. name_ja is a translation, not what the card does.
ERRATA_FIELDS: tuple[str, ...] = tuple(f for f in RULES_FIELDS if f != "name_ja")

Progress = Callable[[int, int], None]
_M = TypeVar("_M", bound=models.Model)
_T = TypeVar("_T")


# --- results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldChange:
    field: str
    old: object
    new: object


@dataclass(frozen=True, slots=True)
class CardChange:
    """What an import changes on an existing card's rules fields (errata are made of these)."""

    card_id: int
    name: str
    changes: tuple[FieldChange, ...]


@dataclass(frozen=True, slots=True)
class RowChange:
    """What an import changes on an existing set or printing."""

    pk: int
    key: str  # set code or collector number
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
    diff: dict[str, Any] = field(default_factory=dict)  # CatalogPlan.diff(): JSON, lists capped
    errata: int = 0  # errata rows written
    dry_run: bool = False
    # Existing sets, cards and printings that differ from the files but were left alone (only-new imports).
    kept_existing: int = 0

    def counts(self) -> dict[str, int]:
        """Flat, JSON-serialisable counts (what the Celery task returns)."""
        result = {"files": self.files}
        for kind in ("sets", "cards", "printings"):
            for key, value in asdict(getattr(self, kind)).items():
                result[f"{kind}_{key}"] = value
        result["factions_created"] = self.factions_created
        result["attributes_created"] = self.attributes_created
        return result


# --- the plan: what an import would change, computed without writing --------------------


@dataclass
class CatalogPlan:
    """The difference between parsed files and the catalog, and the ids needed to write it."""

    files: int
    sets: dict[str, SetRecord] = field(default_factory=dict)
    cards: dict[str, CardRecord] = field(default_factory=dict)  # first printing of each name
    printings: dict[str, CardRecord] = field(default_factory=dict)  # by collector number
    # Existing rows this import touches, by natural key.
    set_ids: dict[str, int] = field(default_factory=dict)
    faction_ids: dict[str, int] = field(default_factory=dict)  # every faction: a handful
    faction_slugs: set[str] = field(default_factory=set)
    attribute_ids: dict[str, int] = field(default_factory=dict)
    card_ids: dict[str, int] = field(default_factory=dict)
    # The difference.
    sets_new: list[str] = field(default_factory=list)
    set_changes: list[RowChange] = field(default_factory=list)
    factions_new: list[str] = field(default_factory=list)
    attributes_new: list[str] = field(default_factory=list)
    cards_new: list[str] = field(default_factory=list)
    card_changes: list[CardChange] = field(default_factory=list)
    printings_new: list[str] = field(default_factory=list)
    printing_changes: list[RowChange] = field(default_factory=list)
    # Differences an only-new import leaves alone (cards.services.catalog_plan_only_new).
    kept_existing: int = 0
    # The file of each name's first printing, to name it in an error.
    card_files: dict[str, str] = field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        return not (
            self.sets_new
            or self.set_changes
            or self.factions_new
            or self.attributes_new
            or self.cards_new
            or self.card_changes
            or self.printings_new
            or self.printing_changes
        )

    def result(self, *, dry_run: bool, errata: int = 0) -> ImportResult:
        def counts(total: int, new: list[Any], changed: list[Any]) -> RowCounts:
            return RowCounts(len(new), len(changed), total - len(new) - len(changed))

        return ImportResult(
            files=self.files,
            sets=counts(len(self.sets), self.sets_new, self.set_changes),
            cards=counts(len(self.cards), self.cards_new, self.card_changes),
            printings=counts(len(self.printings), self.printings_new, self.printing_changes),
            factions_created=len(self.factions_new),
            attributes_created=len(self.attributes_new),
            card_changes=tuple(self.card_changes),
            diff=self.diff(),
            errata=errata,
            dry_run=dry_run,
            kept_existing=self.kept_existing,
        )

    def diff(self, *, limit: int = DIFF_LIST_LIMIT) -> dict[str, Any]:
        """JSON for people: each list is {"total": n, "items": [the first `limit`]}."""

        def section(items: list[Any], render: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
            return {"total": len(items), "items": [render(item) for item in items[:limit]]}

        def changes(change: CardChange | RowChange) -> list[dict[str, Any]]:
            return [{"field": c.field, "old": json_value(c.old), "new": json_value(c.new)} for c in change.changes]

        def new_card(name: str) -> dict[str, Any]:
            record = self.cards[name]
            return {"name": name, "type": record.type, "faction": record.faction, "level": record.level} | (
                {"game": record.game, "fields": dict(record.fields)} if record.fields else {}
            )

        def new_printing(number: str) -> dict[str, Any]:
            record = self.printings[number]
            return {"collector_number": number, "name": record.name, "set": record.set_code, "rarity": record.rarity}

        def new_set(code: str) -> dict[str, Any]:
            card_set = self.sets[code]
            return {"code": code, "name": card_set.name, "release_date": json_value(card_set.release_date)}

        return {
            "new_sets": section(self.sets_new, new_set),
            "changed_sets": section(self.set_changes, lambda c: {"code": c.key, "changes": changes(c)}),
            "new_factions": section(self.factions_new, lambda name: {"name": name}),
            "new_attributes": section(self.attributes_new, lambda name: {"name": name}),
            "new_cards": section(self.cards_new, new_card),
            "changed_cards": section(
                self.card_changes, lambda c: {"name": c.name, "card_id": c.card_id, "changes": changes(c)}
            ),
            "new_printings": section(self.printings_new, new_printing),
            "changed_printings": section(
                self.printing_changes, lambda c: {"collector_number": c.key, "changes": changes(c)}
            ),
        }


def catalog_plan(*, files: list[ParsedFile], progress: Progress | None = None) -> CatalogPlan:
    """What importing the files would change; reads only. Raises ImportFileError if the files conflict."""
    files_check_across(files)
    return plan_files(files, progress)


def files_check_across(files: list[ParsedFile]) -> None:
    # parse_card_file has checked each file on its own; only several files need it again.
    errors = consistency_errors(files) if len(files) > 1 else []
    if errors:
        raise ImportFileError(errors)


# --- planning steps (reads only) --------------------------------------------------------


def plan_files(files: list[ParsedFile], progress: Progress | None) -> CatalogPlan:
    plan = CatalogPlan(files=len(files))
    for parsed in files:
        for card_set in parsed.sets:
            plan.sets.setdefault(card_set.code, card_set)
        for record in parsed.cards:
            if plan.cards.setdefault(record.name, record) is record:
                plan.card_files[record.name] = parsed.name
            plan.printings[record.collector_number] = record
    _sets_plan(plan)
    _factions_plan(plan)
    _attributes_plan(plan)
    # Cards and printings a batch of rows at a time, with progress the caller can show.
    total, done = len(plan.printings), 0
    if progress is not None:
        progress(0, total)
    faction_names = {pk: name for name, pk in plan.faction_ids.items()}
    whole = _whole_tables(plan)
    seen: set[str] = set()
    for chunk in chunks(plan.printings.values(), BATCH_SIZE):
        names = [name for name in dict.fromkeys(r.name for r in chunk) if name not in seen]
        seen.update(names)
        cards = whole.cards if whole else _existing_cards(names)
        links = whole.links if whole else _existing_links([cards[n][0] for n in names if n in cards])
        _cards_plan(plan, names, cards, links, faction_names)
        printings = whole.printings if whole else _existing_printings([r.collector_number for r in chunk])
        _printings_plan(plan, chunk, printings)
        done += len(chunk)
        if progress is not None:
            progress(done, total)
    _games_check(plan)
    return plan


def _games_check(plan: CatalogPlan) -> None:
    """A card name is one card across the site: a file may not give an existing card of one game to another."""
    errors = []
    for change in plan.card_changes:
        moved = next((c for c in change.changes if c.field == "game"), None)
        if moved is not None:
            record = plan.cards[change.name]
            message = (
                f"{change.name!r} is already a card of the game {moved.old!r}; a card name is one card across the site"
            )
            errors.append(RowError(plan.card_files.get(change.name, ""), record.row, "name", message))
    if errors:
        raise ImportFileError(errors)


# Columns of an existing card the plan compares: (pk, name, faction_id, *_CARD_FIELDS).
_CARD_FIELDS = tuple(f for f in RULES_FIELDS if f not in ("faction", "attributes"))
_CARD_COLUMNS = ("pk", "name", "faction_id", *_CARD_FIELDS)
# Files this large, covering at least a quarter of the catalog, read each table whole.
WHOLE_READ_MIN_ROWS = 2000


@dataclass(frozen=True, slots=True)
class _WholeTables:
    cards: dict[str, tuple[Any, ...]]
    links: dict[int, set[str]]
    printings: dict[str, tuple[Any, ...]]


def _whole_tables(plan: CatalogPlan) -> _WholeTables | None:
    """Every card, attribute link and printing, when that is cheaper than looking the file's up.

    A big file (a new booster, a re-import of everything) touches much of the catalog: three
    plain reads beat thousands of index lookups in batched `IN` queries by far.
    """
    if len(plan.printings) < WHOLE_READ_MIN_ROWS:
        return None
    if Card.objects.count() > 4 * len(plan.cards) or Printing.objects.count() > 4 * len(plan.printings):
        return None
    return _WholeTables(_existing_cards(None), _existing_links(None), _existing_printings(None))


def _existing_cards(names: list[str] | None) -> dict[str, tuple[Any, ...]]:
    """Card rows (_CARD_COLUMNS) by name: those named, or all."""
    if names is not None and not names:
        return {}
    cards = Card.objects.all() if names is None else Card.objects.filter(name__in=names)
    return {row[1]: row for row in cards.order_by().values_list(*_CARD_COLUMNS)}


def _existing_links(card_ids: list[int] | None) -> dict[int, set[str]]:
    """Attribute names by card id: of those cards, or of all."""
    if card_ids is not None and not card_ids:
        return {}
    links = Card.attributes.through.objects.all()
    if card_ids is not None:
        links = links.filter(card_id__in=card_ids)
    found: dict[int, set[str]] = {}
    for card_id, attribute_name in links.order_by().values_list("card_id", "attribute__name"):
        found.setdefault(card_id, set()).add(attribute_name)
    return found


def _existing_printings(numbers: list[str] | None) -> dict[str, tuple[Any, ...]]:
    """(pk, card name, set code, rarity) by collector number: of those numbers, or all."""
    printings = Printing.objects.all() if numbers is None else Printing.objects.filter(collector_number__in=numbers)
    rows = printings.order_by().values_list("collector_number", "pk", "card__name", "card_set__code", "rarity")
    return {number: rest for number, *rest in rows}


def _sets_plan(plan: CatalogPlan) -> None:
    existing = rows_by_key(CardSet, "code", plan.sets)
    for code, record in plan.sets.items():
        card_set = existing.get(code)
        if card_set is None:
            plan.sets_new.append(code)
            continue
        plan.set_ids[code] = card_set.pk
        changes = tuple(
            FieldChange(attr, getattr(card_set, attr), getattr(record, attr))
            for attr in ("name", "release_date", "game")
            if getattr(card_set, attr) != getattr(record, attr)
        )
        if changes:
            plan.set_changes.append(RowChange(card_set.pk, code, changes))


def _factions_plan(plan: CatalogPlan) -> None:
    # Factions are a handful of rows: load them all, which also gives every taken slug and
    # the name of any faction an erratum moves a card out of.
    for pk, name, slug in Faction.objects.values_list("pk", "name", "slug"):
        plan.faction_ids[name] = pk
        plan.faction_slugs.add(slug)
    wanted = {c.faction for c in plan.cards.values() if c.faction is not None}
    plan.factions_new = sorted(wanted - plan.faction_ids.keys())


def _attributes_plan(plan: CatalogPlan) -> None:
    wanted = {a for c in plan.cards.values() for a in c.attributes}
    for chunk in chunks(sorted(wanted), BATCH_SIZE):
        plan.attribute_ids.update(Attribute.objects.filter(name__in=chunk).values_list("name", "pk"))
    plan.attributes_new = sorted(wanted - plan.attribute_ids.keys())


def _cards_plan(
    plan: CatalogPlan,
    names: list[str],
    existing: dict[str, tuple[Any, ...]],
    links: dict[int, set[str]],
    faction_names: dict[int, str],
) -> None:
    for name in names:
        row = existing.get(name)
        if row is None:
            plan.cards_new.append(name)
            continue
        pk, _, faction_id, *values = row
        plan.card_ids[name] = pk
        old: dict[str, Any] = dict(zip(_CARD_FIELDS, values, strict=True))
        old["faction"] = faction_names[faction_id] if faction_id is not None else None
        old["attributes"] = tuple(sorted(links.get(pk, ())))
        record = plan.cards[name]
        diff = tuple(FieldChange(f, old[f], getattr(record, f)) for f in RULES_FIELDS if old[f] != getattr(record, f))
        if diff:
            plan.card_changes.append(CardChange(pk, name, diff))


def _printings_plan(plan: CatalogPlan, records: list[CardRecord], existing: dict[str, tuple[Any, ...]]) -> None:
    for record in records:
        found = existing.get(record.collector_number)
        if found is None:
            plan.printings_new.append(record.collector_number)
            continue
        pk, *old = found
        new = (record.name, record.set_code, record.rarity)
        changes = tuple(
            FieldChange(f, o, n) for f, o, n in zip(("card", "set", "rarity"), old, new, strict=True) if o != n
        )
        if changes:
            plan.printing_changes.append(RowChange(pk, record.collector_number, changes))


# --- helpers ----------------------------------------------------------------------------


def json_value(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


def rows_by_key(model: type[_M], key: str, values: Iterable[str]) -> dict[str, _M]:
    """Existing rows whose `key` is in values, in batched `IN` queries."""
    found: dict[str, _M] = {}
    for chunk in chunks(sorted(set(values)), BATCH_SIZE):
        for obj in model._default_manager.filter(**{f"{key}__in": chunk}):
            found[getattr(obj, key)] = obj
    return found
