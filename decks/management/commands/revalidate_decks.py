from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.models import Card, Geas, Ruler
from decks.revalidation.services import decks_revalidate


class Command(BaseCommand):
    help = (
        "Re-judge the stored decks of rulers, geases or cards now, in this process, and record their verdicts "
        "(what the Celery job does after a rules or card change)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruler", action="append", default=[], help="Ruler slug (repeatable).")
        parser.add_argument("--geas", action="append", default=[], help="Geas slug (repeatable).")
        parser.add_argument("--card", action="append", default=[], help="Card name (repeatable).")
        parser.add_argument("--all", action="store_true", help="Every stored deck, of every game.")
        parser.add_argument(
            "--since", type=date.fromisoformat, help="Date a deck turned illegal is recorded as (today)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rulers = _ids(Ruler, "slug", options["ruler"])
        geases = _ids(Geas, "slug", options["geas"])
        cards = _ids(Card, "name", options["card"])
        if not (rulers or geases or cards or options["all"]):
            raise CommandError("Name what changed: --ruler, --geas, --card or --all.")
        result = decks_revalidate(
            ruler_ids=rulers, geas_ids=geases, card_ids=cards, every_deck=options["all"], since=options["since"]
        )
        self.stdout.write(
            f"{result.checked} decks judged: {result.changed} verdicts written, "
            f"{result.became_illegal} became illegal, {result.became_legal} legal again."
        )


def _ids(model: Any, field: str, values: list[str]) -> list[int]:
    found = dict(model.objects.filter(**{f"{field}__in": values}).values_list(field, "pk"))
    missing = [v for v in values if v not in found]
    if missing:
        raise CommandError(f"No {model._meta.verbose_name} with {field} {', '.join(repr(m) for m in missing)}.")
    return [found[v] for v in values]
