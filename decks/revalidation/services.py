"""Re-judge stored decks when the rules or a card's rules fields change, and record their verdicts.

A change affects: a ruler revision, the decks of that ruler; a geas revision, the decks with
that geas; a card's rules fields, the decks that play it in a section their game judges (any
game's: Gate Ruler's deck and resources, Ruler's Gambit's Kingdom and main deck, GateRunners'
Hero, Gates and main deck; never the considering board). Only those are loaded and judged, in
chunks, each by its game's rules as a save judges it (decks.drafts, then decks.rules.judge.judge):
a deck of a game whose identity is a ruler by the rules of its ruler and geas in force on its
date, a deck of another game by its game's data. The card facts, the parsed rules and each game's
definition are loaded once per job, not once per deck or chunk.

A deck's verdict: `legal`, `judged_on` (the date whose rules judged it: its rules date, or
today), and when it turns illegal `illegal_since` (the date of the change) with
`verdict_reason` (the first violation), the same fields a save writes (decks.services). A deck
legal again has both cleared. A verdict recomputed from the deck as it is: running a job twice
writes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from cards.games import UnknownGameError, game_get, games
from cards.models import GeasRevision, RulerRevision
from cards.rules_selectors import rules_choice_get
from decks.card_facts import card_facts_by_number
from decks.drafts import deck_snapshot_of
from decks.models import Deck, DeckCard
from decks.rules.games import GameDefinition
from decks.rules.judge import judge as game_judge
from decks.rules.ruleset import RulesInForce
from decks.rules.types import CardFacts
from gatesite.errors import ApplicationError
from gatesite.iterables import chunks
from gatesite.outbox.services import task_send_on_commit

# Decks judged (and locked against a concurrent save) per transaction.
CHUNK_SIZE = 1000
_VERDICT_FIELDS = ("legal", "judged_on", "illegal_since", "verdict_reason")


def judged_sections() -> tuple[str, ...]:
    """Every section some game judges: each game's sections in its data (the considering board is none of them)."""
    return tuple(dict.fromkeys(key for game in games().values() for key in game.section_keys()))


@dataclass
class RevalidationResult:
    checked: int = 0
    changed: int = 0
    became_illegal: int = 0
    became_legal: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def decks_affected(
    *, ruler_ids: Collection[int] = (), geas_ids: Collection[int] = (), card_ids: Collection[int] = ()
) -> Q:
    """The decks a change to these rulers', geases' or cards' rules can change the verdict of.

    A card's: the decks of any game playing it in a judged section (a deck holds only its own
    game's sections besides the considering board, so one list of sections serves every game).
    """
    condition = Q(pk__in=[])
    if ruler_ids:
        condition |= Q(ruler_id__in=list(ruler_ids))
    if geas_ids:
        condition |= Q(geas_id__in=list(geas_ids))
    if card_ids:
        plays = DeckCard.objects.filter(
            deck=OuterRef("pk"), section__in=judged_sections(), printing__card_id__in=list(card_ids)
        )
        condition |= Q(Exists(plays))
    return condition


def decks_revalidate(
    *,
    ruler_ids: Collection[int] = (),
    geas_ids: Collection[int] = (),
    card_ids: Collection[int] = (),
    every_deck: bool = False,
    since: date | None = None,
    today: date | None = None,
) -> RevalidationResult:
    """Re-judge exactly the decks these changes affect and record each verdict; see the module docstring.

    `every_deck`: every stored deck of every game instead (an admin's `revalidate_decks --all`).

    1. The affected decks' ids, in id order (one query).
    2. Per chunk, in a transaction: lock the decks (a save waits, so no verdict is written over a
       newer list), read their lines (one query), fetch facts of Gate Ruler printings not seen
       yet (one query) and of each other game met for the first time (its whole catalog, one
       query), judge each deck by its game's rules (a ruler's in force on its date, parsed once
       per ruler, geas and date), and write only the verdicts that differ (one bulk UPDATE).
    A chunk commits on its own: a job stopped midway leaves finished chunks recorded, and a retry
    recomputes the same verdicts (nothing written where nothing differs).
    """
    today = today or timezone.localdate()
    since = since or today
    result = RevalidationResult()
    if not (ruler_ids or geas_ids or card_ids or every_deck):
        return result
    # Every game's decks: a ruler or geas change reaches only decks with that ruler or geas (Gate Ruler's).
    affected = Q() if every_deck else decks_affected(ruler_ids=ruler_ids, geas_ids=geas_ids, card_ids=card_ids)
    ids = list(Deck.objects.filter(affected).order_by("pk").values_list("pk", flat=True))
    judge = _Judge(today=today)
    for chunk in chunks(ids, CHUNK_SIZE):
        with transaction.atomic():
            _chunk_revalidate(chunk, judge=judge, since=since, result=result)
    return result


