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
from .models import Geas, GeasRevision, Ruler, RulerRevision
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
    kept_admin_edits: list[str] = field(default_factory=list)
    # Rulers and geases whose rules changed, by the date the change takes effect: their decks are re-judged.
    revalidate: dict[date, tuple[set[int], set[int]]] = field(default_factory=dict)


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
    """Upsert every ruler, geas and revision of the rules file; a second run changes nothing.

    A revision an admin edited since the last load is kept unless `force` is given, so
    `make run` never silently reverts a correction made in the admin.
    """
    payload = rules_file_read(path)
    result = RulesLoadResult()
    rulers = _rulers_upsert(payload["documents"])
    for doc in payload["documents"]:
        effective_from = date.fromisoformat(doc["effective_from"])
        source = doc.get("source", "")
        for data in doc.get("rulers", []):
            owner = {"ruler": rulers[data["name"]]}
            _revision_upsert(
                RulerRevision,
                owner,
                effective_from,
                doc["key"],
                source,
                data,
                force,
                result,
            )
        for data in doc.get("geases", []):
            ruler = rulers[data["target_ruler"]]
            geas, created = Geas.objects.get_or_create(
                slug=slugify(data["name"]),
                defaults={"name": data["name"], "ruler": ruler},
            )
            if not created and geas.ruler_id != ruler.pk:
                geas.ruler = ruler
                geas.save(update_fields=["ruler"])
            _revision_upsert(
                GeasRevision,
                {"geas": geas},
                effective_from,
                doc["key"],
                source,
                data,
                force,
                result,
            )
    if result.created or result.updated:
        # save() bumps already (cards.catalog's receivers); this keeps it so if a step turns into a bulk write.
        catalog_version_bump()
    _rules_changed_announce(result)
    return result


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
    effective_from: date,
    document: str,
    source: str,
    data: dict[str, Any],
    force: bool,
    result: RulesLoadResult,
) -> None:
    label = f"{data['name']} ({document})"
    sha = data_sha256(data)
    revision = model.objects.filter(**owner, effective_from=effective_from).first()
    if revision is None:
        model.objects.create(
            **owner,
            effective_from=effective_from,
            document=document,
            source=source,
            data=data,
            loaded_sha256=sha,
        )
        result.created.append(label)
        _revalidate_note(result, owner, effective_from)
        return
    current = data_sha256(revision.data)
    if current == sha and revision.loaded_sha256 == sha and revision.document == document:
        result.unchanged += 1
        return
    if current != revision.loaded_sha256 and not force:
        result.kept_admin_edits.append(label)
        return
    revision.data, revision.loaded_sha256 = data, sha
    revision.document, revision.source = document, source
    revision.save()
    result.updated.append(label)
    _revalidate_note(result, owner, effective_from)
