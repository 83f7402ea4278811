from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.import_jobs import import_job_create_for_files, import_job_execute
from cards.importers.records import ImportFileError
from cards.models import ImportJob
from cards.services import card_files_read


class Command(BaseCommand):
    help = (
        "Import card set files (.json or .csv) as one import job, run right here: the job the admin's "
        "upload creates and a worker runs (cards.import_jobs), with a progress bar on a terminal. "
        "The files are imported together: if any row of any file is bad, nothing is written. "
        "Changed rules fields of existing cards are recorded as errata. The job is listed in the "
        "admin (Card catalog and rules > Import jobs)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="Set files, .json or .csv.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Print what the import would change (new cards and printings, changed fields) and write nothing.",
        )
        parser.add_argument(
            "--only-new",
            action="store_true",
            help=(
                "Add only the sets, cards and printings the catalog lacks; leave existing ones as they are "
                "(no errata). `make data` uses it, so a restart never reverts a newer import."
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # Absolute paths: error messages and the job's file names say exactly which file.
        paths: list[str] = [str(Path(p).resolve()) for p in options["files"]]
        progress = _Progress(self.stdout, plain=options["verbosity"] >= 2)
        try:
            files = card_files_read(paths=paths)
            # Not enqueued: this process runs the job, so a worker (if any) never races it.
            job = import_job_create_for_files(
                files=files, dry_run=options["dry_run"], only_new=options["only_new"], enqueue=False
            )
            del files
            ran = import_job_execute(job_id=job.pk, progress=progress.show)
        except ImportFileError as exc:
            raise CommandError(f"Nothing imported.\n{exc.message}") from exc
        finally:
            progress.close()
        if ran is None:  # only if the reaper handed it to a worker meanwhile
            raise CommandError(f"Import job #{job.pk} was taken over by a worker; see it in the admin.")
        if ran.status != ImportJob.Status.SUCCEEDED:
            raise CommandError(ran.error)
        self._report({**ran.counts, "dry_run": ran.dry_run, "diff": ran.diff})

    def _report(self, outcome: dict[str, Any]) -> None:
        if outcome["dry_run"]:
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
        if outcome.get("kept_existing"):
            self.stdout.write(
                f"Left {outcome['kept_existing']} existing sets, cards or printings as they are (--only-new)."
            )


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
