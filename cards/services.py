"""Writes to the card catalog: the set-file importer, import jobs and errata."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import File
from django.db import connection, models, transaction
from django.db.models import F, Q
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.text import slugify

from .catalog import catalog_version_bump
from .folding import card_search_text
from .importers.parsing import check_file_content, consistency_errors, parse_card_file
from .importers.records import (
    RULES_FIELDS,
    CardRecord,
    ImportFileError,
    ParsedFile,
    RowError,
    SetRecord,
)
from .models import Attribute, Card, CardSet, Erratum, Faction, ImportJob, Printing

logger = logging.getLogger(__name__)

# Rows per INSERT/UPDATE and values per `IN (...)`: under SQLite's 999-variable limit
# for lookups, and small enough that PostgreSQL statements stay cheap.
BATCH_SIZE = 500
# Entries per list kept in a diff (new cards, changed cards, ...); the totals count them all.
DIFF_LIST_LIMIT = 1000
# Bad rows kept in a job's error report; the message says how many there were.
ERROR_REPORT_LIMIT = 1000
# Rules fields whose change is an erratum. name_ja is a translation, not what the card does.
ERRATA_FIELDS: tuple[str, ...] = tuple(f for f in RULES_FIELDS if f != "name_ja")
# Seconds between progress writes (they double as the job's heartbeat).
PROGRESS_EVERY = 0.5
# pg_advisory_xact_lock key held by every catalog import while it writes ("gate").
CATALOG_LOCK_KEY = 0x67617465
# Cards and printings written (new or changed) from which an import refreshes the planner's
# statistics when it commits (_catalog_analyze).
ANALYZE_AFTER_ROWS = 1000
# The trigram index of cards_card.search_text (migration 0002).
SEARCH_TEXT_INDEX = "cards_card_search_text_trgm"

Progress = Callable[[int, int], None]
_M = TypeVar("_M", bound=models.Model)


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
        )

    def diff(self, *, limit: int = DIFF_LIST_LIMIT) -> dict[str, Any]:
        """JSON for people: each list is {"total": n, "items": [the first `limit`]}."""

        def section(items: list[Any], render: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
            return {"total": len(items), "items": [render(item) for item in items[:limit]]}

        def changes(change: CardChange | RowChange) -> list[dict[str, Any]]:
            return [{"field": c.field, "old": _json_value(c.old), "new": _json_value(c.new)} for c in change.changes]

        def new_card(name: str) -> dict[str, Any]:
            record = self.cards[name]
            return {"name": name, "type": record.type, "faction": record.faction, "level": record.level}

        def new_printing(number: str) -> dict[str, Any]:
            record = self.printings[number]
            return {"collector_number": number, "name": record.name, "set": record.set_code, "rarity": record.rarity}

        def new_set(code: str) -> dict[str, Any]:
            card_set = self.sets[code]
            return {"code": code, "name": card_set.name, "release_date": _json_value(card_set.release_date)}

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


# --- importing files (the CLI and the import_files task) --------------------------------


def card_files_import(*, paths: list[str], dry_run: bool = False, progress: Progress | None = None) -> ImportResult:
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
        del raw  # the records are all we keep
    if errors:
        raise ImportFileError(errors)
    return card_catalog_import(files=parsed, dry_run=dry_run, progress=progress)


def card_catalog_import(
    *,
    files: list[ParsedFile],
    dry_run: bool = False,
    progress: Progress | None = None,
    errata_effective_date: date | None = None,
) -> ImportResult:
    """Upsert parsed set files into the catalog in one transaction, recording errata (job-less).

    1. Check the files against each other (a collector number in two files, printings of a
       name that disagree): any error raises ImportFileError before anything is written.
    2. Plan: load the existing rows in batches and compare (sets by code, factions and
       attributes by name, cards by name, printings by collector number). A dry run stops
       here; so does a run with nothing to change, which therefore writes nothing. With no
       progress to show, this step happens only inside the transaction of step 3.
    3. Apply the plan in one transaction (see _catalog_apply_locked): only what differs is
       written, so a second run of the same files writes nothing.
    """
    if dry_run or progress is not None:
        plan = catalog_plan(files=files, progress=progress)
        if dry_run or plan.is_empty:
            return plan.result(dry_run=dry_run)
    else:  # nobody watches: plan once, under the lock
        _check_across_files(files)
    with transaction.atomic():
        return _catalog_apply_locked(files=files, errata_effective_date=errata_effective_date, job_id=None)


def catalog_plan(*, files: list[ParsedFile], progress: Progress | None = None) -> CatalogPlan:
    """What importing the files would change; reads only. Raises ImportFileError if the files conflict."""
    _check_across_files(files)
    return _plan(files, progress)


def _check_across_files(files: list[ParsedFile]) -> None:
    # parse_card_file has checked each file on its own; only several files need it again.
    errors = consistency_errors(files) if len(files) > 1 else []
    if errors:
        raise ImportFileError(errors)


def _catalog_apply_locked(
    *, files: list[ParsedFile], errata_effective_date: date | None, job_id: int | None
) -> ImportResult:
    """Plan again and write, inside the caller's transaction, holding the catalog import lock.

    The plan the caller showed progress for was computed outside any transaction; another
    import may have committed since, so under the lock the plan is recomputed (a few
    batched reads) and that is what is written: the diff stored is exactly what changed.
    """
    _catalog_write_lock()
    plan = _plan(files, None)
    if plan.is_empty:  # nothing differs: write nothing at all, not even the catalog's token
        return plan.result(dry_run=False)
    _sets_upsert(plan)
    _factions_ensure(plan)
    _attributes_ensure(plan)
    _cards_upsert(plan)
    _printings_upsert(plan)
    errata = _errata_record(plan, effective_date=errata_effective_date, job_id=job_id)
    # Web processes drop their copies of card facts when this commits (cards.catalog).
    catalog_version_bump()
    rows = len(plan.cards_new) + len(plan.card_changes) + len(plan.printings_new) + len(plan.printing_changes)
    if rows >= ANALYZE_AFTER_ROWS:
        transaction.on_commit(_catalog_analyze)
    _decks_revalidate_later(plan, effective_date=errata_effective_date)
    return plan.result(dry_run=False, errata=errata)


def _catalog_analyze() -> None:
    """Fresh planner statistics for the card tables, right after a large import commits.

    Without them PostgreSQL estimates a freshly filled cards_card as nearly empty and scans it
    whole for every search instead of using the trigram index (docs/benchmarks.md, "After an
    import"), until autovacuum gets round to it, if it runs at all. gin_clean_pending_list moves
    the trigram index's pending entries (fast-update inserts) into the index proper, which
    searches would otherwise scan one by one. About 0.1 s for 20 000 printings.
    """
    if connection.vendor != "postgresql":
        return
    q = connection.ops.quote_name
    tables = (Card._meta.db_table, Printing._meta.db_table, Card.attributes.through._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {', '.join(q(t) for t in tables)}")
        cursor.execute("SELECT gin_clean_pending_list(%s::regclass)", [SEARCH_TEXT_INDEX])


def _decks_revalidate_later(plan: CatalogPlan, *, effective_date: date | None) -> None:
    """Decks playing a card whose rules fields changed are re-judged once the import commits."""
    from decks.revalidation.services import decks_revalidate_enqueue

    card_ids = {c.card_id for c in plan.card_changes if any(f.field in ERRATA_FIELDS for f in c.changes)}
    decks_revalidate_enqueue(card_ids=card_ids, since=effective_date)


def _catalog_write_lock() -> None:
    # One catalog import writes at a time, so its plan cannot go stale under it.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CATALOG_LOCK_KEY])
    # SQLite: the transaction is BEGIN IMMEDIATE (settings), which already holds the write lock.


# --- planning steps (reads only) --------------------------------------------------------


def _plan(files: list[ParsedFile], progress: Progress | None) -> CatalogPlan:
    plan = CatalogPlan(files=len(files))
    for parsed in files:
        for card_set in parsed.sets:
            plan.sets.setdefault(card_set.code, card_set)
        for record in parsed.cards:
            plan.cards.setdefault(record.name, record)
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
    for chunk in _chunks(plan.printings.values()):
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
    return plan


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
    existing = _by_key(CardSet, "code", plan.sets)
    for code, record in plan.sets.items():
        card_set = existing.get(code)
        if card_set is None:
            plan.sets_new.append(code)
            continue
        plan.set_ids[code] = card_set.pk
        changes = tuple(
            FieldChange(attr, getattr(card_set, attr), getattr(record, attr))
            for attr in ("name", "release_date")
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
    for chunk in _chunks(sorted(wanted)):
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


# --- writing steps (inside the import transaction) --------------------------------------


def _sets_upsert(plan: CatalogPlan) -> None:
    new = [
        CardSet(code=code, name=plan.sets[code].name, release_date=plan.sets[code].release_date)
        for code in plan.sets_new
    ]
    plan.set_ids.update({code: s.pk for code, s in _create(CardSet, "code", new).items()})
    changed = [
        CardSet(pk=c.pk, code=c.key, name=plan.sets[c.key].name, release_date=plan.sets[c.key].release_date)
        for c in plan.set_changes
    ]
    if changed:
        CardSet.objects.bulk_update(changed, ["name", "release_date"], batch_size=BATCH_SIZE)


def _factions_ensure(plan: CatalogPlan) -> None:
    new = [Faction(name=name, slug=_unique_slug(name, plan.faction_slugs)) for name in plan.factions_new]
    plan.faction_ids.update({name: f.pk for name, f in _create(Faction, "name", new).items()})


def _attributes_ensure(plan: CatalogPlan) -> None:
    new = [Attribute(name=name) for name in plan.attributes_new]
    plan.attribute_ids.update({name: a.pk for name, a in _create(Attribute, "name", new).items()})


def _cards_upsert(plan: CatalogPlan) -> None:
    link_model = Card.attributes.through
    new_cards = []
    for name in plan.cards_new:
        record = plan.cards[name]
        faction_id = plan.faction_ids[record.faction] if record.faction else None
        search_text = card_search_text(name=name, name_ja=record.name_ja, text=record.text)
        new_cards.append((name, faction_id, *(getattr(record, f) for f in _CARD_FIELDS), search_text))
    plan.card_ids.update(
        _insert_rows(Card, ("name", "faction_id", *_CARD_FIELDS, "search_text"), new_cards, key="name")
    )
    links = [
        (plan.card_ids[name], plan.attribute_ids[attribute])
        for name in plan.cards_new
        for attribute in plan.cards[name].attributes
    ]
    _insert_rows(link_model, ("card_id", "attribute_id"), links)

    changed: list[Card] = []
    changed_fields: set[str] = set()
    relink: list[int] = []  # existing cards whose attributes changed
    for change in plan.card_changes:
        fields = {c.field for c in change.changes}
        if "attributes" in fields:
            relink.append(change.card_id)
            fields.discard("attributes")
        if fields:
            card = Card(pk=change.card_id, name=change.name)
            _card_fill(card, plan.cards[change.name], plan.faction_ids)
            changed.append(card)
            changed_fields |= fields
    if changed:
        Card.objects.bulk_update(changed, [*sorted(changed_fields), "search_text"], batch_size=BATCH_SIZE)
    # A changed card's links are replaced whole: fewer queries than diffing pairs.
    for chunk in _chunks(relink):
        link_model.objects.filter(card_id__in=chunk).delete()
    names = {c.card_id: c.name for c in plan.card_changes}
    links = [
        link_model(card_id=card_id, attribute_id=plan.attribute_ids[attribute])
        for card_id in relink
        for attribute in plan.cards[names[card_id]].attributes
    ]
    if links:
        link_model.objects.bulk_create(links, batch_size=BATCH_SIZE)


def _printings_upsert(plan: CatalogPlan) -> None:
    def values(record: CardRecord) -> tuple[int, int, str]:
        return plan.card_ids[record.name], plan.set_ids[record.set_code], record.rarity

    new = [(number, *values(plan.printings[number])) for number in plan.printings_new]
    _insert_rows(Printing, ("collector_number", "card_id", "card_set_id", "rarity"), new)
    changed = []
    for change in plan.printing_changes:
        card_id, card_set_id, rarity = values(plan.printings[change.key])
        changed.append(Printing(pk=change.pk, card_id=card_id, card_set_id=card_set_id, rarity=rarity))
    if changed:
        Printing.objects.bulk_update(changed, ["card", "card_set", "rarity"], batch_size=BATCH_SIZE)


def _errata_record(plan: CatalogPlan, *, effective_date: date | None, job_id: int | None) -> int:
    """One Erratum per changed rules field of an existing card.

    Effective date: the one given, else the release date of the newest set printing the
    card in this import (the set that brought the new wording).
    """
    if not plan.card_changes:
        return 0
    changed_names = {c.name for c in plan.card_changes}
    newest: dict[str, date] = {}
    if effective_date is None:
        for record in plan.printings.values():
            released = plan.sets[record.set_code].release_date
            if record.name in changed_names and released is not None:
                newest[record.name] = max(released, newest.get(record.name, released))
    now = timezone.now()
    errata = [
        Erratum(
            card_id=change.card_id,
            field=c.field,
            old_value=_json_value(c.old),
            new_value=_json_value(c.new),
            effective_date=effective_date or newest.get(change.name),
            job_id=job_id,
            created_at=now,
        )
        for change in plan.card_changes
        for c in change.changes
        if c.field in ERRATA_FIELDS
    ]
    Erratum.objects.bulk_create(errata, batch_size=BATCH_SIZE)
    return len(errata)


# --- import jobs ------------------------------------------------------------------------


class ImportJobLeaseLostError(Exception):
    """This worker's claim on the job is gone (stale and taken by another attempt, or failed)."""


def import_job_create(
    *,
    file: bytes | File,
    file_name: str,
    user: Any = None,
    dry_run: bool = False,
    errata_effective_date: date | None = None,
) -> ImportJob:
    """Check an uploaded set file, store it in a queued job and enqueue the job once committed.

    Refuses (ImportFileError) a file over settings.IMPORT_MAX_BYTES, with another extension
    than .json/.csv, empty, binary or not UTF-8; its rows are checked when the job runs.
    """
    limit: int = settings.IMPORT_MAX_BYTES
    size = len(file) if isinstance(file, bytes) else file.size
    if size is not None and size > limit:
        raise ImportFileError([_too_big(file_name, size, limit)])
    if isinstance(file, bytes):
        content = file
    else:
        file.seek(0)
        content = b"".join(file.chunks())
    if len(content) > limit:  # a size the upload did not tell
        raise ImportFileError([_too_big(file_name, len(content), limit)])
    errors = check_file_content(file_name, content)
    if errors:
        raise ImportFileError(errors)
    job = ImportJob.objects.create(
        created_by=user if user is not None and user.is_authenticated else None,
        file_name=file_name[:255],
        file_sha256=hashlib.sha256(content).hexdigest(),
        file_size=len(content),
        file_content=content,
        dry_run=dry_run,
        errata_effective_date=errata_effective_date,
    )
    from .tasks import import_job_run

    # After commit, so a worker never looks for a job row that is not there yet.
    import_job_run.delay_on_commit(job.pk)
    return job


def _too_big(file_name: str, size: int, limit: int) -> RowError:
    def show(n: int) -> str:
        return filesizeformat(n).replace("\xa0", " ")

    return RowError(file_name, "", None, f"the file is {show(size)}; the limit is {show(limit)}")


def import_job_claim(*, job_id: int, task_id: str = "") -> ImportJob | None:
    """Take a queued job, or a running one whose worker stopped (stale heartbeat); None if not ours."""
    now = timezone.now()
    claimable = Q(status=ImportJob.Status.QUEUED) | Q(
        status=ImportJob.Status.RUNNING,
        heartbeat_at__lt=now - ImportJob.LEASE,
        attempts__lt=ImportJob.MAX_ATTEMPTS,
    )
    # A conditional UPDATE: if it changes no row, another worker or a redelivered message
    # got here first (or the job is done). Taking a stale job bumps attempts, which fences
    # off the old attempt's writes.
    claimed = ImportJob.objects.filter(claimable, pk=job_id).update(
        status=ImportJob.Status.RUNNING,
        attempts=F("attempts") + 1,
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
        rows_done=0,
        error="",
        error_report=[],
        celery_task_id=task_id[:255],
    )
    if claimed != 1:
        _import_job_fail_if_exhausted(job_id=job_id, now=now)
        return None
    return ImportJob.objects.get(pk=job_id)


def import_job_execute(*, job_id: int, task_id: str = "") -> ImportJob | None:
    """Run a queued import job; None when it was not ours to run (see import_job_claim).

    1. Claim the job (conditional UPDATE).
    2. Parse the stored file: every bad row is reported and the job fails, nothing written.
    3. Plan against the catalog, writing progress (rows done / total) and the heartbeat
       to the job row as it goes: autocommitted, outside any write transaction.
    4. A dry run stores the diff and ends. An apply writes the catalog changes, the errata
       and the job's final status in one transaction: a worker killed mid-import leaves the
       catalog as it was, and the job is retried or failed once its heartbeat goes stale.
    Any other error fails the job with the reason; nothing of it is written either.
    """
    job = import_job_claim(job_id=job_id, task_id=task_id)
    if job is None:
        return None
    attempt = job.attempts
    progress = _JobProgress(job_id, attempt)
    try:
        content = bytes(job.file_content)
        job.file_content = b""
        parsed = parse_card_file(job.file_name, content)
        del content
        plan = catalog_plan(files=[parsed], progress=progress)
        if job.dry_run or plan.is_empty:
            _import_job_succeed(job_id, attempt, plan.result(dry_run=job.dry_run), rows=len(plan.printings))
        else:
            with transaction.atomic():
                result = _catalog_apply_locked(
                    files=[parsed], errata_effective_date=job.errata_effective_date, job_id=job_id
                )
                # Inside the transaction: if the lease was lost, this raises and rolls back.
                _import_job_succeed(job_id, attempt, result, rows=len(plan.printings))
    except ImportJobLeaseLostError:
        logger.warning("Import job %s: attempt %s lost its lease; its work was discarded.", job_id, attempt)
        return None
    except ImportFileError as exc:
        _import_job_fail(job_id, attempt, error=f"Nothing imported.\n{exc.message}", report=exc.errors)
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        _import_job_fail(
            job_id, attempt, error=f"The import took longer than {limit} s and was stopped; nothing imported."
        )
    except Exception as exc:
        logger.exception("Import job %s failed", job_id)
        _import_job_fail(job_id, attempt, error=f"Nothing imported: {type(exc).__name__}: {exc}")
    return ImportJob.objects.defer("file_content").get(pk=job_id)


def import_jobs_reap(*, now: datetime | None = None) -> dict[str, int]:
    """Never stuck: retry or fail running jobs whose worker stopped, resend queued jobs whose message was lost.

    A running job with no heartbeat for ImportJob.LEASE goes back to the queue (another
    attempt) or, after ImportJob.MAX_ATTEMPTS, fails with the reason. Its catalog writes, if
    any were under way, were rolled back with its transaction.
    """
    now = now or timezone.now()
    stale = now - ImportJob.LEASE
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    running = ImportJob.objects.filter(status=ImportJob.Status.RUNNING, heartbeat_at__lt=stale)
    for pk, attempts, heartbeat_at in running.values_list("pk", "attempts", "heartbeat_at"):
        if attempts >= ImportJob.MAX_ATTEMPTS:
            counts["failed"] += _import_job_fail_if_exhausted(job_id=pk, now=now)
            continue
        # Conditional on the heartbeat seen: a worker that just woke up keeps its job.
        requeued = ImportJob.objects.filter(pk=pk, status=ImportJob.Status.RUNNING, heartbeat_at=heartbeat_at).update(
            status=ImportJob.Status.QUEUED,
            heartbeat_at=now,
            error=_stopped_message(attempts, heartbeat_at) + " Retrying.",
        )
        if requeued:
            counts["requeued"] += 1
            _import_job_enqueue(pk)
    # Queued for a whole lease without a worker taking it: the message may be lost. Resending
    # is harmless (the claim lets one run through) and bumping heartbeat_at limits it to once a lease.
    lost = ImportJob.objects.filter(status=ImportJob.Status.QUEUED).filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, created_at__lt=stale)
    )
    for pk in lost.values_list("pk", flat=True):
        if ImportJob.objects.filter(pk=pk, status=ImportJob.Status.QUEUED).update(heartbeat_at=now):
            counts["resent"] += 1
            _import_job_enqueue(pk)
    return counts


