from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.rules_dump import rules_data_dump, rules_file_text


class Command(BaseCommand):
    help = (
        "Write every ruler, geas and rules revision in the database in the format of data/rules.json, "
        "to stdout or to a file (-o). Loading data/rules.json and dumping it gives the same bytes; "
        "`dump_rules -o data/rules.json` puts corrections made in the admin into the file, and a "
        "load_rules of a freshly dumped file changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write to FILE instead of stdout.")

    def handle(self, *args: Any, **options: Any) -> None:
        text = rules_file_text(rules_data_dump())
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(text, ending="")
            return
        output.write_text(text, encoding="utf-8")
        self.stderr.write(f"Rules written to {output}.")
