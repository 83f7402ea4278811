"""Writes for decks: change a draft, save it as a deck, update a deck without losing a change, delete."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from cards.selectors import attribute_exists
from gatesite.errors import ApplicationError
from gatesite.rows import default_db

from .card_facts import printing_ids_by_number
from .drafts import DraftJudgement, deck_draft_judge
from .models import SECTIONS, Deck, DeckCard, DeckDraft, DeckVersion, Visibility
from .saved_drafts import DeckLines, deck_lines_of
from .signals import deck_changed
from .wording import game_name


class StaleDeck(ApplicationError):
    """A save based on a version of the deck that is no longer the latest."""

    def __init__(self, *, base_version: int, version: int) -> None:
        # Worded when raised, in the language of the request that made the stale change (the editor's player).
        super().__init__(
            gettext(
                "This deck was changed elsewhere (another tab or device) since you loaded it: "
                "you had version %(base)s, it is now at version %(version)s. Your change was not saved."
            )
            % {"base": base_version, "version": version}
        )
        self.base_version = base_version
        self.version = version


def _untitled(judgement: DraftJudgement) -> str:
    """The name of a deck saved without one, in the saver's language ("Untitled Apprentice deck", 「アプレンティスのデッキ」)."""
    return gettext("Untitled %(ruler)s deck") % {"ruler": game_name(judgement.identity_name() or judgement.game.name)}


def deck_create_from_draft(
    *, owner: Any, draft: DeckDraft, name: str = "", judgement: DraftJudgement | None = None
) -> Deck:
    """Save a draft as a new deck of `owner`. Pass the draft's `judgement` if the caller has it."""
    judgement = judgement or deck_draft_judge(draft=draft)
    with transaction.atomic():
        deck = Deck.objects.create(
            owner=owner,
            name=(name or draft.name).strip() or _untitled(judgement),
            description=draft.description,
            game=judgement.game.slug,
            ruler=judgement.ruler,
            geas=judgement.geas,
            attribute=draft.attribute,
            rules_date=draft.rules_date,
            legal=judgement.report.legal,
            judged_on=judgement.on,
            verdict_reason=_verdict_reason(judgement),
        )
        _deck_cards_sync(deck=deck, draft=draft, existing={})  # a new deck has no lines yet
        _deck_version_record(deck=deck, draft=draft)
    deck_changed.send(sender=Deck, deck=deck)
    return deck


def _verdict_reason(judgement: DraftJudgement) -> str:
    """The first violation, as lists show it beside "Not legal" (revalidation writes the same); empty when legal."""
    violations = judgement.report.violations
    return violations[0].message if violations else ""


def deck_update(
    *,
    deck: Deck,
    draft: DeckDraft,
    base_version: int,
    judgement: DraftJudgement | None = None,
    autosave: bool = False,
    lines: DeckLines | None = None,
) -> Deck:
    """Write a draft over a deck, if the deck is still at `base_version`; raises StaleDeck if not.

    The check and the version bump are one conditional UPDATE, so of two saves based on the
    same version exactly one wins and the other is refused: no update is lost silently.
    Returns the deck as saved (with its new version). Pass the draft's `judgement` if the
    caller has it (the editor has just computed it), and `autosave` for the editor's save of each
    change (consecutive ones make one version in the history). `lines`: the deck's lines as
    deck_lines_of read them for this change (when the caller has them), not read again: they are
    still the saved ones if the version check passes, for lines are only written with a new version.
    """
    judgement = judgement or deck_draft_judge(draft=draft)
    now = timezone.now()
    fields = {
        "name": draft.name or deck.name,
        "description": draft.description,
        "game": judgement.game.slug,
        "ruler": judgement.ruler,
        "geas": judgement.geas,
        "attribute": draft.attribute,
        "rules_date": draft.rules_date,
        "legal": judgement.report.legal,
        "judged_on": judgement.on,
        "verdict_reason": _verdict_reason(judgement),
        "updated_at": now,
    }
    if judgement.report.legal:
        fields["illegal_since"] = None  # legal again: "not legal since" no longer holds
    with transaction.atomic():
        # Another request that saved first has moved the version on: refuse rather than overwrite it.
        # Only the fields that differ from the deck as read are written (a click changes few of them).
        updated = _deck_version_bump(deck=deck, base_version=base_version, changed=_changed_fields(deck, fields))
        if updated != 1:
            current = Deck.objects.filter(pk=deck.pk).values_list("version", flat=True).first()
            raise StaleDeck(base_version=base_version, version=current or 0)
        _deck_cards_sync(deck=deck, draft=draft, existing=lines)
        for key, value in fields.items():
            setattr(deck, key, value)
        deck.version = base_version + 1
        _deck_version_record(deck=deck, draft=draft, autosave=autosave)
    deck_changed.send(sender=Deck, deck=deck)
    return deck


