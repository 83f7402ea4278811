"""What the revalidation tests share: the day they judge on, the day a change is dated, and the stored verdicts."""

from __future__ import annotations

import datetime

from decks.models import Deck

TODAY = datetime.date(2026, 11, 22)
CHANGED_ON = datetime.date(2026, 11, 20)
VERDICT = ("legal", "judged_on", "illegal_since", "verdict_reason", "updated_at")


def verdicts() -> dict[int, tuple[object, ...]]:
    """Every deck's stored verdict (and updated_at, which a verdict must leave alone), by deck id."""
    return {d["pk"]: tuple(d[f] for f in VERDICT) for d in Deck.objects.values("pk", *VERDICT)}
