from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.rules_loading import RULES_FILE, rules_load
from decks.rules.ruleset import RulesDataError


class Command(BaseCommand):
    help = (
        "Load every ruler, geas and rules revision from data/rules.json (idempotent). "
        "A revision edited in the admin since the last load that differs from the file is kept and "
        "reported with the fields that differ; --force overwrites it from the file, or "
        "`dump_rules -o data/rules.json` puts the edit into the file. Revisions the file does not "
        "have (added in the admin) are kept and reported."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--file",
            type=Path,
            default=RULES_FILE,
            help="Rules file (default: data/rules.json).",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Overwrite revisions edited in the admin with the file's version (their decks are re-judged).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = rules_load(path=options["file"], force=options["force"])
        except RulesDataError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Rules loaded: {len(result.created)} created, {len(result.updated)} updated, {result.unchanged} unchanged."
        )
        for label in result.kept_admin_edits:
            fields = ", ".join(result.differences.get(label, [])) or "its data"
            self.stdout.write(
                self.style.WARNING(
                    f"Kept admin edit of {label}: differs from the file in {fields}; "
                    "use --force to overwrite, or dump_rules to write it into the file."
                )
            )
        for label in result.not_in_file:
            self.stdout.write(self.style.WARNING(f"Kept {label}: not in the file (added in the admin?)."))
