"""Reads of the rules: which ruler's (and geas's) rules are in force on a date, parsed by the engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from django.utils.translation import gettext as _

from decks.rules.ruleset import RulesDataError, RulesInForce, in_force_on, rules_in_force
from gatesite.errors import ApplicationError

from .catalog import MAX_DERIVED, CatalogMemory, catalog_memory, catalog_remembered
from .models import Geas, GeasRevision, Ruler, RulerRevision
from .names import localized_name
from .rules_phrases import rules_document


def ruler_revision_in_force(*, ruler: Ruler, on: date) -> RulerRevision | None:
    return ruler.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


def geas_revision_in_force(*, geas: Geas, on: date) -> GeasRevision | None:
    return geas.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


def rulers_and_geases_by_id() -> tuple[dict[int, Ruler], dict[int, Geas]]:
    """Every ruler and geas (with its ruler) by id, read once per catalog version in this process.

    A deck names its ruler and geas by id: a saved deck read for its editor or its page takes them
    from here rather than joining them on every request (they are a few dozen rows). Shared by
    the requests of this process: read only.
    """
    return catalog_remembered(
        ("rulers-and-geases-by-id",),
        lambda: (
            {ruler.pk: ruler for ruler in Ruler.objects.all()},
            {geas.pk: geas for geas in Geas.objects.select_related("ruler")},
        ),
    )


_R = TypeVar("_R", RulerRevision, GeasRevision)


@dataclass(frozen=True)
class RulesChoice:
    ruler: Ruler
    geas: Geas | None
    on: date
    ruler_revision: RulerRevision
    geas_revision: GeasRevision | None
    rules: RulesInForce
    # Said with the verdict when the rules judged by are not those in force on `on` (a date before
    # the ruler's earliest recorded rules); empty otherwise.
    note: str = ""


# Parsed rules keyed by the revisions (and their last edit) they came from: parsing is pure,
# so a cached result is exact until an admin edits a revision.
_rules_cache: dict[tuple[object, ...], RulesInForce] = {}


def rules_choice_get(*, ruler_slug: str, geas_slug: str | None, on: date) -> RulesChoice:
    """The rules in force for a ruler (and geas) on a date; ApplicationError names what is wrong.

    The revisions of a slug (without their data) come from this process's catalog memory
    (cards.catalog: no query while the catalog is unchanged, one per slug after a change); the
    data is read and parsed only when the rules cache misses. The editor asks on every change
    and every search, the validate API on every request, nearly always for today: which
    revisions are in force for a ruler, geas and date is remembered with the catalog too.
    """
    memory = catalog_memory()
    key = (ruler_slug, geas_slug, on)
    found = memory.rules_in_force.get(key)
    if found is None:
        found = _in_force(memory, ruler_slug=ruler_slug, geas_slug=geas_slug, on=on)
        if len(memory.rules_in_force) >= MAX_DERIVED:  # a bound whatever dates clients ask about
            memory.rules_in_force.clear()
        memory.rules_in_force[key] = found
    ruler_revision, geas_revision, rules, earliest = found
    # The note is worded in the request's language, so it is not remembered.
    note = _earliest_rules_note(ruler_revision, on) if earliest else ""
    geas = geas_revision.geas if geas_revision else None
    return RulesChoice(ruler_revision.ruler, geas, on, ruler_revision, geas_revision, rules, note)


def _in_force(
    memory: CatalogMemory, *, ruler_slug: str, geas_slug: str | None, on: date
) -> tuple[RulerRevision, GeasRevision | None, RulesInForce, bool]:
    """The revisions in force, their rules, and whether the ruler's are its earliest (none recorded on `on`)."""
    ruler_revisions = _ruler_revisions(memory, ruler_slug)
    ruler_revision = in_force_on(_revision_dates(ruler_revisions), on)
    earliest = False
    if ruler_revision is None and ruler_revisions:
        # The documents record no rules of this ruler before its first revision (Appendix A's
        # rulers start on 2023-12-04, although a geas for them is in force from 2023-03-25): judge by
        # the earliest ones and say so, rather than refuse the date.
        ruler_revision = ruler_revisions[0]
        earliest = True
    geas_revision = None
    if geas_slug and ruler_revision is not None:
        geas_revision = in_force_on(_revision_dates(_geas_revisions(memory, geas_slug)), on)
    if ruler_revision is None or (
        geas_slug and (geas_revision is None or geas_revision.geas.ruler_id != ruler_revision.ruler_id)
    ):
        _rules_choice_refuse(ruler_slug=ruler_slug, geas_slug=geas_slug, on=on)
    assert ruler_revision is not None
    key = (
        ruler_revision.pk,
        ruler_revision.updated_at,
        geas_revision.pk if geas_revision else None,
        geas_revision.updated_at if geas_revision else None,
    )
    rules = _rules_cache.get(key)
    if rules is None:
        ruler_data = RulerRevision.objects.values_list("data", flat=True).get(pk=ruler_revision.pk)
        geas_data = (
            GeasRevision.objects.values_list("data", flat=True).get(pk=geas_revision.pk) if geas_revision else None
        )
        try:
            rules = rules_in_force(ruler_data, geas_data)
        except RulesDataError as exc:
            raise ApplicationError(f"The rules data is broken: {exc}") from exc
        _rules_cache[key] = rules
    return ruler_revision, geas_revision, rules, earliest


