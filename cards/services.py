"""Writes to the card catalog: the set-file importer (an upsert that writes only what differs) and its errata.

What an import would change is planned in cards.import_plan; import jobs (queued, claimed,
run by a worker) live in cards.import_jobs.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.text import slugify

from gatesite.iterables import chunks

from .catalog import catalog_version_bump
from .faction_names import faction_names_known
from .import_plan import (
    BATCH_SIZE,
    ERRATA_FIELDS,
    CatalogPlan,
    ImportResult,
    Progress,
    catalog_plan,
    files_check_across,
    json_value,
    plan_files,
    rows_by_key,
)
from .importers.parsing import parse_card_file
from .importers.records import RULES_FIELDS, CardRecord, ImportFileError, ParsedFile, RowError
from .models import SEARCH_COLUMNS, Attribute, Card, CardSet, Erratum, Faction, Printing, card_search_columns
from .signals import cards_changed_send_on_commit

# pg_advisory_xact_lock key held by every catalog import while it writes ("gate").
CATALOG_LOCK_KEY = 0x67617465
# Cards and printings written (new or changed) from which an import refreshes the planner's
# statistics when it commits (_catalog_analyze).
ANALYZE_AFTER_ROWS = 1000
# The trigram index of cards_card.search_text (migration 0002).
SEARCH_TEXT_INDEX = "cards_card_search_text_trgm"
# Columns of a card written from its record, besides name and faction.
_CARD_FIELDS = tuple(f for f in RULES_FIELDS if f not in ("faction", "attributes"))

_M = TypeVar("_M", bound=models.Model)


# --- importing files (the CLI and the import_files task) --------------------------------


def card_files_import(
    *, paths: list[str], dry_run: bool = False, progress: Progress | None = None, only_new: bool = False
) -> ImportResult:
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
    return card_catalog_import(files=parsed, dry_run=dry_run, progress=progress, only_new=only_new)


def card_files_read(*, paths: list[str]) -> list[tuple[str, bytes]]:
    """Each file's name (its path as given) and bytes; ImportFileError naming every file that cannot be read."""
    files: list[tuple[str, bytes]] = []
    errors: list[RowError] = []
    for path in paths:
        try:
            files.append((path, Path(path).read_bytes()))
        except OSError as exc:
            errors.append(RowError(path, "", None, f"cannot read file: {exc.strerror or exc}"))
    if errors:
        raise ImportFileError(errors)
    return files


def card_catalog_import(
    *,
    files: list[ParsedFile],
    dry_run: bool = False,
    progress: Progress | None = None,
    errata_effective_date: date | None = None,
    only_new: bool = False,
) -> ImportResult:
    """Upsert parsed set files into the catalog in one transaction, recording errata (job-less).

    With `only_new`, add only what the catalog lacks (catalog_plan_only_new).

    1. Check the files against each other (a collector number in two files, printings of a
       name that disagree): any error raises ImportFileError before anything is written.
    2. Plan: load the existing rows in batches and compare (sets by code, factions and
       attributes by name, cards by name, printings by collector number). A dry run stops
       here; so does a run with nothing to change, which therefore writes nothing. With no
       progress to show, this step happens only inside the transaction of step 3.
    3. Apply the plan in one transaction (see catalog_apply_locked): only what differs is
       written, so a second run of the same files writes nothing.
    """
    if dry_run or progress is not None:
        plan = catalog_plan(files=files, progress=progress)
        if only_new:
            catalog_plan_only_new(plan)
        if dry_run or plan.is_empty:
            return plan.result(dry_run=dry_run)
    else:  # nobody watches: plan once, under the lock
        files_check_across(files)
    with transaction.atomic():
        return catalog_apply_locked(
            files=files, errata_effective_date=errata_effective_date, job_id=None, only_new=only_new
        )


def catalog_plan_only_new(plan: CatalogPlan) -> CatalogPlan:
    """The plan cut down to what the catalog lacks: new sets, cards, printings (and the factions and attributes they need).

    Existing rows that differ from the files are left as they are and only counted
    (kept_existing): `make data` loads the shipped files on every start, and a card an admin
    has imported a newer wording of since must keep it (no silent revert, no reverse erratum).
    """
    plan.kept_existing = len(plan.set_changes) + len(plan.card_changes) + len(plan.printing_changes)
    plan.set_changes, plan.card_changes, plan.printing_changes = [], [], []
    factions = {plan.cards[name].faction for name in plan.cards_new}
    plan.factions_new = [name for name in plan.factions_new if name in factions]
    attributes = {attribute for name in plan.cards_new for attribute in plan.cards[name].attributes}
    plan.attributes_new = [name for name in plan.attributes_new if name in attributes]
    return plan


