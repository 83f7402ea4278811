"""Saved decks, and the draft a player edits.

A saved Deck belongs to one player; its cards are DeckCard rows (a printing, a section
and a count). A DeckDraft is the same deck as plain values: what the editor changes, what
an anonymous player keeps in the session, and what a save writes.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.games import default_game_slug, games
from decks.limits import MAX_LINE_COUNT, MAX_LINES, spoofing_refusal


def validate_displayed_text(value: str) -> None:
    """Refuse a deck name, description or tag holding a character that changes how it displays.

    The check of every entry point: the editor's forms, the tags form and the deck API
    (decks.api.fields) use this validator; the pure text and link readers, decks.limits directly.
    """
    refusal = spoofing_refusal(value)
    if refusal is not None:
        raise ValidationError(refusal, code="spoofing_character")


def new_public_id() -> str:
    """A short, unguessable id for URLs (never the sequential primary key)."""
    return secrets.token_urlsafe(8)


class Section(models.TextChoices):
    MAIN = "main", "Deck"
    RESOURCES = "resources", "Resources"
    CONSIDERING = "considering", "Considering"


# The sections a draft names on their own (Gate Ruler's, and the owner's considering board); every
# other section a game's data declares ("kingdom", "hero", "gates") is one of DeckDraft.others.
_OWN_SECTIONS = tuple(Section.values)


def game_sections() -> tuple[str, ...]:
    """Every section a deck may hold: Gate Ruler's, the considering board and each game's from its data."""
    keys = dict.fromkeys(_OWN_SECTIONS)
    for game in games().values():
        keys.update(dict.fromkeys(game.section_keys()))
    return tuple(keys)


def section_choices() -> list[tuple[str, str]]:
    """DeckCard.section's choices, read from the games' data (a callable: a new game's section needs no migration)."""
    labels = dict(Section.choices)
    for game in games().values():
        for section in game.sections:
            labels.setdefault(section.key, section.label)
    return list(labels.items())


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private (only you)")
    UNLISTED = "unlisted", _("Unlisted (anyone with the link)")
    PUBLIC = "public", _("Public (listed in browse)")


_PUBLIC_LISTED = models.Q(visibility="public", archived=False)

# How long a deck stays in its owner's trash before the daily purge deletes it for good.
TRASH_KEPT_DAYS = 30


class LiveDeckManager(models.Manager["Deck"]):
    """Decks not in the trash: every list, count, page and job reads decks through this one, so a
    trashed deck is gone everywhere without each query having to remember it."""

    def get_queryset(self) -> models.QuerySet[Deck]:
        return super().get_queryset().filter(trashed_at__isnull=True)


class Deck(models.Model):
    public_id = models.CharField(max_length=20, unique=True, default=new_public_id, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, max_length=5000)
    # The game the deck is of (data/games/<slug>.json); a Gate Ruler deck when a writer names none.
    game = models.CharField(max_length=40, default=default_game_slug, db_default=default_game_slug())
    # A game whose identity is a ruler (Gate Ruler) has one; a game whose identity is a card has none.
    ruler = models.ForeignKey("cards.Ruler", null=True, blank=True, on_delete=models.PROTECT, related_name="decks")
    geas = models.ForeignKey("cards.Geas", null=True, blank=True, on_delete=models.PROTECT, related_name="decks")
    attribute = models.CharField(max_length=100, blank=True)
    # None: judged by the rules in force today.
    rules_date = models.DateField(null=True, blank=True)
    # Bumped by every save; a save based on an older version is refused (optimistic locking).
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The verdict at the last save, for lists ("My decks"); the editor always judges afresh.
    legal = models.BooleanField(null=True, blank=True)
    judged_on = models.DateField(null=True, blank=True)
    # Set by revalidation when rules or card texts change: the date from which the deck is not
    # legal and the first reason, so owners read "not legal since <date>: <reason>".
    illegal_since = models.DateField(null=True, blank=True)
    verdict_reason = models.TextField(blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE)
    # "Copy to my decks" keeps a link to the source; the source counts its copies (browse sorts by it).
    forked_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    copies_count = models.PositiveIntegerField(default=0)
    archived = models.BooleanField(default=False)
    # Set when the owner deletes the deck: it is in their trash (restorable) until the purge, TRASH_KEPT_DAYS later.
    trashed_at = models.DateTimeField(null=True, blank=True)

    # Every deck, trashed ones too: only the trash itself (decks.library), the purge and the admin read it.
    everything = models.Manager()
    # The default manager (Meta) leaves trashed decks out, also for related managers (user.decks, deck.forks).
    objects = LiveDeckManager()

    class Meta:
        default_manager_name = "objects"
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner", "-updated_at"]),
            # Browse and the public list API read public, unarchived decks, newest or most copied first.
            models.Index(fields=["-created_at"], name="deck_public_newest", condition=_PUBLIC_LISTED),
            models.Index(fields=["-copies_count"], name="deck_public_most_copied", condition=_PUBLIC_LISTED),
            # The trash page and the purge read the few trashed decks, oldest first.
            models.Index(fields=["trashed_at"], name="deck_trashed", condition=models.Q(trashed_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def purge_at(self) -> datetime | None:
        """When the purge deletes a trashed deck for good (None: not in the trash)."""
        return self.trashed_at + timedelta(days=TRASH_KEPT_DAYS) if self.trashed_at else None

    @property
    def game_name(self) -> str:
        """What players call the deck's game ("Ruler's Gambit"); its slug if no data file defines it any more."""
        game = games().get(self.game)
        return game.name if game is not None else self.game


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards")
    printing = models.ForeignKey("cards.Printing", on_delete=models.PROTECT, related_name="deck_cards")
    section = models.CharField(max_length=12, choices=section_choices, default=Section.MAIN)
    count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["section", "printing__collector_number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "printing", "section"], name="deck_card_unique_printing_section"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="deck_card_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.count} × {self.printing_id} ({self.section})"


class DeckTag(models.Model):
    """A label the owner puts on a deck ("tournament", "budget") to find it in My decks."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="tags")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["deck", "name"], name="deck_tag_unique")]

    def __str__(self) -> str:
        return self.name


class DeckVersion(models.Model):
    """A deck as it was saved at one version, so history can show any past list.

    Every save keeps one, except that consecutive autosaves of one editing session are one
    version (decks.services.AUTOSAVE_GROUP): a history of one version per click reads as a log.

    `snapshot` is the DeckDraft's session form without the considering board (not part of the deck).
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    # The deck's version at the last save this row keeps: an editing session's autosaves make one
    # row (decks.services.AUTOSAVE_GROUP), which moves on with each of them. It is the save counter
    # (Deck.version, optimistic locking), so it has gaps: players never read it.
    version = models.PositiveIntegerField()
    # The number players read ("Version 2 of 3", /d/<id>/v/2/): 1, 2, 3 … in the order the rows were
    # made, with no gaps, so every number shown opens and "k of N" counts what the history lists.
    number = models.PositiveIntegerField()
    snapshot = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The last save kept here (null for rows older than grouping: their one save was at created_at).
    updated_at = models.DateTimeField(null=True, blank=True)
    # Written by the editor's autosave; the next autosave soon after merges into it, unless it is named.
    # Defaults in the database too: bulk writers (bench/gen_decks.py) insert rows without these columns.
    autosave = models.BooleanField(default=False, db_default=False)
    # A name the owner gave this version on purpose ("before the tournament"); it also closes the group.
    name = models.CharField(max_length=100, blank=True, default="", db_default="")

    class Meta:
        ordering = ["deck", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "version"], name="deck_version_unique"),
            models.UniqueConstraint(fields=["deck", "number"], name="deck_version_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} version {self.number}"


# A line's count and a draft's size are bounded so a session or a row stays small: MAX_LINE_COUNT and
# MAX_LINES come from decks.limits (imported above), one definition for every entry point.
SECTIONS = game_sections()


@dataclass(frozen=True, init=False)
class DeckDraft:
    """A deck as plain values: its game, the rules chosen and, per section, copies per collector number.

    Every section is held alike in `sections`, by its key in the game's data (Gate Ruler's `main` and
    `resources`, Ruler's Gambit's `kingdom` and `main`, GateRunners' `hero`, `gates` and `main`),
    and so is the owner's `considering` board; a section left empty is not held. `main`,
    `resources`, `considering` and `others` (the sections besides those three) read it, and the
    draft is made from them as before. A game whose identity is a card has no ruler (`ruler` is "").
    Treat it as immutable: changes build a new draft (decks.services.deck_draft_change).
    """

    ruler: str = ""
    geas: str | None = None
    attribute: str = ""
    rules_date: date | None = None
    name: str = ""
    description: str = ""
    game: str = ""
    sections: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __init__(
        self,
        ruler: str = "",
        geas: str | None = None,
        attribute: str = "",
        rules_date: date | None = None,
        name: str = "",
        description: str = "",
        main: Mapping[str, int] | None = None,
        resources: Mapping[str, int] | None = None,
        considering: Mapping[str, int] | None = None,
        game: str | None = None,
        others: Mapping[str, Mapping[str, int]] | None = None,
        sections: Mapping[str, Mapping[str, int]] | None = None,
    ) -> None:
        # `sections` first (dataclasses.replace passes the draft's own), then the sections named on their
        # own: `others` stands for every section besides the three, the three for themselves.
        held = dict(sections) if sections is not None else {}
        if others is not None:
            held = {key: counts for key, counts in held.items() if key in _OWN_SECTIONS}
            held.update(others)
        for key, counts in (("main", main), ("resources", resources), ("considering", considering)):
            if counts is not None:
                held[key] = counts
        _set = object.__setattr__
        _set(self, "ruler", ruler)
        _set(self, "geas", geas)
        _set(self, "attribute", attribute)
        _set(self, "rules_date", rules_date)
        _set(self, "name", name)
        _set(self, "description", description)
        _set(self, "game", game if game is not None else default_game_slug())
        _set(self, "sections", {key: counts for key, counts in held.items() if counts})

    @property
    def main(self) -> Mapping[str, int]:
        return self.sections.get("main") or {}

    @property
    def resources(self) -> Mapping[str, int]:
        return self.sections.get("resources") or {}

    @property
    def considering(self) -> Mapping[str, int]:
        return self.sections.get("considering") or {}

    @property
    def others(self) -> Mapping[str, Mapping[str, int]]:
        """The sections besides main, resources and the considering board ("kingdom", "hero", "gates")."""
        return {key: counts for key, counts in self.sections.items() if key not in _OWN_SECTIONS}

    @classmethod
    def of_sections(cls, sections: Mapping[str, Mapping[str, int]], **fields: Any) -> DeckDraft:
        """A draft whose sections are given by key (any game's: main, kingdom, hero…), with its other `fields`."""
        return cls(**fields, sections=sections)

    def section(self, name: str) -> Mapping[str, int]:
        """Copies per collector number of one section; {} for a section the draft leaves empty."""
        return self.sections.get(name) or {}

    def with_section(self, name: str, counts: Mapping[str, int]) -> DeckDraft:
        kept = {n: c for n, c in counts.items() if c > 0}
        return replace(self, sections={**self.sections, name: kept})

    def numbers(self) -> set[str]:
        return set().union(*self.sections.values())

    @property
    def form_game(self) -> str | None:
        """The game as the draft's stored forms name it (session, snapshot, share link, validate body):
        none for the default game, whose forms are those from before there were other games (every
        form that names no game is read as the default game's)."""
        return None if self.game == default_game_slug() else self.game

    def to_session(self) -> dict[str, Any]:
        """A JSON-serialisable dict (the session stores JSON).

        The default game's form has no `game` (the form of the sessions and versions stored before other
        games, see form_game); another game's adds `game` and its other sections by key.
        """
        data: dict[str, Any] = {
            "ruler": self.ruler,
            "geas": self.geas,
            "attribute": self.attribute,
            "rules_date": self.rules_date.isoformat() if self.rules_date else None,
            "name": self.name,
            "description": self.description,
            "main": dict(self.main),
            "resources": dict(self.resources),
            "considering": dict(self.considering),
        }
        if self.form_game is not None:
            data["game"] = self.form_game
            data["others"] = {key: dict(counts) for key, counts in self.others.items() if counts}
        return data

    def odds_key(self) -> str:
        """A short fingerprint of what a deck's draw odds depend on (rules chosen, main deck, resources):
        the editor compares the odds panel's with the deck's to ask again when the panel is behind."""
        data = self.to_snapshot()
        del data["name"], data["description"]
        return hashlib.blake2s(json.dumps(data, sort_keys=True).encode(), digest_size=6).hexdigest()

    def to_snapshot(self) -> dict[str, Any]:
        """What a DeckVersion keeps: the deck without the considering board."""
        data = self.to_session()
        del data["considering"]
        return data

    @classmethod
    def from_session(cls, data: Mapping[str, Any]) -> DeckDraft:
        """The draft a session holds; raises ValueError (or KeyError, TypeError) on a malformed one."""
        game = str(data.get("game") or default_game_slug())
        known = games()
        if game not in known:
            raise ValueError(f"unknown game {game!r}")
        others = data.get("others") or {}
        if not isinstance(others, Mapping):
            raise TypeError("expected a mapping of sections")
        return cls(
            # Every form to_session writes has a ruler ("" for a game whose identity is a card): without
            # one it is not a draft (KeyError).
            ruler=str(data["ruler"]),
            geas=str(data["geas"]) if data.get("geas") else None,
            attribute=str(data.get("attribute") or ""),
            rules_date=date.fromisoformat(data["rules_date"]) if data.get("rules_date") else None,
            name=str(data.get("name") or ""),
            description=str(data.get("description") or ""),
            main=_counts(data.get("main", {})),
            resources=_counts(data.get("resources", {})),
            considering=_counts(data.get("considering", {})),
            game=game,
            others={
                key: _counts(others[key])
                for key in known[game].section_keys()
                if key not in _OWN_SECTIONS and key in others
            },
        )


def _counts(raw: Any) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise TypeError("expected a mapping of counts")
    return {str(k): int(v) for k, v in list(raw.items())[:MAX_LINES] if 0 < int(v) <= MAX_LINE_COUNT}
