"""Load data/rules.json (rulers, geases and their revisions) into the database."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.text import slugify

from decks.rules.ruleset import RulesDataError, parse_geas, parse_ruler

from .catalog import catalog_version_bump
from .models import Geas, GeasRevision, Ruler, RulerRevision, RulesDocument
from .signals import revision_change_date, rules_changed_send_on_commit

RULES_FILE = Path(settings.BASE_DIR) / "data" / "rules.json"
SUPPORTED_FORMAT_VERSIONS = {1}


def data_sha256(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass
class RulesLoadResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    # Revisions edited in the admin since the last load, which differ from the file: kept
    # unless forced. With the top-level fields that differ, by label.
    kept_admin_edits: list[str] = field(default_factory=list)
    differences: dict[str, list[str]] = field(default_factory=dict)
    # Revisions in the database the file does not have (added in the admin): always kept.
    not_in_file: list[str] = field(default_factory=list)
    # Rulers and geases whose rules changed, by the date the change takes effect: their decks are re-judged.
    revalidate: dict[date, tuple[set[int], set[int]]] = field(default_factory=dict)
    # A document's key or source changed without its rules: the catalog's token must move all the same.
    renamed: bool = False


@dataclass(frozen=True)
class _Place:
    """Where a revision sits in the file: its document and its index in the document's list."""

    document: str
    source: str
    effective_from: date
    position: int


def rules_file_read(path: Path = RULES_FILE) -> dict[str, Any]:
    """Read and check the whole rules file before anything is written; errors name the entry."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"{path}: {exc}") from exc
    if payload.get("format_version") not in SUPPORTED_FORMAT_VERSIONS:
        raise RulesDataError(f"{path}: unsupported format_version {payload.get('format_version')!r}")
    ruler_names = {r["name"] for doc in payload["documents"] for r in doc.get("rulers", [])}
    for d, doc in enumerate(payload["documents"]):
        where = f"{path}: documents[{d}] ({doc.get('key')})"
        try:
            date.fromisoformat(doc["effective_from"])
        except (KeyError, ValueError) as exc:
            raise RulesDataError(f"{where}: effective_from must be a YYYY-MM-DD date") from exc
        for i, ruler in enumerate(doc.get("rulers", [])):
            try:
                parse_ruler(ruler)
            except RulesDataError as exc:
                raise RulesDataError(f"{where}: rulers[{i}] ({ruler.get('name')}): {exc}") from exc
        for i, geas in enumerate(doc.get("geases", [])):
            try:
                parse_geas(geas)
            except RulesDataError as exc:
                raise RulesDataError(f"{where}: geases[{i}] ({geas.get('name')}): {exc}") from exc
            if geas["target_ruler"] not in ruler_names:
                raise RulesDataError(
                    f"{where}: geases[{i}] ({geas['name']}): unknown target ruler {geas['target_ruler']!r}"
                )
    return payload


@transaction.atomic
def rules_load(*, path: Path = RULES_FILE, force: bool = False) -> RulesLoadResult:
    """Upsert every document, ruler, geas and revision of the rules file; a second run changes nothing.

    A revision an admin edited since the last load, and that now differs from the file, is
    kept and reported (kept_admin_edits, with the fields that differ) unless `force` is
    given, so `make run` never silently reverts a correction made in the admin; `dump_rules`
    writes such corrections into the file. Revisions the file does not have are kept and
    reported (not_in_file). A revision whose rules equal the file's is left alone.
    """
    payload = rules_file_read(path)
    result = RulesLoadResult()
    rulers = _rulers_upsert(payload["documents"])
    seen: set[tuple[type[RulerRevision] | type[GeasRevision], int]] = set()
    for number, doc in enumerate(payload["documents"]):
        _document_upsert(doc, position=number)
        effective_from = date.fromisoformat(doc["effective_from"])
        for position, data in enumerate(doc.get("rulers", [])):
            place = _Place(doc["key"], doc.get("source", ""), effective_from, position)
            owner = {"ruler": rulers[data["name"]]}
            seen.add((RulerRevision, _revision_upsert(RulerRevision, owner, place, data, force, result)))
        for position, data in enumerate(doc.get("geases", [])):
            place = _Place(doc["key"], doc.get("source", ""), effective_from, position)
            owner = {"geas": _geas_upsert(data, rulers)}
            seen.add((GeasRevision, _revision_upsert(GeasRevision, owner, place, data, force, result)))
    result.not_in_file = _revisions_not_in_file(seen)
    if result.created or result.updated or result.renamed:
        # save() bumps already (cards.catalog's receivers); this keeps it so if a step turns into a bulk write.
        catalog_version_bump()
    _rules_changed_announce(result)
    return result


def _document_upsert(doc: dict[str, Any], *, position: int) -> None:
    """The document's title, source, date and place in the file, written only if they changed."""
    values = {
        "title": doc.get("title") or "",
        "source": doc.get("source") or "",
        "effective_from": date.fromisoformat(doc["effective_from"]),
        "position": position,
    }
    document = RulesDocument.objects.filter(key=doc["key"]).first()
    if document is None:
        RulesDocument.objects.create(key=doc["key"], **values)
    elif any(getattr(document, k) != v for k, v in values.items()):
        RulesDocument.objects.filter(pk=document.pk).update(**values)