# The daily job also looks this many days back: a day beat missed is caught up (re-judging is idempotent).
TAKING_EFFECT_DAYS = 3


def decks_revalidate_revisions_taking_effect(*, today: date | None = None) -> RevalidationResult:
    """The daily job: a revision dated today changes the rules decks judged by today's rules follow."""
    today = today or timezone.localdate()
    window = {"effective_from__gt": today - timedelta(days=TAKING_EFFECT_DAYS), "effective_from__lte": today}
    ruler_ids = set(RulerRevision.objects.filter(**window).values_list("ruler_id", flat=True))
    geas_ids = set(GeasRevision.objects.filter(**window).values_list("geas_id", flat=True))
    return decks_revalidate(ruler_ids=ruler_ids, geas_ids=geas_ids, since=today, today=today)


def decks_revalidate_enqueue(
    *,
    ruler_ids: Collection[int] = (),
    geas_ids: Collection[int] = (),
    card_ids: Collection[int] = (),
    since: date | None = None,
) -> None:
    """Queue the revalidation job once the caller's transaction commits (the worker must see the change).

    With the broker down the job waits in the outbox (gatesite.outbox) and is sent when it is back:
    a rules release (`load_rules`) succeeds without Redis and its revalidation is not lost.
    """
    if not (ruler_ids or geas_ids or card_ids):
        return
    from .tasks import decks_revalidate as task

    task_send_on_commit(
        task,
        ruler_ids=sorted(ruler_ids),
        geas_ids=sorted(geas_ids),
        card_ids=sorted(card_ids),
        since=since.isoformat() if since else None,
    )


class _Judge:
    """Games, card facts and parsed rules, loaded once per job and shared by its chunks."""

    def __init__(self, *, today: date) -> None:
        self.today = today
        # Each game's facts by collector number (those of the decks judged so far), by the game's slug.
        self.facts: dict[str, dict[str, CardFacts]] = {}
        self.rules: dict[tuple[str, str | None, date], RulesInForce | str] = {}
        # Each game met, or the message saying why its deck cannot be judged (no such game any more).
        self.games: dict[str, GameDefinition | str] = {}

    def definition_of(self, slug: str) -> GameDefinition | str:
        if slug not in self.games:
            try:
                self.games[slug] = game_get(slug)
            except UnknownGameError as exc:
                self.games[slug] = f"game: {exc}"  # as a save of the deck would say (decks.drafts._definition_of)
        return self.games[slug]

    def learn(self, decks: list[dict[str, Any]], lines: Mapping[int, list[tuple[str, str, int]]]) -> None:
        """Fetch the facts this chunk's decks need and the job lacks: one lookup per game (decks.drafts)."""
        numbers: dict[str, set[str]] = {}
        for deck in decks:
            game = self.definition_of(deck["game"])
            if not isinstance(game, str):
                numbers.setdefault(game.slug, set()).update(number for number, _, _ in lines[deck["pk"]])
        for slug, wanted in numbers.items():
            known = self.facts.setdefault(slug, {})
            missing = wanted - known.keys()
            if missing:
                game = self.games[slug]
                assert not isinstance(game, str)
                known.update(card_facts_by_number(game, missing))

    def rules_for(self, ruler: str, geas: str | None, on: date) -> RulesInForce | str:
        """The rules in force, or the message saying why there are none (a geas not yet in force, …)."""
        key = (ruler, geas, on)
        if key not in self.rules:
            try:
                self.rules[key] = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on).rules
            except ApplicationError as exc:
                self.rules[key] = exc.message
        return self.rules[key]

    def verdict(self, deck: dict[str, Any], lines: list[tuple[str, str, int]]) -> tuple[bool, date, str]:
        """(legal, judged on, first violation message) of one deck, as a save of it would judge it."""
        on = deck["rules_date"] or self.today
        game = self.definition_of(deck["game"])
        if isinstance(game, str):
            return False, on, game
        sections: dict[str, dict[str, int]] = {key: {} for key in game.section_keys()}
        for number, section, count in lines:
            if section in sections:
                sections[section][number] = count
        # The rules chosen, where the deck has a ruler (a deck of a game whose identity is a card has none).
        rules = None
        if deck["ruler__slug"] is not None:
            rules = self.rules_for(deck["ruler__slug"], deck["geas__slug"], on)
            if isinstance(rules, str):
                return False, on, rules
        # A printing no longer in its game's catalog is left out.
        snapshot = deck_snapshot_of(
            game=game, sections=sections, attribute=deck["attribute"], facts=self.facts.get(game.slug, {})
        )
        try:
            report = game_judge(game, snapshot, rules)
        except ValueError:
            # The engine's refusal of a deck whose game's rules come from a ruler, without one: as a save says it.
            return False, on, str(self.rules_for("", deck["geas__slug"], on))
        return report.legal, on, report.violations[0].message if report.violations else ""


