"""Writes of the deck page: who may read a deck, and copying one into your decks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext, gettext_noop

from decks.models import Deck
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft

# The copy's name in the language of the player who copies it ("Copy of …", 「…のコピー」): it is theirs to rename.
COPY_NAME = gettext_noop("Copy of %(name)s")


def deck_copy(*, source: Deck, owner: Any) -> Deck:
    """Copy a deck into `owner`'s decks: private, named "Copy of …", linked to its source.

    The source's copy count goes up in the same transaction with an F() update, so copies
    made at the same moment are all counted. The considering board is the source owner's
    scratch space and is not copied.
    """
    draft = replace(deck_draft_of(deck=source), considering={})
    named = gettext(COPY_NAME)
    # The source's name shortened, never the words around it, so a long name still reads as a copy.
    room = Deck._meta.get_field("name").max_length - len(named % {"name": ""})
    name = named % {"name": source.name[:room]}
    with transaction.atomic():
        copy = deck_create_from_draft(owner=owner, draft=draft, name=name)
        Deck.objects.filter(pk=copy.pk).update(forked_from=source)
        copy.forked_from = source
        Deck.objects.filter(pk=source.pk).update(copies_count=F("copies_count") + 1)
    return copy
