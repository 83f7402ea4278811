"""The deck page: a deck (or one past version) as a viewer may see it, judged afresh, with its history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import Max, Min, Q
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.models import Geas, Ruler
from decks.editor.state import DeckEditorState, deck_editor_state
from decks.models import Deck, DeckDraft, DeckVersion
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_card_names, deck_get_for_viewer, deck_is_owned_by, deck_is_readable_by
from decks.sharing.game_view import GameDeckView, game_deck_view, judged_by_its_cards
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

    version: int
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
    """The latest `limit` versions of a deck up to version `upto`, newest first, each with its changelog.

    One query for the versions (and the one before the oldest shown, to compare with), one for
    the names of cards `names` does not already give (none when it gives them all), one each
    for ruler and geas names the history changes and `labels` (by slug) does not give.
    """
    versions = DeckVersion.objects.filter(deck=deck)
    if upto is not None:
        versions = versions.filter(version__lte=upto)
    rows = list(
        versions.order_by("-version").values_list("version", "created_at", "snapshot", "updated_at", "name")[
            : limit + 1
        ]
    )
    known = dict(names or {})
    numbers = {n for _, _, snap, _, _ in rows for n in snapshot_numbers(snap)}
    known.update(deck_card_names(numbers=numbers - set(known)))
    labels = _rules_labels(snapshots=[snap for _, _, snap, _, _ in rows], known=labels or {})
    entries = []
    for i, (version, created_at, snapshot, updated_at, name) in enumerate(rows[:limit]):
        before = rows[i + 1][2] if i + 1 < len(rows) else None
        changelog = deck_changelog(before, snapshot, names=known, labels=labels)
        if before is None and version > 1:
            # The version before this one is past the limit: say nothing rather than "created".
            continue
        entries.append(HistoryEntry(version, updated_at or created_at, changelog, name))
    return entries


def deck_version_get(*, deck: Deck, version: int) -> DeckVersion:
    """One saved version of a deck; Http404 if the deck has no such version."""
    found = DeckVersion.objects.filter(deck=deck, version=version).first()
    if found is None:
        raise Http404("No such version of this deck.")
    return found


@dataclass(frozen=True)
class DeckPage:
    """What a deck's page shows: the deck (as saved, or as one past version) judged afresh, and its history."""

    deck: Deck
    # None when the rules can no longer judge the deck (e.g. its geas is not in force); `problem` says why.
    # Also None for a deck of a game whose identity is a card: `game_view` shows it.
    state: DeckEditorState | None
    problem: str
    history: list[HistoryEntry]
    # The deck this one was copied from, when the viewer may read it.
    source: Deck | None
    is_owner: bool
    # On a past version's page: the saved versions before and after it (None: none). Version
    # numbers have gaps where an editing session's autosaves were merged into one version.
    previous_version: int | None = None
    next_version: int | None = None
    game_view: GameDeckView | None = None

    @property
    def description(self) -> str:
        """The description as saved in the version shown (a past version's may differ from today's)."""
        if self.game_view is not None:
            return self.game_view.draft.description
        return self.state.draft.description if self.state else self.deck.description

    @property
    def summary(self) -> str:
        """One line for link previews: ruler (and geas, attribute) and the verdict with its rules date."""
        if self.game_view is not None:
            return _game_summary(self.game_view)
        # In the request's language (Open Graph previews too), names as the player reads them.
        if self.state is None:
            values = {"ruler": game_name(self.deck.ruler.name), "problem": self.problem}
            return _("%(ruler)s deck · cannot be judged: %(problem)s") % values
        choice = self.state.choice
        rules = game_name(choice.ruler.name)
        if choice.geas:
            rules = _("%(ruler)s with %(geas)s") % {"ruler": rules, "geas": choice.geas.name}
        if self.state.draft.attribute:
            rules += f" ({self.state.draft.attribute})"
        report = self.state.report
        count = len(report.violations)
        problems = ngettext("Not legal (%(n)s problem)", "Not legal (%(n)s problems)", count) % {"n": count}
        verdict = _("Legal") if report.legal else problems
        values = {"rules": rules, "n": self.state.main_count, "verdict": verdict, "on": f"{choice.on:%Y-%m-%d}"}
        return _("%(rules)s · %(n)s cards · %(verdict)s under the rules of %(on)s") % values


def _game_summary(view: GameDeckView) -> str:
    """The link preview's line for a deck of a game whose identity is a card: game, identity card, verdict."""
    identity = view.identity
    report = view.report
    count = len(report.violations)
    verdict = "Legal" if report.legal else f"Not legal ({count} problem{'s' if count != 1 else ''})"
    who = f" · {view.identity_label}: {identity.name}" if identity is not None else ""
    return f"{view.game.name}{who} · {view.main_count} cards · {verdict}"


def _judged(draft: DeckDraft, today: date | None) -> tuple[DeckEditorState | None, str, GameDeckView | None]:
    """The draft judged afresh: the editor's state (a ruler's deck) or the game's view, or why it cannot be."""
    try:
        if judged_by_its_cards(draft):
            return None, "", game_deck_view(draft=draft, today=today)
        return deck_editor_state(draft=draft, today=today), "", None
    except ApplicationError as exc:
        return None, exc.message, None


def deck_page_get(*, public_id: str, user: Any, version: int | None = None, today: date | None = None) -> DeckPage:
    """The deck page (or a past version's page) as `user` may see it; Http404 like deck_get_for_viewer.

    Queries: the deck, its cards, the rules (1-2), the cards' facts, its versions, and the
    source deck when it is a copy; names of cards since removed cost one more.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if version is None:
        # The considering board is the owner's scratch space, not part of the shared deck.
        draft = replace(deck_draft_of(deck=deck), considering={})
    else:
        try:
            draft = DeckDraft.from_session(deck_version_get(deck=deck, version=version).snapshot)
        except (KeyError, TypeError, ValueError) as exc:
            raise Http404("This version of the deck cannot be read.") from exc
    state, problem, game_view = _judged(draft, today)
    judgement = game_view.judgement if game_view else state.judgement if state else None
    names = {number: facts.name for number, facts in judgement.facts.items()} if judgement else {}
    labels = {}
    if state:
        labels[state.choice.ruler.slug] = state.choice.ruler.name
        if state.choice.geas:
            labels[state.choice.geas.slug] = state.choice.geas.name
    history = deck_history(deck=deck, upto=version, limit=1 if version else HISTORY_SHOWN, names=names, labels=labels)
    source = None
    if deck.forked_from_id:
        source = Deck.objects.only("public_id", "name", "visibility", "owner_id").filter(pk=deck.forked_from_id).first()
        if source is not None and not deck_is_readable_by(deck=source, user=user):
            source = None
    neighbours: dict[str, int | None] = {}
    if version is not None:
        neighbours = DeckVersion.objects.filter(deck=deck).aggregate(
            previous_version=Max("version", filter=Q(version__lt=version)),
            next_version=Min("version", filter=Q(version__gt=version)),
        )
    owned = deck_is_owned_by(deck=deck, user=user)
    return DeckPage(deck, state, problem, history, source, owned, **neighbours, game_view=game_view)
