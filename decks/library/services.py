"""Writes of My decks: tags, archiving and the trash (delete, restore, delete forever, the purge)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.models import TRASH_KEPT_DAYS, Deck, DeckTag, Visibility
from decks.revalidation.services import decks_rejudge
from decks.services import deck_delete
from decks.signals import deck_changed
from gatesite.errors import ApplicationError

MAX_TAGS = 20


def deck_tag_add(*, deck: Deck, name: str) -> DeckTag:
    """Put a tag on a deck (adding one it has already is a no-op); ApplicationError for an empty, long or 21st tag."""
    name = " ".join(name.split())
    max_length = DeckTag._meta.get_field("name").max_length
    if not name:
        raise ApplicationError(_("A tag needs a name."), field="name")
    if len(name) > max_length:
        raise ApplicationError(
            _("A tag is at most %(n)s characters: '%(name)s…'.") % {"n": max_length, "name": name[:max_length]},
            field="name",
        )
    with transaction.atomic():
        existing = DeckTag.objects.filter(deck=deck, name=name).first()
        if existing is not None:
            return existing
        if DeckTag.objects.filter(deck=deck).count() >= MAX_TAGS:
            raise ApplicationError(_("A deck has at most %(n)s tags.") % {"n": MAX_TAGS}, field="name")
        # get_or_create: a second request adding the same tag at the same moment finds the first one's row.
        tag, _created = DeckTag.objects.get_or_create(deck=deck, name=name)
    return tag


def deck_tag_remove(*, deck: Deck, name: str) -> None:
    DeckTag.objects.filter(deck=deck, name=name).delete()


def deck_archive_set(*, deck: Deck, archived: bool) -> Deck:
    """Archive a deck (hidden from My decks and browse, still readable by its link) or bring it back."""
    counted = deck.visibility == Visibility.PUBLIC and not deck.archived
    Deck.objects.filter(pk=deck.pk).update(archived=archived)
    deck.archived = archived
    deck_changed.send(sender=Deck, deck=deck, was_counted=counted)
    return deck


# ---------------------------------------------------------------- the trash


def deck_trash(*, deck: Deck) -> Deck:
    """Delete a deck in a way its owner can take back: it leaves every list, page, count and job at
    once (Deck.objects no longer sees it) and waits in their trash for TRASH_KEPT_DAYS, with its
    cards, versions, tags and visibility, until deck_restore or the purge. Trashing it again changes nothing.
    """
    counted = deck.visibility == Visibility.PUBLIC and not deck.archived
    now = timezone.now()
    with transaction.atomic():
        # .update(): the deck's "last change" stays the last change to its list, not its deletion.
        if not Deck.objects.filter(pk=deck.pk).update(trashed_at=now):
            return deck
        if deck.forked_from_id:
            # A trashed copy is no copy: the source counts only the copies players can see.
            Deck.everything.filter(pk=deck.forked_from_id, copies_count__gt=0).update(
                copies_count=F("copies_count") - 1
            )
        deck.trashed_at = now
        deck_changed.send(sender=Deck, deck=deck, was_counted=counted)
    return deck


def deck_restore(*, deck: Deck) -> Deck:
    """Bring a deck back from the trash as it was (cards, versions, tags, visibility, archived or not),
    judged again by today's rules: revalidation left it alone while it was in the trash."""
    with transaction.atomic():
        if not Deck.everything.filter(pk=deck.pk, trashed_at__isnull=False).update(trashed_at=None):
            return deck
        if deck.forked_from_id:
            Deck.everything.filter(pk=deck.forked_from_id).update(copies_count=F("copies_count") + 1)
        deck.trashed_at = None
        decks_rejudge(deck_ids=[deck.pk])
        deck_changed.send(sender=Deck, deck=deck)
    deck.refresh_from_db(fields=["legal", "judged_on", "illegal_since", "verdict_reason"])
    return deck


def deck_delete_forever(*, deck: Deck) -> None:
    """Delete a trashed deck now, with its cards, versions and tags (the trash's "Delete forever", once confirmed)."""
    if deck.trashed_at is None:
        raise ApplicationError(_("Only a deck in the trash can be deleted forever."), field="deck")
    deck_delete(deck=deck)


def decks_trash_purge(*, now: datetime | None = None) -> int:
    """Delete for good every deck trashed more than TRASH_KEPT_DAYS ago; the number deleted.

    What the daily beat job runs (decks.library.tasks): running it twice deletes nothing the second time.
    """
    cutoff = (now or timezone.now()) - timedelta(days=TRASH_KEPT_DAYS)
    # A plain delete: the trashed decks are counted nowhere (no statistics to mark stale, no copies to count).
    _deleted, by_model = Deck.everything.filter(trashed_at__lt=cutoff).delete()
    return by_model.get(Deck._meta.label, 0)
