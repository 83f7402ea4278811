"""Reads of the catalog and the rules, shaped for the engine and the API."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Prefetch, Q, QuerySet

from decks.rules.ruleset import RulesDataError, RulesInForce, rules_in_force
from decks.rules.types import CardFacts
from gatesite.errors import ApplicationError

from .models import Attribute, Card, Geas, GeasRevision, Printing, Ruler, RulerRevision


def ruler_list() -> QuerySet[Ruler]:
    return Ruler.objects.all()


def ruler_revision_in_force(*, ruler: Ruler, on: date) -> RulerRevision | None:
    return ruler.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


def geas_revision_in_force(*, geas: Geas, on: date) -> GeasRevision | None:
    return geas.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


@dataclass(frozen=True)
class RulesChoice:
    ruler: Ruler
    geas: Geas | None
    on: date
    ruler_revision: RulerRevision
    geas_revision: GeasRevision | None
    rules: RulesInForce


# Parsed rules keyed by the revisions (and their last edit) they came from: parsing is pure,
# so a cached result is exact until an admin edits a revision.
_rules_cache: dict[tuple[object, ...], RulesInForce] = {}


def rules_choice_get(*, ruler_slug: str, geas_slug: str | None, on: date) -> RulesChoice:
    """The rules in force for a ruler (and geas) on a date; ApplicationError names what is wrong."""
    ruler = Ruler.objects.filter(slug=ruler_slug).first()
    if ruler is None:
        raise ApplicationError(f"Unknown ruler '{ruler_slug}'.", field="ruler")
    geas = None
    if geas_slug:
        geas = Geas.objects.select_related("ruler").filter(slug=geas_slug).first()
        if geas is None:
            raise ApplicationError(f"Unknown geas '{geas_slug}'.", field="geas")
        if geas.ruler_id != ruler.pk:
            raise ApplicationError(
                f"{geas.name} is an oath for {geas.ruler.name}, not for {ruler.name}.",
                field="geas",
            )
    ruler_revision = ruler_revision_in_force(ruler=ruler, on=on)
    if ruler_revision is None:
        first = ruler.revisions.order_by("effective_from").first()
        since = f"; its first rules are from {first.effective_from}" if first else ""
        raise ApplicationError(f"{ruler.name} has no rules in force on {on}{since}.", field="as_of")
    geas_revision = None
    if geas is not None:
        geas_revision = geas_revision_in_force(geas=geas, on=on)
        if geas_revision is None:
            first = geas.revisions.order_by("effective_from").first()
            since = f"; it is in force from {first.effective_from}" if first else ""
            raise ApplicationError(f"{geas.name} is not in force on {on}{since}.", field="as_of")
    key = (
        ruler_revision.pk,
        ruler_revision.updated_at,
        geas_revision.pk if geas_revision else None,
        geas_revision.updated_at if geas_revision else None,
    )
    rules = _rules_cache.get(key)
    if rules is None:
        try:
            rules = rules_in_force(ruler_revision.data, geas_revision.data if geas_revision else None)
        except RulesDataError as exc:
            raise ApplicationError(f"The rules data is broken: {exc}") from exc
        _rules_cache[key] = rules
    return RulesChoice(ruler, geas, on, ruler_revision, geas_revision, rules)


def card_queryset() -> QuerySet[Card]:
    return Card.objects.select_related("faction").prefetch_related(
        Prefetch("attributes", queryset=Attribute.objects.only("name")),
        Prefetch(
            "printings",
            queryset=Printing.objects.select_related("card_set").order_by("collector_number"),
        ),
    )


def card_facts(card: Card) -> CardFacts:
    """The engine's view of a card (expects card_queryset()'s prefetches)."""
    return CardFacts(
        name=card.name,
        type=card.type,
        faction=card.faction.name if card.faction else None,
        attributes=frozenset(a.name for a in card.attributes.all()),
        level=card.level,
        cnt=card.cnt,
        legend=card.legend,
        text=card.text,
        collector_numbers=tuple(p.collector_number for p in card.printings.all()),
    )


def cards_by_reference(*, numbers: Iterable[str], names: Iterable[str]) -> tuple[dict[str, Card], dict[str, Card]]:
    """Cards for the collector numbers and names a deck list uses, in two queries and their prefetches."""
    numbers, names = set(numbers), set(names)
    by_number: dict[str, Card] = {}
    by_name: dict[str, Card] = {}
    if not numbers and not names:
        return by_number, by_name
    cards = card_queryset().filter(Q(printings__collector_number__in=numbers) | Q(name__in=names)).distinct()
    for card in cards:
        by_name[card.name] = card
        for printing in card.printings.all():
            if printing.collector_number in numbers:
                by_number[printing.collector_number] = card
    return by_number, {k: v for k, v in by_name.items() if k in names}


def attribute_exists(name: str) -> bool:
    return Attribute.objects.filter(name=name).exists()
