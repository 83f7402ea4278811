"""Reads every deck feature shares: a deck as its owner, a viewer or a writer may get it, and its card lines."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q, QuerySet, Sum
from django.http import Http404

from cards.games import game_get
from cards.models import Printing
from cards.rules_selectors import rulers_and_geases_by_id

from .models import Deck, DeckCard, DeckVersion, Section, Visibility


def deck_get_for_owner(*, public_id: str, user: Any, write: bool = False) -> Deck:
    """The deck with this public id if `user` owns it.

    Http404 if there is no such deck; for someone else's deck, Http404 when reading in the editor
    and when writing to a private deck (its existence is not revealed), PermissionDenied (403) when
    writing to an unlisted or public one.
    """
    deck = _deck_with_rules(Deck.objects.filter(public_id=public_id))
    if deck is None:
        raise Http404("No such deck.")
    deck_owner_check(deck=deck, user=user, write=write)
    return deck


def deck_owner_check(*, deck: Deck, user: Any, write: bool = False) -> None:
    """deck_get_for_owner's answer to anyone but the owner of `deck` (one place for every getter of it).

    Http404 when reading in the editor and when writing to a private deck (its existence is not
    revealed), PermissionDenied (403) when writing to an unlisted or public one.
    """
    if not user.is_authenticated or deck.owner_id != user.pk:
        if write and deck.visibility != Visibility.PRIVATE:
            raise PermissionDenied("Only the owner can change this deck.")
        raise Http404("No such deck.")


def _deck_with_rules(decks: QuerySet[Deck]) -> Deck | None:
    """The one deck of `decks` (by its unique public id), its ruler and geas taken from the catalog memory.

    What select_related("ruler", "geas") gave, without the join and its columns on every request
    (nor the ordering of first(): a public id names one deck).
    """
    deck = next(iter(decks.order_by()[:1]), None)
    if deck is not None:
        deck_rules_attach(deck=deck)
    return deck


def deck_rules_attach(*, deck: Deck) -> None:
    """Give `deck` its ruler and geas from the catalog memory (what select_related gave, with no query)."""
    rulers, geases = rulers_and_geases_by_id()
    if deck.ruler_id is not None and deck.ruler_id in rulers:
        deck.ruler = rulers[deck.ruler_id]
    if deck.geas_id is not None and deck.geas_id in geases:
        deck.geas = geases[deck.geas_id]


def deck_get_for_viewer(*, public_id: str, user: Any) -> Deck:
    """The deck with this public id as `user` may read it: their own deck, or an unlisted or public one.

    Http404 for no such deck and for someone else's private deck (its existence is not revealed).
    """
    deck = _deck_with_rules(Deck.objects.select_related("owner").filter(public_id=public_id))
    if deck is None or (deck.visibility == Visibility.PRIVATE and not deck_is_owned_by(deck=deck, user=user)):
        raise Http404("No such deck.")
    return deck


def deck_latest_version_number(*, deck: Deck) -> int | None:
    """The number players read of the deck's latest version ("version 3" on its sheet); None if none is kept."""
    return DeckVersion.objects.filter(deck=deck).aggregate(last=Max("number"))["last"]


def deck_is_owned_by(*, deck: Deck, user: Any) -> bool:
    return bool(user.is_authenticated and deck.owner_id == user.pk)


def deck_list_for_owner(*, user: Any) -> QuerySet[Deck]:
    """The owner's decks, last changed first, with their ruler, geas and main-deck size."""
    return (
        Deck.objects.filter(owner=user)
        .select_related("ruler", "geas")
        .annotate(size=Sum("cards__count", filter=Q(cards__section=Section.MAIN), default=0))
        .order_by("-updated_at")
    )


def deck_get_for_change(*, public_id: str, user: Any) -> Deck:
    """The deck with this public id for a write by `user`, who must own it.

    Http404 where `user` may not even read it (someone else's private deck: its existence is not
    revealed); PermissionDenied (403) for someone else's unlisted or public deck.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if not deck_is_owned_by(deck=deck, user=user):
        raise PermissionDenied("Only the owner can change this deck.")
    return deck


def deck_is_readable_by(*, deck: Deck, user: Any) -> bool:
    return deck.visibility != Visibility.PRIVATE or deck_is_owned_by(deck=deck, user=user)


def deck_card_names(*, numbers: Iterable[str]) -> dict[str, str]:
    """Card names by collector number (one query; none for no numbers). Unknown numbers are left out."""
    numbers = set(numbers)
    if not numbers:
        return {}
    return dict(Printing.objects.filter(collector_number__in=numbers).values_list("collector_number", "card__name"))


def deck_api_queryset() -> QuerySet[Deck]:
    """Decks with everything a deck's API body shows, in the same query (owner, ruler, geas, source)."""
    return Deck.objects.select_related("owner", "ruler", "geas", "forked_from")


def deck_list_public() -> QuerySet[Deck]:
    """Public decks that are not archived: what anyone may list (GET /api/v1/decks/?public=true)."""
    return deck_api_queryset().filter(visibility=Visibility.PUBLIC, archived=False)


def deck_list_owned(*, user: Any) -> QuerySet[Deck]:
    """All of the user's decks, whatever their visibility, archived ones included."""
    return deck_api_queryset().filter(owner=user)


@dataclass(frozen=True)
class DeckCardLine:
    """One line of a saved deck as the API shows it."""

    number: str
    name: str
    count: int


def deck_card_lines(*, deck: Deck) -> dict[str, list[DeckCardLine]]:
    """The deck's main deck and resources, and its game's other sections (not the owner's considering board); one query."""
    lines: dict[str, list[DeckCardLine]] = {Section.MAIN: [], Section.RESOURCES: []}
    lines.update((key, []) for key in game_get(deck.game).section_keys())
    rows = (
        DeckCard.objects.filter(deck=deck, section__in=lines.keys())
        .order_by("section", "printing__collector_number")
        .values_list("section", "printing__collector_number", "printing__card__name", "count")
    )
    for section, number, name, count in rows:
        lines[section].append(DeckCardLine(number, name, count))
    return lines