def _changed_fields(deck: Deck, fields: dict[str, Any]) -> dict[str, Any]:
    """The `fields` whose values differ from `deck`'s (a foreign key by its id), and always updated_at."""
    changed = {}
    for name, value in fields.items():
        field = deck._meta.get_field(name)
        current = getattr(deck, field.attname)
        new = value.pk if field.is_relation and value is not None else value
        if name == "updated_at" or current != new:
            changed[name] = value
    return changed


def _deck_version_bump(*, deck: Deck, base_version: int, changed: dict[str, Any]) -> int:
    """The conditional UPDATE of deck_update: the version moved on, and the `changed` fields, if still at `base_version`.

    Returns the rows updated (1, or 0 for a stale save). In SQL: the ORM's making of this
    statement cost more CPU than the database's running it, on every click (the other writes below
    are written so for the same reason; each converts its values as the ORM would, get_db_prep_save).
    """
    db = default_db()
    q = db.ops.quote_name
    assignments, params = [f"{q('version')} = {q('version')} + 1"], []
    for name, value in changed.items():
        field = Deck._meta.get_field(name)
        assignments.append(f"{q(field.column)} = %s")
        value = value.pk if field.is_relation and value is not None else value
        params.append(field.get_db_prep_save(value, db))
    sql = f"UPDATE {q(Deck._meta.db_table)} SET {', '.join(assignments)} WHERE {q('id')} = %s AND {q('version')} = %s"
    with db.cursor() as cursor:
        cursor.execute(sql, [*params, deck.pk, base_version])
        return int(cursor.rowcount)


# Autosaves this close to the last one are the same editing session: they make one version.
AUTOSAVE_GROUP = timedelta(minutes=30)


def _deck_version_record(*, deck: Deck, draft: DeckDraft, autosave: bool = False) -> None:
    """Keep the deck as saved at its current version (history shows any past version and the changes).

    An autosave right after another (the previous version, unnamed, written within
    AUTOSAVE_GROUP) moves that version on instead of adding one: the history then shows what the
    editing session changed, not one line per click. Any other save starts a new version.
    """
    snapshot = replace(
        draft,
        name=deck.name,
        ruler=deck.ruler.slug if deck.ruler is not None else "",
        geas=deck.geas.slug if deck.geas else None,
    ).to_snapshot()
    now = timezone.now()
    db = default_db()
    q = db.ops.quote_name
    table = q(DeckVersion._meta.db_table)
    field = DeckVersion._meta.get_field
    json = field("snapshot").get_db_prep_save(snapshot, db)
    at = field("updated_at").get_db_prep_save(now, db)
    with db.cursor() as cursor:
        if autosave:
            since = field("updated_at").get_db_prep_save(now - AUTOSAVE_GROUP, db)
            cursor.execute(
                f"UPDATE {table} SET {q('version')} = %s, {q('snapshot')} = %s, {q('updated_at')} = %s "
                f"WHERE {q('deck_id')} = %s AND {q('version')} = %s AND {q('autosave')} = %s AND {q('name')} = %s "
                f"AND {q('updated_at')} >= %s",
                [deck.version, json, at, deck.pk, deck.version - 1, True, "", since],
            )
            if cursor.rowcount:
                return
        # number: the next one players read (no gaps). The deck's row is locked by this save's
        # version bump (or is new), so no other save of it numbers a version at the same time.
        cursor.execute(
            f"INSERT INTO {table} ({q('deck_id')}, {q('version')}, {q('number')}, {q('snapshot')}, "
            f"{q('created_at')}, {q('updated_at')}, {q('autosave')}, {q('name')}) VALUES (%s, %s, "
            f"(SELECT COALESCE(MAX({q('number')}), 0) + 1 FROM {table} WHERE {q('deck_id')} = %s), "
            "%s, %s, %s, %s, %s)",
            # created_at: the time of the save (auto_now_add's), as updated_at.
            [deck.pk, deck.version, deck.pk, json, at, at, autosave, ""],
        )


def deck_version_name(*, deck: Deck, number: int, name: str) -> DeckVersion:
    """Name the saved version with this number on purpose (empty: no name); the next autosave then starts a new version."""
    found = DeckVersion.objects.filter(deck=deck, number=number).first()
    if found is None:
        raise ApplicationError(
            gettext("%(deck)s has no version %(n)s.") % {"deck": deck.name, "n": number}, field="version"
        )
    found.name = name.strip()[: DeckVersion._meta.get_field("name").max_length]
    found.save(update_fields=["name"])
    return found