def _import_job_enqueue(job_id: int) -> None:
    from .tasks import import_job_run

    import_job_run.delay_on_commit(job_id)


def _stopped_message(attempt: int, heartbeat_at: datetime | None) -> str:
    since = f" since {heartbeat_at:%Y-%m-%d %H:%M:%S} UTC" if heartbeat_at else ""
    return f"Attempt {attempt} of {ImportJob.MAX_ATTEMPTS}: the worker stopped responding (no heartbeat{since})."


def _import_job_fail_if_exhausted(*, job_id: int, now: datetime) -> int:
    """A stale running job out of attempts fails with the reason; 1 if it did."""
    job = (
        ImportJob.objects.filter(
            pk=job_id,
            status=ImportJob.Status.RUNNING,
            heartbeat_at__lt=now - ImportJob.LEASE,
            attempts__gte=ImportJob.MAX_ATTEMPTS,
        )
        .values("attempts", "heartbeat_at")
        .first()
    )
    if job is None:
        return 0
    return ImportJob.objects.filter(
        pk=job_id, status=ImportJob.Status.RUNNING, attempts=job["attempts"], heartbeat_at=job["heartbeat_at"]
    ).update(
        status=ImportJob.Status.FAILED,
        finished_at=now,
        error=_stopped_message(job["attempts"], job["heartbeat_at"]) + " Nothing imported.",
    )


