"""A save's writes in SQL (deck_update, deck_create_from_draft) write what the ORM's statements wrote.

The ORM's writes, as they were before they were written in SQL, are kept here as the reference:
the same saves run on two twin decks, one through each, leave the same deck, lines and versions
(snapshots, autosave grouping, times), refuse the same stale save and the same unknown card.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

import pytest
import time_machine
from django.db.models import F, Max

from decks import services
from decks.models import SECTIONS, Deck, DeckCard, DeckDraft, DeckVersion
from decks.saved_drafts import DeckLines, deck_and_lines_for_owner, deck_draft_of, deck_lines_of
from decks.services import (
    AUTOSAVE_GROUP,
    StaleDeck,
    deck_create_from_draft,
    deck_update,
    deck_version_name,
)
from gatesite.errors import ApplicationError
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 11, 24, 12, tzinfo=datetime.UTC)


def orm_version_bump(*, deck: Deck, base_version: int, changed: dict[str, Any]) -> int:
    return Deck.objects.filter(pk=deck.pk, version=base_version).update(version=F("version") + 1, **changed)


def orm_version_record(*, deck: Deck, draft: DeckDraft, autosave: bool = False) -> None:
    snapshot = replace(
        draft,
        name=deck.name,
        ruler=deck.ruler.slug if deck.ruler is not None else "",
        geas=deck.geas.slug if deck.geas else None,
    ).to_snapshot()
    now = services.timezone.now()
    if autosave:
        merged = DeckVersion.objects.filter(
            deck=deck, version=deck.version - 1, autosave=True, name="", updated_at__gte=now - AUTOSAVE_GROUP
        ).update(version=deck.version, snapshot=snapshot, updated_at=now)
        if merged:
            return
    number = (DeckVersion.objects.filter(deck=deck).aggregate(n=Max("number"))["n"] or 0) + 1
    DeckVersion.objects.create(
        deck=deck, version=deck.version, number=number, snapshot=snapshot, updated_at=now, autosave=autosave
    )


def orm_cards_sync(*, deck: Deck, draft: DeckDraft, existing: DeckLines | None = None) -> None:
    wanted = {(number, section): count for section in SECTIONS for number, count in draft.section(section).items()}
    if existing is None:
        existing = deck_lines_of(deck=deck)
    stale = [pk for key, (pk, _) in existing.items() if key not in wanted]
    if stale:
        DeckCard.objects.filter(pk__in=stale).delete()
    changed = [
        DeckCard(pk=pk, count=wanted[key])
        for key, (pk, count) in existing.items()
        if key in wanted and count != wanted[key]
    ]
    if changed:
        DeckCard.objects.bulk_update(changed, ["count"])
    new = {key: count for key, count in wanted.items() if key not in existing}
    if new:
        ids = services.printing_ids_by_number({n for n, _ in new})
        missing = sorted({n for n, _ in new} - set(ids))
        if missing:
            raise ApplicationError("No card with collector number " + ", ".join(missing))
        DeckCard.objects.bulk_create(
            DeckCard(deck=deck, printing_id=ids[number], section=section, count=count)
            for (number, section), count in new.items()
        )


@pytest.fixture
def orm_writes(monkeypatch):
    """Run the code under `with orm_writes():` through the ORM's writes."""

    class Patched:
        def __enter__(self) -> None:
            monkeypatch.setattr(services, "_deck_version_bump", orm_version_bump)
            monkeypatch.setattr(services, "_deck_version_record", orm_version_record)
            monkeypatch.setattr(services, "_deck_cards_sync", orm_cards_sync)

        def __exit__(self, *exc: object) -> None:
            monkeypatch.undo()

    return Patched


