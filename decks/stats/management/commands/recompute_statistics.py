from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from decks.stats.models import StatisticsRun
from decks.stats.services import statistics_recompute


class Command(BaseCommand):
    help = "Recompute the statistics over public decks now, in this process (what the nightly Celery job does)."

    def handle(self, *args: Any, **options: Any) -> None:
        run = statistics_recompute(trigger=StatisticsRun.Trigger.COMMAND)
        if run is None:
            raise CommandError("Another recompute is running; its figures will be as fresh.")
        self.stdout.write(f"Statistics run #{run.pk}: {run.decks} public decks in {run.seconds:.1f} s.")