def _import_job_succeed(job_id: int, attempt: int, result: ImportResult, *, rows: int) -> None:
    now = timezone.now()
    updated = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.RUNNING, attempts=attempt).update(
        status=ImportJob.Status.SUCCEEDED,
        counts={**result.counts(), "errata": result.errata},
        diff=result.diff,
        rows_total=rows,
        rows_done=rows,
        finished_at=now,
        heartbeat_at=now,
    )
    if updated != 1:
        raise ImportJobLeaseLostError(job_id)


def _import_job_fail(job_id: int, attempt: int, *, error: str, report: Iterable[RowError] = ()) -> None:
    errors = list(report)
    now = timezone.now()
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.RUNNING, attempts=attempt).update(
        status=ImportJob.Status.FAILED,
        error=error,
        error_report=[asdict(e) for e in errors[:ERROR_REPORT_LIMIT]],
        counts={"bad_rows": len(errors)} if errors else {},
        finished_at=now,
        heartbeat_at=now,
    )


class _JobProgress:
    """Writes rows done / total and the heartbeat to the job row, at most every PROGRESS_EVERY seconds."""

    def __init__(self, job_id: int, attempt: int) -> None:
        self.job_id = job_id
        self.attempt = attempt
        self.last = float("-inf")

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if 0 < done < total and now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        updated = ImportJob.objects.filter(
            pk=self.job_id, status=ImportJob.Status.RUNNING, attempts=self.attempt
        ).update(rows_done=done, rows_total=total, heartbeat_at=timezone.now())
        if updated != 1:  # the job was failed or retaken meanwhile: stop working on it
            raise ImportJobLeaseLostError(self.job_id)


