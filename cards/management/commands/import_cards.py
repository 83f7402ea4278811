from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.tasks import CardImportRejectedError, import_files


class Command(BaseCommand):
    help = (
        "Import card set files (.json or .csv) through the cards.import_files task. "
        "A file with any bad row is rejected whole and nothing is written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="Set files, .json or .csv.")

    def handle(self, *args: Any, **options: Any) -> None:
        # Absolute paths: a worker on this machine may run in another directory.
        paths: list[str] = [str(Path(p).resolve()) for p in options["files"]]
        try:
            # Eager without REDIS_URL (runs here, same code path); otherwise a worker runs it.
            counts = import_files.delay(paths).get(timeout=settings.CELERY_TASK_TIME_LIMIT)
        except CardImportRejectedError as exc:
            raise CommandError(f"Nothing imported.\n{exc}") from exc
        self.stdout.write(self.style.SUCCESS(import_summary(counts)))


def import_summary(counts: dict[str, int]) -> str:
    files = counts["files"]

    def part(kind: str) -> str:
        total = sum(counts[f"{kind}_{k}"] for k in ("created", "updated", "unchanged"))
        return (
            f"{total} {kind} ({counts[f'{kind}_created']} new, "
            f"{counts[f'{kind}_updated']} updated, {counts[f'{kind}_unchanged']} unchanged)"
        )

    return (
        f"Imported {files} file{'s' if files != 1 else ''}: {part('cards')}, "
        f"{part('printings')}, {part('sets')}; "
        f"{counts['factions_created']} new factions, "
        f"{counts['attributes_created']} new attributes."
    )