def _deck_cards_sync(*, deck: Deck, draft: DeckDraft, existing: DeckLines | None = None) -> None:
    """Make the deck's DeckCard rows say what the draft says: delete, update and create only what differs.

    `existing`: the rows as saved (deck_lines_of), read now unless given.
    """
    wanted = {(number, section): count for section in SECTIONS for number, count in draft.section(section).items()}
    # (pk, count) by (collector number, section): plain values, no model instances (every change saves).
    if existing is None:
        existing = deck_lines_of(deck=deck)
    stale = [pk for key, (pk, _) in existing.items() if key not in wanted]
    changed = [(wanted[key], pk) for key, (pk, count) in existing.items() if key in wanted and count != wanted[key]]
    new = {key: count for key, count in wanted.items() if key not in existing}
    # An unknown printing refuses the save before any line is written (the caller's transaction undoes the rest).
    ids = printing_ids_by_number({n for n, _ in new}) if new else {}
    missing = sorted({n for n, _ in new} - set(ids))
    if missing:
        raise ApplicationError(
            gettext("No card with collector number %(numbers)s.") % {"numbers": ", ".join(missing)}, field="number"
        )
    # In SQL, as _deck_version_bump (the usual click writes one line: one of these statements, once).
    db = default_db()
    q = db.ops.quote_name
    table = q(DeckCard._meta.db_table)
    with db.cursor() as cursor:
        if stale:
            cursor.execute(f"DELETE FROM {table} WHERE {q('id')} IN ({', '.join(['%s'] * len(stale))})", stale)
        if changed:
            _execute_each(cursor, f"UPDATE {table} SET {q('count')} = %s WHERE {q('id')} = %s", changed)
        if new:
            _execute_each(
                cursor,
                f"INSERT INTO {table} ({q('deck_id')}, {q('printing_id')}, {q('section')}, {q('count')}) "
                "VALUES (%s, %s, %s, %s)",
                [(deck.pk, ids[number], section, count) for (number, section), count in new.items()],
            )


def _execute_each(cursor: Any, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """`sql` once per row of parameters: one statement for the click's one line, the driver's batch for more."""
    if len(rows) == 1:
        cursor.execute(sql, rows[0])
    else:
        cursor.executemany(sql, rows)


def deck_delete(*, deck: Deck) -> None:
    """Delete a deck for good, with its cards, versions and tags (players delete into the trash first:
    decks.library.services.deck_trash; this is its "Delete forever" and the purge)."""
    with transaction.atomic():
        if deck.forked_from_id and deck.trashed_at is None:
            # The source counts its copies players can see (a trashed copy was uncounted when trashed).
            Deck.everything.filter(pk=deck.forked_from_id, copies_count__gt=0).update(
                copies_count=F("copies_count") - 1
            )
        deck_changed.send(sender=Deck, deck=deck)
        deck.delete()


# ---------------------------------------------------------------- sharing, copies, tags, archive


def deck_save(
    *,
    owner: Any,
    draft: DeckDraft,
    visibility: str,
    deck: Deck | None = None,
    base_version: int | None = None,
) -> Deck:
    """Create a deck (no `deck`) or write a draft over one at `base_version`, and set its visibility.

    One transaction: a refused update (StaleDeck) changes nothing, visibility included. Raises
    ApplicationError for an unknown attribute or a visibility that is not one of Visibility.
    """
    if visibility not in Visibility.values:
        raise ApplicationError(
            gettext("Unknown visibility '%(visibility)s'.") % {"visibility": visibility}, field="visibility"
        )
    if draft.attribute and not attribute_exists(draft.attribute):
        raise ApplicationError(
            gettext("Unknown attribute '%(value)s'.") % {"value": draft.attribute}, field="attribute"
        )
    judgement = deck_draft_judge(draft=draft)
    with transaction.atomic():
        if deck is None:
            deck = deck_create_from_draft(owner=owner, draft=draft, judgement=judgement)
        else:
            if base_version is None:
                raise ApplicationError(
                    gettext("Say which version of the deck the change is based on."), field="version"
                )
            deck = deck_update(deck=deck, draft=draft, base_version=base_version, judgement=judgement)
        if deck.visibility != visibility:
            deck_visibility_set(deck=deck, visibility=visibility)
    return deck


def deck_visibility_set(*, deck: Deck, visibility: str) -> Deck:
    """Who may read the deck: private (the owner), unlisted (anyone with the link), public (also browse).

    Not a change to the deck's list: no new version, and an editor open elsewhere stays current.
    """
    if visibility not in Visibility.values:
        raise ApplicationError(
            gettext("Unknown visibility '%(visibility)s'.") % {"visibility": visibility}, field="visibility"
        )
    counted = deck.visibility == Visibility.PUBLIC and not deck.archived
    Deck.objects.filter(pk=deck.pk).update(visibility=visibility)
    deck.visibility = visibility
    deck_changed.send(sender=Deck, deck=deck, was_counted=counted)
    return deck
