"""A saved deck as a draft: its lines read once, the draft the editor and every page start from.

The deck core's reads of a stored deck into the common form (decks.drafts's DeckDraft), apart from
the adapter to the engine (decks/drafts.py): deck_draft_of for a deck already read (its lines once,
deck_lines_of, handed on to the save), deck_draft_for_owner for the card browser's searches (the
deck, its rules and lines in one SQL query), and deck_draft_new, the empty draft of a new deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection
from django.http import Http404

from cards.models import Geas, Printing, Ruler
from gatesite.errors import ApplicationError
from gatesite.rows import default_db, model_columns, model_from_row

from .models import SECTIONS, Deck, DeckCard, DeckDraft
from .selectors import deck_owner_check, deck_rules_attach

# A saved deck's card lines as read once: (collector number, section) -> (DeckCard pk, count). The
# editor reads them for the draft a change starts from and hands them on to the save (deck_update),
# which then writes only what differs without reading them again.
DeckLines = dict[tuple[str, str], tuple[int, int]]


def deck_lines_of(*, deck: Deck) -> DeckLines:
    """The deck's card lines with their row ids (one query): for deck_draft_of and then deck_update."""
    return {
        (number, section): (pk, count)
        # In the model's order (section, collector number): the draft's sections keep it.
        for pk, number, section, count in DeckCard.objects.filter(deck=deck).values_list(
            "pk", "printing__collector_number", "section", "count"
        )
    }


def deck_draft_of(*, deck: Deck, lines: DeckLines | None = None) -> DeckDraft:
    """A saved deck as a draft (expects deck_get_for_owner's select_related); one query, none given its `lines`."""
    saved = deck_lines_of(deck=deck) if lines is None else lines
    return _draft_of_lines(
        ruler=deck.ruler.slug if deck.ruler is not None else "",
        geas=deck.geas.slug if deck.geas else None,
        attribute=deck.attribute,
        rules_date=deck.rules_date,
        name=deck.name,
        description=deck.description,
        game=deck.game,
        lines=[(number, section, count) for (number, section), (_pk, count) in saved.items()],
    )


def _draft_of_lines(*, lines: Iterable[tuple[str, str, int]], **fields: Any) -> DeckDraft:
    """A draft of a saved deck's fields and its lines (collector number, section, copies), in their order."""
    sections: dict[str, dict[str, int]] = {s: {} for s in SECTIONS}
    for number, section, count in lines:
        sections.setdefault(section, {})[number] = count
    own = ("main", "resources", "considering")
    return DeckDraft(
        main=sections["main"],
        resources=sections["resources"],
        considering=sections["considering"],
        others={key: counts for key, counts in sections.items() if key not in own and counts},
        **fields,
    )


@dataclass(frozen=True)
class OwnedDraft:
    """A saved deck as its owner's draft, with what the editor's links and forms name it by (public id, version)."""

    public_id: str
    version: int
    draft: DeckDraft


