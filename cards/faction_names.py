"""The factions' Japanese names, from data/factions.json into the faction table.

Card files name a card's faction in English only, so the import creates factions without a
Japanese name, and `f:ウォルナー` found nothing. data/factions.json gives the five real
factions' Japanese names; loading it (`manage.py load_factions`, run by `make data`) fills
them in: a faction the catalog lacks is created, a Japanese name an admin typed is kept
unless the file gives one (the file is the source), and the catalog's token changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils.text import slugify

from .catalog import catalog_version_bump
from .models import Faction

FACTIONS_FILE = Path(settings.BASE_DIR) / "data" / "factions.json"


class FactionFileError(ValueError):
    """A factions file that cannot be read; the message names the file, the row and the field."""


@dataclass(frozen=True)
class FactionNamesResult:
    created: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: int


def faction_names_parse(raw: bytes, *, source: str) -> dict[str, str]:
    """English name -> Japanese name, from a factions file's bytes: `[{"name": ..., "name_ja": ...}]`."""
    try:
        rows = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise FactionFileError(f"{source}: not JSON ({exc})") from exc
    if not isinstance(rows, list):
        raise FactionFileError(f"{source}: expected a list of factions")
    names: dict[str, str] = {}
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise FactionFileError(f"{source}, row {i}: expected an object with name and name_ja")
        for key in ("name", "name_ja"):
            value = row.get(key)
            if not isinstance(value, str) or not value.strip():
                raise FactionFileError(f"{source}, row {i}, field {key}: expected a non-empty string")
        if row["name"] in names:
            raise FactionFileError(f"{source}, row {i}, field name: {row['name']!r} is listed twice")
        names[row["name"].strip()] = row["name_ja"].strip()
    return names


@transaction.atomic
def faction_names_load(*, names: dict[str, str]) -> FactionNamesResult:
    """Give each faction its Japanese name (creating the factions the catalog lacks)."""
    existing = {f.name: f for f in Faction.objects.select_for_update().filter(name__in=names)}
    taken = set(Faction.objects.values_list("slug", flat=True))
    created, updated = [], []
    for name, name_ja in names.items():
        faction = existing.get(name)
        if faction is None:
            slug = _free_slug(slugify(name) or slugify(name_ja, allow_unicode=True) or "faction", taken)
            Faction.objects.create(name=name, name_ja=name_ja, slug=slug)
            created.append(name)
        elif faction.name_ja != name_ja:
            Faction.objects.filter(pk=faction.pk).update(name_ja=name_ja)
            updated.append(name)
    if created or updated:
        catalog_version_bump()
    return FactionNamesResult(tuple(created), tuple(updated), len(names) - len(created) - len(updated))


def _free_slug(base: str, taken: set[str]) -> str:
    slug, n = base[:90], 2
    while slug in taken:
        slug, n = f"{base[:90]}-{n}", n + 1
    taken.add(slug)
    return slug


@lru_cache(maxsize=1)
def faction_names_known() -> dict[str, str]:
    """The Japanese names data/factions.json gives ({} without the file): the import names new factions with them."""
    try:
        return faction_names_parse(FACTIONS_FILE.read_bytes(), source=str(FACTIONS_FILE))
    except (OSError, FactionFileError):
        # The file is optional for an import; `load_factions` reports what is wrong with it.
        return {}
