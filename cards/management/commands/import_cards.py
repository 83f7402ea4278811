from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.tasks import CardImportRejectedError, import_files, import_files_outcome

# Seconds between looks at a worker's progress.
POLL_EVERY = 0.2


class Command(BaseCommand):
    help = (
        "Import card set files (.json or .csv) through the cards.import_files task. "
        "A file with any bad row is rejected whole and nothing is written. "
        "Changed rules fields of existing cards are recorded as errata."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="Set files, .json or .csv.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Print what the import would change (new cards and printings, changed fields) and write nothing.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Absolute paths: a worker on this machine may run in another directory.
        paths: list[str] = [str(Path(p).resolve()) for p in options["files"]]
        dry_run: bool = options["dry_run"]
        progress = _Progress(self.stdout, plain=options["verbosity"] >= 2)
        try:
            if settings.CELERY_TASK_ALWAYS_EAGER:
                # No broker: the task would run right here, so run its body with a live progress bar.
                outcome = import_files_outcome(paths=paths, dry_run=dry_run, progress=progress.show)
            else:
                outcome = self._through_worker(paths, dry_run, progress)
        except CardImportRejectedError as exc:
            raise CommandError(f"Nothing imported.\n{exc}") from exc
        finally:
            progress.close()
        if dry_run:
            self.stdout.write("Dry run: nothing written.")
            self.stdout.write(import_summary(outcome, verb="Would import"))
            for line in diff_lines(outcome["diff"]):
                self.stdout.write(line)
            return
        self.stdout.write(self.style.SUCCESS(import_summary(outcome)))
        changed = diff_lines(outcome["diff"], sections=("changed_cards", "changed_printings", "changed_sets"))
        for line in changed:
            self.stdout.write(line)
        if outcome.get("errata"):
            self.stdout.write(f"{outcome['errata']} errata recorded.")

    def _through_worker(self, paths: list[str], dry_run: bool, progress: _Progress) -> dict[str, Any]:
        result = import_files.delay(paths, dry_run=dry_run)
        deadline = time.monotonic() + settings.CELERY_TASK_TIME_LIMIT
        while not result.ready():
            if time.monotonic() > deadline:
                raise CommandError(f"No answer from the worker after {settings.CELERY_TASK_TIME_LIMIT} s.")
            info = result.info if result.state == "PROGRESS" else None
            if isinstance(info, dict):
                progress.show(info.get("done", 0), info.get("total", 0))
            time.sleep(POLL_EVERY)
        return result.get(timeout=settings.CELERY_TASK_TIME_LIMIT)


class _Progress:
    """A bar redrawn in place on a terminal; plain lines when asked (-v 2); otherwise silent."""

    WIDTH = 30

    def __init__(self, stream: Any, *, plain: bool) -> None:
        self.stream: TextIO = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.plain = plain and not self.tty
        self.drawn = False
        self.last_line = ""

    def show(self, done: int, total: int) -> None:
        if self.tty:
            filled = self.WIDTH * done // total if total else self.WIDTH
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self.stream.write(f"\rChecking rows [{bar}] {done}/{total}", ending="")
            self.stream.flush()
            self.drawn = True
        elif self.plain:
            line = f"Checked {done}/{total} rows"
            if line != self.last_line:
                self.stream.write(line)
                self.last_line = line

    def close(self) -> None:
        if self.drawn:
            self.stream.write("")  # end the bar's line
            self.drawn = False


def import_summary(counts: dict[str, Any], *, verb: str = "Imported") -> str:
    files = counts["files"]

    def part(kind: str) -> str:
        total = sum(counts[f"{kind}_{k}"] for k in ("created", "updated", "unchanged"))
        return (
            f"{total} {kind} ({counts[f'{kind}_created']} new, "
            f"{counts[f'{kind}_updated']} updated, {counts[f'{kind}_unchanged']} unchanged)"
        )

    return (
        f"{verb} {files} file{'s' if files != 1 else ''}: {part('cards')}, "
        f"{part('printings')}, {part('sets')}; "
        f"{counts['factions_created']} new factions, "
        f"{counts['attributes_created']} new attributes."
    )


SECTIONS = (
    "new_sets",
    "changed_sets",
    "new_factions",
    "new_attributes",
    "new_cards",
    "changed_cards",
    "new_printings",
    "changed_printings",
)


def diff_lines(diff: dict[str, Any], *, sections: tuple[str, ...] = SECTIONS) -> list[str]:
    """The diff of an import (services.CatalogPlan.diff) as text, one entry per line."""
    lines: list[str] = []
    for key in sections:
        section = diff.get(key) or {"total": 0, "items": []}
        if not section["total"]:
            continue
        lines.append(f"{key.replace('_', ' ').capitalize()} ({section['total']}):")
        for item in section["items"]:
            lines.extend(_item_lines(key, item))
        hidden = section["total"] - len(section["items"])
        if hidden > 0:
            lines.append(f"  … and {hidden} more")
    return lines


def _item_lines(key: str, item: dict[str, Any]) -> list[str]:
    if key == "new_sets":
        return [f"  {item['code']} {item['name']} ({item['release_date'] or 'no release date'})"]
    if key in ("new_factions", "new_attributes"):
        return [f"  {item['name']}"]
    if key == "new_cards":
        level = "" if item["level"] is None else f", level {item['level']}"
        return [f"  {item['name']} ({item['type']}{', ' + item['faction'] if item['faction'] else ''}{level})"]
    if key == "new_printings":
        return [
            f"  {item['collector_number']} {item['name']} [{item['set']}{', ' + item['rarity'] if item['rarity'] else ''}]"
        ]
    title = item.get("name") or item.get("collector_number") or item.get("code")
    return [f"  {title}"] + [f"    {c['field']}: {_show(c['old'])} → {_show(c['new'])}" for c in item["changes"]]


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
