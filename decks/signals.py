"""Signals decks send: features that react to a deck change (statistics) connect in their AppConfig.ready().

Decks never import those features, as django.contrib.auth sends user_logged_in without knowing
who listens.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent by decks.services inside the write's transaction when a deck is saved, deleted (just before
# the delete), shared or archived. Arguments: `deck` (the Deck) and `was_counted` (True when the
# deck was public and unarchived before the change). A receiver that enqueues work must do it
# on commit (delay_on_commit): the change may still roll back.
deck_changed = Signal()