def catalog_apply_locked(
    *, files: list[ParsedFile], errata_effective_date: date | None, job_id: int | None, only_new: bool = False
) -> ImportResult:
    """Plan again and write, inside the caller's transaction, holding the catalog import lock.

    The plan the caller showed progress for was computed outside any transaction; another
    import may have committed since, so under the lock the plan is recomputed (a few
    batched reads) and that is what is written: the diff stored is exactly what changed.
    """
    _catalog_write_lock()
    plan = plan_files(files, None)
    if only_new:
        catalog_plan_only_new(plan)
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
    _cards_changed_announce(plan, effective_date=errata_effective_date)
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


def _cards_changed_announce(plan: CatalogPlan, *, effective_date: date | None) -> None:
    """Cards whose rules fields changed are announced once the import commits (decks re-judge the decks playing them)."""
    card_ids = {c.card_id for c in plan.card_changes if any(f.field in ERRATA_FIELDS for f in c.changes)}
    cards_changed_send_on_commit(sender=catalog_apply_locked, card_ids=card_ids, since=effective_date)


def _catalog_write_lock() -> None:
    # One catalog import writes at a time, so its plan cannot go stale under it.
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CATALOG_LOCK_KEY])
    # SQLite: the transaction is BEGIN IMMEDIATE (settings), which already holds the write lock.


# --- writing steps (inside the import transaction) --------------------------------------


def _sets_upsert(plan: CatalogPlan) -> None:
    new = [
        CardSet(
            code=code, name=plan.sets[code].name, release_date=plan.sets[code].release_date, game=plan.sets[code].game
        )
        for code in plan.sets_new
    ]
    plan.set_ids.update({code: s.pk for code, s in _create(CardSet, "code", new).items()})
    changed = [
        CardSet(
            pk=c.pk,
            code=c.key,
            name=plan.sets[c.key].name,
            release_date=plan.sets[c.key].release_date,
            game=plan.sets[c.key].game,
        )
        for c in plan.set_changes
    ]
    if changed:
        CardSet.objects.bulk_update(changed, ["name", "release_date", "game"], batch_size=BATCH_SIZE)


def _factions_ensure(plan: CatalogPlan) -> None:
    # Japanese names from data/factions.json, so `f:ウォルナー` finds the cards of a new faction.
    names_ja = faction_names_known()
    new = [
        Faction(name=name, name_ja=names_ja.get(name, ""), slug=_unique_slug(name, plan.faction_slugs))
        for name in plan.factions_new
    ]
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
        search = card_search_columns(name=name, name_ja=record.name_ja, text=record.text)
        values = (dict(record.fields) if f == "fields" else getattr(record, f) for f in _CARD_FIELDS)
        new_cards.append((name, faction_id, *values, *search.values()))
    plan.card_ids.update(
        _insert_rows(Card, ("name", "faction_id", *_CARD_FIELDS, *SEARCH_COLUMNS), new_cards, key="name")
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
        Card.objects.bulk_update(changed, [*sorted(changed_fields), *SEARCH_COLUMNS], batch_size=BATCH_SIZE)
    # A changed card's links are replaced whole: fewer queries than diffing pairs.
    for chunk in chunks(relink, BATCH_SIZE):
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
            old_value=json_value(c.old),
            new_value=json_value(c.new),
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


# --- helpers ----------------------------------------------------------------------------


def _card_fill(card: Card, record: CardRecord, faction_ids: dict[str, int]) -> None:
    for name in RULES_FIELDS:
        if name not in ("faction", "attributes"):
            value = getattr(record, name)
            setattr(card, name, dict(value) if name == "fields" else value)
    card.faction_id = faction_ids[record.faction] if record.faction else None
    for column, value in card_search_columns(name=card.name, name_ja=card.name_ja, text=card.text).items():
        setattr(card, column, value)


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
        for chunk in chunks(rows, BATCH_SIZE):
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
            for row in rows:  # a JSON column (Card.fields) takes its value as JSON text
                copy.write_row([json.dumps(v) if isinstance(v, dict) else v for v in row])
        if key is not None:
            returning = f"{quote(meta.get_field(key).column)}, {quote(meta.pk.column)}"
            cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {target} RETURNING {returning}")
            ids.update(cursor.fetchall())
            cursor.execute(f"DROP TABLE {target}")
    return ids


def _create(model: type[_M], key: str, objs: list[_M]) -> dict[str, _M]:
    """bulk_create, then make sure every object has its primary key."""
    if not objs:
        return {}
    model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)
    if any(obj.pk is None for obj in objs):  # backends that cannot return inserted ids
        return rows_by_key(model, key, [getattr(obj, key) for obj in objs])
    return {getattr(obj, key): obj for obj in objs}


def _unique_slug(name: str, taken: set[str]) -> str:
    base = (slugify(name) or slugify(name, allow_unicode=True) or "faction")[:90]
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug
