"""The deck page: a deck (or one past version) as a viewer may see it, judged afresh, with its history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import Max
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.models import Geas, Ruler
from decks.deck_view import DeckView, deck_view
from decks.models import Deck, DeckDraft, DeckVersion
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_card_names, deck_get_for_viewer, deck_is_owned_by, deck_is_readable_by
from decks.sharing.history import Changelog, deck_changelog, snapshot_numbers
from decks.wording import game_name
from gatesite.errors import ApplicationError


def _rules_labels(*, snapshots: Sequence[Mapping[str, Any]], known: Mapping[str, str]) -> dict[str, str]:
    """Ruler and geas names by slug, looked up only when the snapshots change them (usually no query)."""
    rulers = {s.get("ruler") for s in snapshots} - {None, ""}
    geases = {s.get("geas") for s in snapshots} - {None, ""}
    labels = dict(known)
    if len(rulers) > 1 and rulers - set(labels):
        labels.update(Ruler.objects.filter(slug__in=rulers - set(labels)).values_list("slug", "name"))
    changed = len(geases) > 1 or (geases and any(not s.get("geas") for s in snapshots))
    if changed and geases - set(labels):
        labels.update(Geas.objects.filter(slug__in=geases - set(labels)).values_list("slug", "name"))
    return labels


@dataclass(frozen=True)
class HistoryEntry:
    """One saved version of a deck and what that save changed."""

    # The number players read (DeckVersion.number: 1, 2, 3 … with no gaps).
    number: int
    # When the version was last saved (an editing session's autosaves are one version).
    created_at: Any
    changelog: Changelog
    name: str = ""


HISTORY_SHOWN = 10


def deck_history(
    *,
    deck: Deck,
    upto: int | None = None,
    limit: int = HISTORY_SHOWN,
    names: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> list[HistoryEntry]:
    """The latest `limit` versions of a deck up to version number `upto`, newest first, each with its changelog.

    One query for the versions (and the one before the oldest shown, to compare with), one for
    the names of cards `names` does not already give (none when it gives them all), one each
    for ruler and geas names the history changes and `labels` (by slug) does not give.
    """
    versions = DeckVersion.objects.filter(deck=deck)
    if upto is not None:
        versions = versions.filter(number__lte=upto)
    rows = list(
        versions.order_by("-number").values_list("number", "created_at", "snapshot", "updated_at", "name")[: limit + 1]
    )
    known = dict(names or {})
    numbers = {n for _, _, snap, _, _ in rows for n in snapshot_numbers(snap)}
    known.update(deck_card_names(numbers=numbers - set(known)))
    labels = _rules_labels(snapshots=[snap for _, _, snap, _, _ in rows], known=labels or {})
    entries = []
    for i, (number, created_at, snapshot, updated_at, name) in enumerate(rows[:limit]):
        before = rows[i + 1][2] if i + 1 < len(rows) else None
        changelog = deck_changelog(before, snapshot, names=known, labels=labels)
        if before is None and number > 1:
            # The version before this one is past the limit: say nothing rather than "created".
            continue
        entries.append(HistoryEntry(number, updated_at or created_at, changelog, name))
    return entries


def deck_version_get(*, deck: Deck, number: int) -> DeckVersion:
    """One saved version of a deck by the number players read; Http404 if the deck has no such version."""
    found = DeckVersion.objects.filter(deck=deck, number=number).first()
    if found is None:
        raise Http404("No such version of this deck.")
    return found


def deck_version_number_of_save(*, public_id: str, user: Any, save: int) -> int | None:
    """The number players read of the version kept at save counter `save`, or None.

    Before versions were numbered without gaps (migration 0009), /d/<id>/v/<n>/ took the save counter;
    such links are out in the world, so the page redirects them to the version they meant.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    return DeckVersion.objects.filter(deck=deck, version=save).values_list("number", flat=True).first()


