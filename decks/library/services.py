"""Writes of My decks: tags and archiving."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from decks.models import Deck, DeckTag, Visibility
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
