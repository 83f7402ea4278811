"""The rules in the database written back in data/rules.json's format (manage.py dump_rules).

With load_rules this makes the file the one source of truth: an edit made in the admin is
dumped into the file and committed, and loading a freshly dumped file changes nothing.
Loading data/rules.json and dumping it gives the file back byte for byte.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from .models import GeasRevision, RulerRevision, RulesDocument
from .rules_loading import data_sha256

FORMAT_VERSION = 1
# A document the database has no RulesDocument for (a revision added in the admin) goes after the known ones.
_UNKNOWN_POSITION = 10_000


def rules_data_dump() -> dict[str, Any]:
    """Every document with its rulers' and geases' revisions, in the file's shape and order.

    Documents by their place in the file, then date; within one, revisions by their place in
    it (those added in the admin after, by name). A revision's data is written in the key
    order it was loaded in, unless it was edited since.
    """
    groups: dict[tuple[str, date], dict[str, Any]] = {}
    ordering: dict[tuple[str, date], tuple[int, date, str]] = {}
    for document in RulesDocument.objects.all():
        key = (document.key, document.effective_from)
        groups[key] = _document_head(document.key, document.title, document.source, document.effective_from)
        ordering[key] = (document.position, document.effective_from, document.key)
    revisions: list[tuple[str, RulerRevision | GeasRevision, str]] = [
        *(("rulers", r, r.ruler.name) for r in RulerRevision.objects.select_related("ruler")),
        *(("geases", r, r.geas.name) for r in GeasRevision.objects.select_related("geas")),
    ]
    placed: dict[tuple[str, date], list[tuple[str, tuple[bool, int, str], Any]]] = {}
    for kind, revision, name in revisions:
        key = (revision.document, revision.effective_from)
        if key not in groups:
            groups[key] = _document_head(revision.document, "", revision.source, revision.effective_from)
            ordering[key] = (_UNKNOWN_POSITION, revision.effective_from, revision.document)
        place = (revision.position is None, revision.position or 0, name)
        placed.setdefault(key, []).append((kind, place, _revision_data(revision)))
    for key, entries in placed.items():
        for kind, _, data in sorted(entries, key=lambda entry: entry[1]):
            groups[key][kind].append(data)
    return {"format_version": FORMAT_VERSION, "documents": [groups[key] for key in sorted(groups, key=ordering.get)]}


def rules_file_text(payload: dict[str, Any]) -> str:
    """The rules as data/rules.json writes them: two-space indents, characters as they are, a final newline."""
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _document_head(key: str, title: str, source: str, effective_from: date) -> dict[str, Any]:
    return {
        "key": key,
        "title": title,
        "source": source,
        "effective_from": effective_from.isoformat(),
        "rulers": [],
        "geases": [],
    }


def _revision_data(revision: RulerRevision | GeasRevision) -> Any:
    # PostgreSQL's jsonb reorders keys: the text load_rules stored has the file's order.
    if revision.loaded_json and data_sha256(revision.data) == revision.loaded_sha256:
        return json.loads(revision.loaded_json)
    return revision.data