def _earliest_rules_note(revision: RulerRevision, on: date) -> str:
    first = revision.effective_from
    return _(
        "%(ruler)s's rules on %(on)s are not recorded: the earliest recorded are from %(first)s "
        "(%(document)s), and this deck is judged by them."
    ) % {
        "ruler": localized_name(revision.ruler.name),
        "on": on,
        "first": first,
        "document": rules_document(revision.document),
    }


def _ruler_revisions(memory: CatalogMemory, slug: str) -> tuple[RulerRevision, ...]:
    """A ruler's revisions with the ruler, oldest first (data deferred); remembered while the catalog is unchanged.

    The instances are shared by every request of this process until the catalog changes: read them, never save them.
    """
    revisions = memory.ruler_revisions.get(slug)
    if revisions is None:
        revisions = tuple(
            RulerRevision.objects.select_related("ruler")
            .defer("data", "loaded_json")
            .filter(ruler__slug=slug)
            .order_by("effective_from")
        )
        if revisions:  # an unknown slug is not remembered (see CatalogMemory)
            memory.ruler_revisions[slug] = revisions
    return revisions


def _geas_revisions(memory: CatalogMemory, slug: str) -> tuple[GeasRevision, ...]:
    """A geas's revisions with the geas, oldest first; as _ruler_revisions."""
    revisions = memory.geas_revisions.get(slug)
    if revisions is None:
        revisions = tuple(
            GeasRevision.objects.select_related("geas")
            .defer("data", "loaded_json")
            .filter(geas__slug=slug)
            .order_by("effective_from")
        )
        if revisions:
            memory.geas_revisions[slug] = revisions
    return revisions


def _revision_dates(revisions: Iterable[_R]) -> list[tuple[date, _R]]:
    return [(r.effective_from, r) for r in revisions]


def _rules_choice_refuse(*, ruler_slug: str, geas_slug: str | None, on: date) -> None:
    """Raise the ApplicationError that says why there are no rules for this choice."""
    ruler = Ruler.objects.filter(slug=ruler_slug).first()
    if ruler is None:
        raise ApplicationError(_("Unknown ruler '%(slug)s'.") % {"slug": ruler_slug}, field="ruler")
    geas = None
    if geas_slug:
        geas = Geas.objects.select_related("ruler").filter(slug=geas_slug).first()
        if geas is None:
            raise ApplicationError(_("Unknown geas '%(slug)s'.") % {"slug": geas_slug}, field="geas")
        if geas.ruler_id != ruler.pk:
            raise ApplicationError(
                _("%(geas)s is an oath for %(target)s, not for %(ruler)s.")
                % {"geas": geas.name, "target": localized_name(geas.ruler.name), "ruler": localized_name(ruler.name)},
                field="geas",
            )
    if ruler_revision_in_force(ruler=ruler, on=on) is None:
        first = ruler.revisions.order_by("effective_from").first()
        values = {"ruler": localized_name(ruler.name), "on": on, "first": first.effective_from if first else ""}
        message = (
            _("%(ruler)s has no rules in force on %(on)s; its first rules are from %(first)s.")
            if first
            else _("%(ruler)s has no rules in force on %(on)s.")
        )
        raise ApplicationError(message % values, field="as_of")
    if geas is not None and geas_revision_in_force(geas=geas, on=on) is None:
        first = geas.revisions.order_by("effective_from").first()
        values = {"geas": geas.name, "on": on, "first": first.effective_from if first else ""}
        message = (
            _("%(geas)s is not in force on %(on)s; it is in force from %(first)s.")
            if first
            else _("%(geas)s is not in force on %(on)s.")
        )
        raise ApplicationError(message % values, field="as_of")
    # Only reached if the catalog changed between the two looks.
    raise ApplicationError(
        _("No rules for %(ruler)s on %(on)s; try again.") % {"ruler": localized_name(ruler.name), "on": on},
        field="ruler",
    )