def _chunk_revalidate(ids: list[int], *, judge: _Judge, since: date, result: RevalidationResult) -> None:
    decks = list(
        Deck.objects.select_for_update(of=("self",))
        .filter(pk__in=ids)
        .order_by("pk")
        .values("pk", "game", "ruler__slug", "geas__slug", "attribute", "rules_date", *_VERDICT_FIELDS)
    )
    lines: dict[int, list[tuple[str, str, int]]] = {d["pk"]: [] for d in decks}
    for deck_id, number, section, count in DeckCard.objects.filter(
        deck_id__in=ids, section__in=judged_sections()
    ).values_list("deck_id", "printing__collector_number", "section", "count"):
        lines[deck_id].append((number, section, count))
    judge.learn(decks, lines)
    changed = []
    for deck in decks:
        result.checked += 1
        legal, on, reason = judge.verdict(deck, lines[deck["pk"]])
        if legal:
            illegal_since = None
        elif deck["legal"] is True:
            illegal_since = since  # this change made it illegal
        else:
            # Already illegal (keep the date it became so) or never judged (no date to claim).
            illegal_since = deck["illegal_since"]
        new = {"legal": legal, "judged_on": on, "illegal_since": illegal_since, "verdict_reason": reason}
        if all(deck[f] == new[f] for f in _VERDICT_FIELDS):
            continue
        if legal and deck["legal"] is not True:
            result.became_legal += 1
        if not legal and deck["legal"] is not False:
            result.became_illegal += 1
        changed.append((deck["pk"], legal, on, illegal_since, reason))
    if changed:
        _verdicts_write(changed)
        result.changed += len(changed)


def _verdicts_write(rows: list[tuple[int, bool, date, date | None, str]]) -> None:
    """One UPDATE for the chunk's changed verdicts; updated_at is left alone (a verdict is not an edit).

    Not bulk_update: its CASE WHEN per row and field makes each row's update scan the whole
    list (a minute for 100 000 decks); joining a VALUES list is linear.
    """
    q = connection.ops.quote_name
    table = q(Deck._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            values = ", ".join(["(%s::bigint, %s::boolean, %s::date, %s::date, %s::text)"] * len(rows))
            cursor.execute(
                f"UPDATE {table} AS d SET legal = v.legal, judged_on = v.judged_on, "
                "illegal_since = v.illegal_since, verdict_reason = v.verdict_reason "
                f"FROM (VALUES {values}) AS v (id, legal, judged_on, illegal_since, verdict_reason) WHERE d.id = v.id",
                [value for row in rows for value in row],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET legal = %s, judged_on = %s, illegal_since = %s, verdict_reason = %s WHERE id = %s",
                [(legal, on, since, reason, pk) for pk, legal, on, since, reason in rows],
            )


def decks_rejudge(*, deck_ids: Collection[int], today: date | None = None) -> RevalidationResult:
    """Re-judge these decks as they are and record their verdicts (a deck back from the trash missed
    the jobs that ran while it was there: decks.library.services.deck_restore)."""
    today = today or timezone.localdate()
    result = RevalidationResult()
    judge = _Judge(today=today)
    for chunk in chunks(sorted(deck_ids), CHUNK_SIZE):
        with transaction.atomic():
            _chunk_revalidate(chunk, judge=judge, since=today, result=result)
    return result