# --- helpers ----------------------------------------------------------------------------


def _json_value(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


def _card_fill(card: Card, record: CardRecord, faction_ids: dict[str, int]) -> None:
    for name in RULES_FIELDS:
        if name not in ("faction", "attributes"):
            setattr(card, name, getattr(record, name))
    card.faction_id = faction_ids[record.faction] if record.faction else None
    card.search_text = card_search_text(name=card.name, name_ja=card.name_ja, text=card.text)


def _insert_rows(
    model: type[models.Model], fields: tuple[str, ...], rows: list[tuple[Any, ...]], *, key: str | None = None
) -> dict[Any, int]:
    """Insert plain rows (tuples in `fields` order), inside the caller's transaction; with `key`, answer {key: new id}.

    On PostgreSQL a COPY (through a temporary table when the ids are wanted): no model
    instances, no SQL per row, many times faster than bulk_create for thousands of rows.
    Elsewhere, bulk_create in batches.
    """
    ids: dict[Any, int] = {}
    if not rows:
        return ids
    if connection.vendor != "postgresql":
        for chunk in _chunks(rows):
            objs = [model(**dict(zip(fields, row, strict=True))) for row in chunk]
            model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)
            if key is not None:
                if any(obj.pk is None for obj in objs):  # backends that cannot return inserted ids
                    values = [getattr(obj, key) for obj in objs]
                    ids.update(model._default_manager.filter(**{f"{key}__in": values}).values_list(key, "pk"))
                else:
                    ids.update((getattr(obj, key), obj.pk) for obj in objs)
        return ids
    assert connection.in_atomic_block, "the temporary table lives until the commit"
    meta, quote = model._meta, connection.ops.quote_name
    table = quote(meta.db_table)
    columns = ", ".join(quote(meta.get_field(f).column) for f in fields)
    with connection.cursor() as cursor:
        if key is None:
            target = table
        else:
            target = quote(f"import_{meta.db_table}")
            cursor.execute(
                f"CREATE TEMPORARY TABLE {target} ON COMMIT DROP AS SELECT {columns} FROM {table} WITH NO DATA"
            )
        with cursor.cursor.copy(f"COPY {target} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        if key is not None:
            returning = f"{quote(meta.get_field(key).column)}, {quote(meta.pk.column)}"
            cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {target} RETURNING {returning}")
            ids.update(cursor.fetchall())
            cursor.execute(f"DROP TABLE {target}")
    return ids


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
