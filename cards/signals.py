"""What the catalog announces: its rules or its cards' rules changed. The catalog never asks who listens.

`cards` sits below `decks` (import-linter: "The catalog sits below the decks"): it may not call
the decks' revalidation itself. It sends these signals instead, the way django.contrib.auth
sends user_logged_in, and `decks` connects its receivers in DecksConfig.ready().

Both are sent only once the change is committed (transaction.on_commit), so a receiver, or a
worker it enqueues, always reads the new rules. Outside a transaction they are sent at once.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

# Rulers' or geases' rules changed (a revision loaded, edited or deleted), or an admin asked to
# re-judge their decks. Arguments: ruler_ids and geas_ids (frozensets of ids), since (the date
# the change takes effect; None: today).
rules_changed = Signal()

# Existing cards' rules fields changed (an import or an admin edit; a translated name is not a
# rules change). Arguments: card_ids (frozenset of ids), since (the date the change takes
# effect; None: today).
cards_changed = Signal()


def rules_changed_send_on_commit(
    *, sender: object, ruler_ids: Collection[int] = (), geas_ids: Collection[int] = (), since: date | None = None
) -> None:
    """Send rules_changed once the caller's transaction commits; nothing when no ruler or geas changed."""
    if not (ruler_ids or geas_ids):
        return
    rulers, geases = frozenset(ruler_ids), frozenset(geas_ids)
    transaction.on_commit(lambda: rules_changed.send(sender=sender, ruler_ids=rulers, geas_ids=geases, since=since))


def cards_changed_send_on_commit(*, sender: object, card_ids: Collection[int], since: date | None = None) -> None:
    """Send cards_changed once the caller's transaction commits; nothing when no card changed."""
    if not card_ids:
        return
    cards = frozenset(card_ids)
    transaction.on_commit(lambda: cards_changed.send(sender=sender, card_ids=cards, since=since))


def revision_change_date(effective_from: date, *, today: date | None = None) -> date:
    """When a change to a rules revision takes effect: today, or the revision's own date if that is later."""
    today = today or timezone.localdate()
    return max(today, effective_from)