def saved_rows(deck: Deck) -> tuple[dict[str, Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    row = Deck.objects.filter(pk=deck.pk).values().get()
    del row["id"], row["public_id"]
    lines = sorted(DeckCard.objects.filter(deck=deck).values_list("printing__collector_number", "section", "count"))
    versions = list(
        DeckVersion.objects.filter(deck=deck)
        .order_by("version")
        .values_list("version", "snapshot", "autosave", "name", "created_at", "updated_at", "number")
    )
    return row, lines, versions


def save(deck: Deck, *, at: datetime.datetime, autosave: bool = True, base: int | None = None, **changes: Any) -> None:
    """A save of `changes` to the deck as the editor makes it (deck and lines read in one query, then written)."""
    with time_machine.travel(at, tick=False):
        fresh, lines = deck_and_lines_for_owner(public_id=deck.public_id, user=deck.owner, write=True)
        draft = replace(deck_draft_of(deck=fresh, lines=lines), **changes)
        deck_update(
            deck=fresh,
            draft=draft,
            base_version=fresh.version if base is None else base,
            autosave=autosave,
            lines=lines,
        )


def a_session_of_saves(deck: Deck) -> list[str]:
    """Saves of every kind: a line added, one count changed, lines removed and added in all sections, many
    counts and the rules at once, a named version, a pause, a save that is no autosave, a legal deck;
    then refusals (stale, unknown card). Returns the refusals' messages."""
    minute = datetime.timedelta(minutes=1)
    save(deck, at=START + minute, main={"TS-001": 4, "TS-002": 4, "TS-003": 1})
    save(deck, at=START + 2 * minute, main={"TS-001": 2, "TS-002": 4, "TS-003": 1})
    save(
        deck,
        at=START + 3 * minute,
        main={"TS-001": 2, "TS-003": 1},
        resources={"TS-300": 2},
        considering={"TS-200": 1, "TS-150": 3},
    )
    save(
        deck,
        at=START + 4 * minute,
        main={"TS-001": 3, "TS-003": 4},
        resources={"TS-300": 1},
        considering={"TS-200": 1, "TS-150": 3},
        geas="oath-of-the-lone-banner",
        attribute="Dragon",
        rules_date=datetime.date(2024, 5, 1),
        name="Squires",
        description="Four of each.",
    )
    deck_version_name(deck=deck, number=DeckVersion.objects.filter(deck=deck).count(), name="Before the event")
    save(deck, at=START + 5 * minute, main={"TS-001": 1, "TS-003": 4})
    save(deck, at=START + 5 * minute + AUTOSAVE_GROUP + minute, main={"TS-001": 1})
    save(deck, at=START + 6 * minute + AUTOSAVE_GROUP, main={"TS-001": 2}, autosave=False)
    save(
        deck,
        at=START + 7 * minute + AUTOSAVE_GROUP,
        main=legal_apprentice_main(),
        geas=None,
        considering={},
        resources={},
    )
    refusals = []
    with pytest.raises(StaleDeck) as stale:
        save(deck, at=START + 8 * minute + AUTOSAVE_GROUP, main={"TS-009": 4}, base=1)
    refusals.append(stale.value.message)
    with pytest.raises(ApplicationError) as unknown:
        save(deck, at=START + 9 * minute + AUTOSAVE_GROUP, main={"TS-001": 1, "NOPE-001": 1})
    refusals.append(type(unknown.value).__name__)
    return refusals


def test_saves_write_what_the_orms_writes_wrote(deck_catalog, user, orm_writes):
    first = DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-002": 4}, name="Twins")
    with time_machine.travel(START, tick=False):
        in_sql = deck_create_from_draft(owner=user, draft=first)
        with orm_writes():
            by_orm = deck_create_from_draft(owner=user, draft=first)
    assert saved_rows(in_sql) == saved_rows(by_orm)

    refused_in_sql = a_session_of_saves(in_sql)
    with orm_writes():
        refused_by_orm = a_session_of_saves(by_orm)

    assert refused_in_sql == refused_by_orm
    row, lines, versions = saved_rows(in_sql)
    assert (row, lines, versions) == saved_rows(by_orm)
    # What the session left: it saved every kind of write (a check that the comparison compared something).
    assert row["version"] == 9
    assert (row["legal"], row["illegal_since"]) == (True, None)
    assert [(v[0], v[2], v[3]) for v in versions] == [
        (1, False, ""),
        (5, True, "Before the event"),
        (6, True, ""),
        (7, True, ""),
        (8, False, ""),
        (9, True, ""),
    ]
    assert versions[1][1]["geas"] == "oath-of-the-lone-banner"
    assert versions[1][1]["rules_date"] == "2024-05-01"
    assert versions[-1][5] == START + datetime.timedelta(minutes=7) + AUTOSAVE_GROUP
    # The numbers players read: one per version kept, with no gaps.
    assert [v[6] for v in versions] == [1, 2, 3, 4, 5, 6]