@dataclass(frozen=True)
class DeckPage:
    """What a deck's page shows: the deck (as saved, or as one past version) judged afresh, and its history."""

    deck: Deck
    # None when the rules can no longer judge the deck (e.g. its geas is not in force); `problem` says why.
    view: DeckView | None
    problem: str
    history: list[HistoryEntry]
    # The deck this one was copied from, when the viewer may read it.
    source: Deck | None
    is_owner: bool
    # The number of the latest version (the N of "Version k of N"); None for a deck with no version kept.
    last_number: int | None = None

    def neighbours(self, number: int) -> tuple[int | None, int | None]:
        """On a past version's page: the numbers of the versions before and after it (None: none)."""
        last = self.last_number or number
        return (number - 1 if number > 1 else None, number + 1 if number < last else None)

    @property
    def description(self) -> str:
        """The description as saved in the version shown (a past version's may differ from today's)."""
        return self.view.draft.description if self.view else self.deck.description

    @property
    def summary(self) -> str:
        """One line for link previews: ruler (and geas, attribute) or identity card, and the verdict with its rules date."""
        # In the request's language (Open Graph previews too), names as the player reads them.
        if self.view is None:
            values = {"ruler": game_name(self.deck.ruler.name), "problem": self.problem}
            return _("%(ruler)s deck · cannot be judged: %(problem)s") % values
        choice = self.view.choice
        if choice is None:
            return _identity_card_summary(self.view)
        rules = game_name(choice.ruler.name)
        if choice.geas:
            rules = _("%(ruler)s with %(geas)s") % {"ruler": rules, "geas": choice.geas.name}
        if self.view.draft.attribute:
            rules += f" ({self.view.draft.attribute})"
        report = self.view.report
        count = len(report.violations)
        problems = ngettext("Not legal (%(n)s problem)", "Not legal (%(n)s problems)", count) % {"n": count}
        verdict = _("Legal") if report.legal else problems
        values = {"rules": rules, "n": self.view.main_count, "verdict": verdict, "on": f"{choice.on:%Y-%m-%d}"}
        return _("%(rules)s · %(n)s cards · %(verdict)s under the rules of %(on)s") % values


def _identity_card_summary(view: DeckView) -> str:
    """The link preview's line for a deck whose identity is a card: game, identity card, verdict."""
    identity = view.identity
    report = view.report
    count = len(report.violations)
    verdict = "Legal" if report.legal else f"Not legal ({count} problem{'s' if count != 1 else ''})"
    who = f" · {view.identity_label}: {identity.name}" if identity is not None else ""
    return f"{view.game.name}{who} · {view.main_count} cards · {verdict}"


def _judged(draft: DeckDraft, today: date | None) -> tuple[DeckView | None, str]:
    """The draft judged afresh, or why it cannot be."""
    try:
        return deck_view(draft=draft, today=today), ""
    except ApplicationError as exc:
        return None, exc.message


def deck_page_get(*, public_id: str, user: Any, version: int | None = None, today: date | None = None) -> DeckPage:
    """The deck page (or the page of version number `version`) as `user` may see it; Http404 like deck_get_for_viewer.

    Queries: the deck, its cards, the rules (1-2), the cards' facts, its versions, and the
    source deck when it is a copy; names of cards since removed cost one more.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if version is None:
        # The considering board is the owner's scratch space, not part of the shared deck.
        draft = replace(deck_draft_of(deck=deck), considering={})
    else:
        try:
            draft = DeckDraft.from_session(deck_version_get(deck=deck, number=version).snapshot)
        except (KeyError, TypeError, ValueError) as exc:
            raise Http404("This version of the deck cannot be read.") from exc
    view, problem = _judged(draft, today)
    names = {number: facts.name for number, facts in view.judgement.facts.items()} if view else {}
    labels = {}
    if view and view.choice:
        labels[view.choice.ruler.slug] = view.choice.ruler.name
        if view.choice.geas:
            labels[view.choice.geas.slug] = view.choice.geas.name
    history = deck_history(deck=deck, upto=version, limit=1 if version else HISTORY_SHOWN, names=names, labels=labels)
    source = None
    if deck.forked_from_id:
        source = Deck.objects.only("public_id", "name", "visibility", "owner_id").filter(pk=deck.forked_from_id).first()
        if source is not None and not deck_is_readable_by(deck=source, user=user):
            source = None
    if version is None:
        last_number = history[0].number if history else None
    else:
        last_number = DeckVersion.objects.filter(deck=deck).aggregate(last=Max("number"))["last"]
    owned = deck_is_owned_by(deck=deck, user=user)
    return DeckPage(deck, view, problem, history, source, owned, last_number=last_number)