def _geas_upsert(data: dict[str, Any], rulers: dict[str, Ruler]) -> Geas:
    ruler = rulers[data["target_ruler"]]
    geas, created = Geas.objects.get_or_create(
        slug=slugify(data["name"]), defaults={"name": data["name"], "ruler": ruler}
    )
    if not created and geas.ruler_id != ruler.pk:
        geas.ruler = ruler
        geas.save(update_fields=["ruler"])
    return geas


def _revisions_not_in_file(seen: set[tuple[type[RulerRevision] | type[GeasRevision], int]]) -> list[str]:
    labels = []
    for model, owner in ((RulerRevision, "ruler"), (GeasRevision, "geas")):
        ids = {pk for m, pk in seen if m is model}
        for revision in model.objects.select_related(owner).exclude(pk__in=ids).order_by("effective_from", "pk"):
            labels.append(
                f"{getattr(revision, owner).name} ({revision.document or 'no document'}, from {revision.effective_from})"
            )
    return labels


def _rules_changed_announce(result: RulesLoadResult) -> None:
    """Once the load commits, say whose rules changed from which date (decks re-judge their decks)."""
    for since, (ruler_ids, geas_ids) in sorted(result.revalidate.items()):
        rules_changed_send_on_commit(sender=rules_load, ruler_ids=ruler_ids, geas_ids=geas_ids, since=since)


def _revalidate_note(result: RulesLoadResult, owner: dict[str, Any], effective_from: date) -> None:
    rulers, geases = result.revalidate.setdefault(revision_change_date(effective_from), (set(), set()))
    if "ruler" in owner:
        rulers.add(owner["ruler"].pk)
    else:
        geases.add(owner["geas"].pk)


def _rulers_upsert(documents: list[dict[str, Any]]) -> dict[str, Ruler]:
    """Every ruler's identity; the most recent document that lists a ruler gives its code and order."""
    identities: dict[str, dict[str, Any]] = {}
    for doc in sorted(documents, key=lambda d: d["effective_from"]):
        for position, data in enumerate(doc.get("rulers", []), start=1):
            identities[data["name"]] = {
                "slug": slugify(data["name"]),
                "code": data.get("code") or "",
                "number": data.get("number"),
                "name_ja": data.get("name_ja") or "",
                "position": position,
            }
    rulers = {}
    for name, identity in identities.items():
        ruler = Ruler.objects.filter(slug=identity["slug"]).first()
        if ruler is None:
            ruler = Ruler.objects.create(name=name, **identity)
        elif any(getattr(ruler, k) != v for k, v in identity.items()) or ruler.name != name:
            for key, value in identity.items():
                setattr(ruler, key, value)
            ruler.name = name
            ruler.save()
        rulers[name] = ruler
    return rulers


def _revision_upsert(
    model: type[RulerRevision] | type[GeasRevision],
    owner: dict[str, Any],
    place: _Place,
    data: dict[str, Any],
    force: bool,
    result: RulesLoadResult,
) -> int:
    """Create, update, keep (an admin edit) or leave alone one revision; its id."""
    label = f"{data['name']} ({place.document})"
    loaded = {"loaded_sha256": data_sha256(data), "loaded_json": json.dumps(data, ensure_ascii=False)}
    where = {"document": place.document, "source": place.source, "position": place.position}
    revision = model.objects.filter(**owner, effective_from=place.effective_from).first()
    if revision is None:
        revision = model.objects.create(**owner, effective_from=place.effective_from, data=data, **loaded, **where)
        result.created.append(label)
        _revalidate_note(result, owner, place.effective_from)
        return revision.pk
    current = data_sha256(revision.data)
    if current == loaded["loaded_sha256"]:
        # The file's rules already (perhaps an admin edit the file has caught up with, through
        # dump_rules): record what was loaded and where, without touching the rules.
        _revision_sync(revision, {**loaded, **where}, result)
        result.unchanged += 1
        return revision.pk
    if current != revision.loaded_sha256 and not force:
        result.kept_admin_edits.append(label)
        result.differences[label] = sorted(
            k for k in revision.data.keys() | data.keys() if revision.data.get(k) != data.get(k)
        )
        return revision.pk
    revision.data = data
    for name, value in {**loaded, **where}.items():
        setattr(revision, name, value)
    revision.save()
    result.updated.append(label)
    _revalidate_note(result, owner, place.effective_from)
    return revision.pk


def _revision_sync(revision: RulerRevision | GeasRevision, values: dict[str, Any], result: RulesLoadResult) -> None:
    """Write the values that differ with an UPDATE: no save(), so updated_at and the parsed-rules cache stay."""
    changed = {name: value for name, value in values.items() if getattr(revision, name) != value}
    if changed:
        type(revision).objects.filter(pk=revision.pk).update(**changed)
        result.renamed |= bool(changed.keys() & {"document", "source"})
