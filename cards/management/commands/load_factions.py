from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.faction_names import FACTIONS_FILE, FactionFileError, faction_names_load, faction_names_parse


class Command(BaseCommand):
    help = (
        "Give the factions their Japanese names from data/factions.json (idempotent): "
        "factions the catalog lacks are created, so `f:ウォルナー` finds Volnar's cards."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--file", type=Path, default=FACTIONS_FILE, help="Factions file (default: data/factions.json)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            names = faction_names_parse(path.read_bytes(), source=str(path))
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        except FactionFileError as exc:
            raise CommandError(str(exc)) from exc
        result = faction_names_load(names=names)
        self.stdout.write(
            f"Faction names loaded: {len(result.created)} created, {len(result.updated)} updated, "
            f"{result.unchanged} unchanged."
        )