def deck_draft_for_owner(*, public_id: str, user: Any) -> OwnedDraft:
    """The deck of this public id as a draft, if `user` owns it: the deck, its rules and its lines in one query.

    For the card browser's searches, which read a saved deck many times between two changes and
    show nothing of it but the hints: deck_get_for_owner then deck_draft_of are two ORM queries
    (and the deck's model instance with its ruler's and geas's), whose making cost more CPU than
    the rest of the search's queries together. Written in SQL for that reason (as
    cards.selectors.card_facts_rows). The same draft as deck_draft_of(deck=deck_get_for_owner(...)),
    and the same answer to a reader who does not own it: Http404 (its existence is not revealed).
    """
    q = connection.ops.quote_name
    deck, ruler, geas, line, printing = (q(model._meta.db_table) for model in (Deck, Ruler, Geas, DeckCard, Printing))
    sql = (
        f"SELECT d.{q('owner_id')}, d.{q('version')}, r.{q('slug')}, g.{q('slug')}, d.{q('attribute')}, d.{q('rules_date')}, "
        f"d.{q('name')}, d.{q('description')}, d.{q('game')}, p.{q('collector_number')}, l.{q('section')}, "
        f"l.{q('count')} FROM {deck} d LEFT JOIN {ruler} r ON r.{q('id')} = d.{q('ruler_id')} "
        f"LEFT JOIN {geas} g ON g.{q('id')} = d.{q('geas_id')} LEFT JOIN {line} l ON l.{q('deck_id')} = d.{q('id')} "
        f"LEFT JOIN {printing} p ON p.{q('id')} = l.{q('printing_id')} WHERE d.{q('public_id')} = %s "
        # A deck in the trash is no deck here either (Deck.objects leaves it out).
        f"AND d.{q('trashed_at')} IS NULL "
        # DeckCard's own order (Meta.ordering), which deck_draft_of's query follows.
        f"ORDER BY l.{q('section')}, p.{q('collector_number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [public_id])
        rows = cursor.fetchall()
    # As deck_get_for_owner reading: no such deck, or someone else's, is the same 404.
    if not rows or not (user.is_authenticated and rows[0][0] == user.pk):
        raise Http404("No such deck.")
    _owner, version, ruler_slug, geas_slug, attribute, rules_date, name, description, game = rows[0][:9]
    draft = _draft_of_lines(
        ruler=ruler_slug or "",
        geas=geas_slug,
        attribute=attribute,
        # SQLite gives a date column's text as it is stored (the ORM converts it; this cursor does not).
        rules_date=date.fromisoformat(rules_date) if isinstance(rules_date, str) else rules_date,
        name=name,
        description=description,
        game=game,
        lines=[(number, section, count) for *_deck, number, section, count in rows if number is not None],
    )
    return OwnedDraft(public_id, version, draft)


def deck_and_lines_for_owner(*, public_id: str, user: Any, write: bool = False) -> tuple[Deck, DeckLines]:
    """The deck of this public id if `user` owns it, and its lines: one SQL query for an editor's change.

    What deck_get_for_owner then deck_lines_of give (the same Deck, its ruler and geas from the
    catalog memory; the same lines in the same order) and the same answers to anyone else
    (deck_owner_check). Every click reads both: two ORM queries, and a model instance made by
    the ORM, cost more CPU than the rest of the click's reads, hence the SQL (as deck_draft_for_owner).
    """
    db = default_db()
    columns = model_columns(Deck, "d", db)
    q = db.ops.quote_name
    deck_table, line, printing = (q(model._meta.db_table) for model in (Deck, DeckCard, Printing))
    width = len(Deck._meta.concrete_fields)
    # The deck's row, then its lines' (each with only its own columns: a joined deck's columns would
    # come again on every line, its description and verdict included), in DeckCard's own order
    # (Meta.ordering: section, collector number), which deck_lines_of's query follows.
    sql = (
        # A deck in the trash is no deck here either (Deck.objects leaves it out): a tab left open on it saves nothing.
        f"SELECT 0, {columns}, NULL, NULL, NULL, NULL FROM {deck_table} d WHERE d.{q('public_id')} = %s "
        f"AND d.{q('trashed_at')} IS NULL "
        f"UNION ALL SELECT 1, {', '.join(['NULL'] * width)}, l.{q('id')}, p.{q('collector_number')}, "
        f"l.{q('section')}, l.{q('count')} FROM {deck_table} d JOIN {line} l ON l.{q('deck_id')} = d.{q('id')} "
        f"JOIN {printing} p ON p.{q('id')} = l.{q('printing_id')} WHERE d.{q('public_id')} = %s "
        f"AND d.{q('trashed_at')} IS NULL "
        f"ORDER BY 1, {width + 4}, {width + 3}"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [public_id, public_id])
        rows = cursor.fetchall()
    if not rows:  # no deck (and so no lines)
        raise Http404("No such deck.")
    deck = model_from_row(Deck, rows[0][1 : width + 1], db)
    deck_owner_check(deck=deck, user=user, write=write)
    deck_rules_attach(deck=deck)
    lines = {(number, section): (pk, count) for *_deck, pk, number, section, count in rows[1:]}
    return deck, lines


def deck_draft_new() -> DeckDraft:
    """An empty draft for the first ruler of the rules; ApplicationError if no rules are loaded."""
    slug = Ruler.objects.values_list("slug", flat=True).first()
    if slug is None:
        raise ApplicationError("No rulers are loaded yet (run `manage.py load_rules`).")
    return DeckDraft(ruler=slug)
