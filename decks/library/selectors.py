"""My decks, browse and compare: lists of decks and two decks side by side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet, Sum
from django.http import Http404, QueryDict

from cards.games import games
from cards.models import Faction, Geas, Ruler
from decks.library.filters import DeckFilter
from decks.models import Deck, DeckCard, DeckTag, Section, Visibility
from decks.saved_drafts import deck_draft_of
from decks.selectors import (
    deck_card_names,
    deck_get_for_viewer,
    deck_list_for_owner,
)
from decks.sharing.history import Comparison, deck_compare, snapshot_numbers


def deck_search_for_owner(*, user: Any, query: str = "", tag: str = "", show_archived: bool = False) -> QuerySet[Deck]:
    """The owner's decks searched by deck name, ruler/geas name or a card name, or by tag.

    Archived decks are left out unless `show_archived`.
    """
    decks = deck_list_for_owner(user=user)
    if not show_archived:
        decks = decks.filter(archived=False)
    if tag:
        decks = decks.filter(tags__name=tag)
    if query:
        plays = DeckCard.objects.filter(deck=OuterRef("pk"), printing__card__name__icontains=query).exclude(
            section=Section.CONSIDERING
        )
        decks = decks.filter(
            Q(name__icontains=query) | Q(ruler__name__icontains=query) | Q(geas__name__icontains=query) | Exists(plays)
        )
    return decks


@dataclass(frozen=True)
class MyDecks:
    """My decks as listed: each deck with `tag_names` set, and every tag the owner uses (for the tag filter)."""

    decks: list[Deck]
    tags: list[str]


def my_decks_get(*, user: Any, query: str = "", tag: str = "", show_archived: bool = False) -> MyDecks:
    """deck_search_for_owner's decks with their tags: two queries (the decks; all the owner's tags)."""
    decks = list(deck_search_for_owner(user=user, query=query, tag=tag, show_archived=show_archived))
    by_deck: dict[int, list[str]] = {}
    # Tags of decks in the trash are not offered: no listed deck has them.
    tags = DeckTag.objects.filter(deck__owner=user, deck__trashed_at__isnull=True)
    for deck_id, name in tags.order_by("name").values_list("deck_id", "name"):
        by_deck.setdefault(deck_id, []).append(name)
    for deck in decks:
        deck.tag_names = by_deck.get(deck.pk, [])  # type: ignore[attr-defined]
    return MyDecks(decks, sorted({name for names in by_deck.values() for name in names}))


def deck_public_list() -> QuerySet[Deck]:
    """Public, not archived decks: what browse lists (decks.library.filters.DeckFilter narrows and sorts it)."""
    return Deck.objects.filter(visibility=Visibility.PUBLIC, archived=False).select_related("ruler", "geas", "owner")


@dataclass(frozen=True)
class DeckComparison:
    a: Deck
    b: Deck
    comparison: Comparison


def deck_comparison_get(*, a: str, b: str, user: Any) -> DeckComparison:
    """Two decks `user` may read, compared card by card; Http404 as deck_get_for_viewer for either."""
    deck_a = deck_get_for_viewer(public_id=a, user=user)
    deck_b = deck_get_for_viewer(public_id=b, user=user)
    snapshot_a = deck_draft_of(deck=deck_a).to_snapshot()
    snapshot_b = deck_draft_of(deck=deck_b).to_snapshot()
    numbers = snapshot_numbers(snapshot_a) | snapshot_numbers(snapshot_b)
    return DeckComparison(deck_a, deck_b, deck_compare(snapshot_a, snapshot_b, names=deck_card_names(numbers=numbers)))


def deck_compare_choices(*, user: Any, compared: DeckComparison | None) -> list[tuple[str, str]]:
    """The decks compare's pickers offer: the owner's, plus someone else's deck compared by its link
    (so the form shows what is compared); none for an anonymous visitor."""
    if not user.is_authenticated:
        return []
    choices = deck_choices_for_owner(user=user)
    for deck in (compared.a, compared.b) if compared else ():
        if (deck.public_id, deck.name) not in choices:
            choices.append((deck.public_id, deck.name))
    return choices


BROWSE_PAGE_SIZE = 20


def deck_browse_get(*, params: QueryDict) -> dict[str, Any]:
    """Browse's page: public decks filtered and sorted by DeckFilter from the query string, a page of
    them, and the rulers, geases and factions its filters offer."""
    filterset = DeckFilter(params, queryset=deck_public_list())
    game = games().get(params.get("game") or "")
    return {
        "filterset": filterset,
        "games": [(slug, g.name) for slug, g in games().items()],
        # The ruler, geas and faction filters are a ruler's game's: shown for it, or when no game is chosen.
        "ruler_filters": game is None or game.identity == "ruler",
        "page_obj": Paginator(filterset.qs, BROWSE_PAGE_SIZE).get_page(params.get("page")),
        "rulers": Ruler.objects.values_list("slug", "name"),
        "geases": Geas.objects.values_list("slug", "name"),
        "factions": Faction.objects.values_list("slug", "name"),
    }


def deck_choices_for_owner(*, user: Any) -> list[tuple[str, str]]:
    """(public id, name) of the owner's decks by name, for pickers such as compare's (one query)."""
    return list(Deck.objects.filter(owner=user).order_by("name").values_list("public_id", "name"))


# ---------------------------------------------------------------- the trash


def deck_trash_list(*, user: Any) -> QuerySet[Deck]:
    """The owner's trashed decks, last deleted first, with their ruler, geas and main-deck size."""
    return (
        Deck.everything.filter(owner=user, trashed_at__isnull=False)
        .select_related("ruler", "geas")
        .annotate(size=Sum("cards__count", filter=Q(cards__section=Section.MAIN), default=0))
        .order_by("-trashed_at")
    )


def deck_trash_count(*, user: Any) -> int:
    """How many decks are in the owner's trash (My decks' "Trash (3)")."""
    return Deck.everything.filter(owner=user, trashed_at__isnull=False).count()


def deck_get_from_trash(*, public_id: str, user: Any) -> Deck:
    """The owner's trashed deck with this public id; Http404 for any other (someone else's, or not in the trash)."""
    deck = Deck.everything.filter(public_id=public_id, trashed_at__isnull=False).first()
    if deck is None or not user.is_authenticated or deck.owner_id != user.pk:
        raise Http404("No such deck in your trash.")
    return deck
