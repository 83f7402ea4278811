"""What each web process remembers of the catalog and the rules, and how it knows when to forget.

Every validate request and every editor change needs the engine's facts of a few dozen
printings and the rules revisions in force; reading them from the database cost more than the
rest of the request. A process keeps them in a CatalogMemory, tagged with the token of the one
CatalogVersion row. Every write to the cards or the rules changes that token in the same
transaction (catalog_version_bump: the imports, which also record errata; load_rules; and the
post_save/post_delete/m2m_changed receivers below for admin and ORM edits), so any process
that reads the token sees a write as soon as it is committed and drops its memory.

The token is read once per request (one primary-key SELECT; remembered until the request
ends, see request_started/request_finished below) and on every call outside a request
(management commands, Celery tasks, tests calling selectors).
"""

from __future__ import annotations

import threading
import uuid
from typing import TYPE_CHECKING, Any

from django.core.signals import request_finished, request_started
from django.db import connection
from django.db.models.signals import m2m_changed, post_delete, post_save

from .models import (
    Attribute,
    Card,
    CardSet,
    CatalogVersion,
    Faction,
    Geas,
    GeasRevision,
    Printing,
    Ruler,
    RulerRevision,
)

if TYPE_CHECKING:
    from decks.rules.types import CardFacts

# The models whose rows the memory copies (card facts, attribute names, rules revisions).
CATALOG_MODELS = (Attribute, Card, CardSet, Faction, Geas, GeasRevision, Printing, Ruler, RulerRevision)

# Enough for the whole catalog of 20 000 printings several times over; past it, start afresh
# (a bound on memory whatever clients ask for).
MAX_REMEMBERED = 100_000

_ROW = 1
_local = threading.local()


def catalog_version_bump() -> None:
    """Give the catalog a new token, in the caller's transaction: every process's memory is stale once it commits."""
    token = uuid.uuid4().hex
    if not CatalogVersion.objects.filter(pk=_ROW).update(token=token):
        # The row is gone (a test database flushed); two processes may race to put it back.
        CatalogVersion.objects.bulk_create([CatalogVersion(pk=_ROW, token=token)], ignore_conflicts=True)
        CatalogVersion.objects.filter(pk=_ROW).update(token=token)
    _local.token = None  # the rest of this request must read the new token


def catalog_token() -> str:
    """The catalog's current token: one query, or none when this request has read it already."""
    token = getattr(_local, "token", None)
    if token is not None:
        return token
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT token FROM {connection.ops.quote_name(CatalogVersion._meta.db_table)} WHERE id = %s", [_ROW]
        )
        row = cursor.fetchone()
    if row is None:
        catalog_version_bump()
        return catalog_token()
    if getattr(_local, "in_request", False):
        _local.token = row[0]
    return row[0]


class CatalogMemory:
    """Facts and revisions read from the catalog while its token was `token`; filled as requests need them.

    Only what exists is remembered (an unknown collector number, name or slug is asked again
    each time), so clients cannot fill it with junk.
    """

    def __init__(self, token: str) -> None:
        self.token = token
        # The engine's facts by collector number; by card id, so printings of a name share one object.
        self.facts: dict[str, CardFacts] = {}
        self.facts_by_card: dict[int, CardFacts] = {}
        # A card name -> one of its collector numbers (see decks.selectors.deck_entries_resolve).
        self.number_of_name: dict[str, str] = {}
        self.attributes: frozenset[str] | None = None
        # Slug -> the revisions (data deferred) with their ruler or geas, oldest first.
        self.ruler_revisions: dict[str, tuple[RulerRevision, ...]] = {}
        self.geas_revisions: dict[str, tuple[GeasRevision, ...]] = {}

    def full(self) -> bool:
        return len(self.facts) + len(self.number_of_name) > MAX_REMEMBERED


_memory: CatalogMemory | None = None


def catalog_memory() -> CatalogMemory:
    """This process's memory of the catalog as of its current token (a new, empty one when the token changed)."""
    global _memory
    token = catalog_token()
    memory = _memory
    if memory is None or memory.token != token or memory.full():
        memory = _memory = CatalogMemory(token)
    return memory


def catalog_memory_forget() -> None:
    """Drop this process's memory (tests; the token check makes it unnecessary otherwise)."""
    global _memory
    _memory = None
    _local.token = None


# --- keeping the token in step with writes -------------------------------------------------


def _catalog_changed(sender: Any, **kwargs: Any) -> None:
    if kwargs.get("raw"):  # loaddata: the fixture's rows, bumped below by whoever loads them
        return
    catalog_version_bump()


def _card_attributes_changed(sender: Any, action: str, **kwargs: Any) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        catalog_version_bump()


def _request_started(**kwargs: Any) -> None:
    _local.in_request = True
    _local.token = None


def _request_finished(**kwargs: Any) -> None:
    _local.in_request = False
    _local.token = None


def connect_signals() -> None:
    """Called once, from CardsConfig.ready."""
    for model in CATALOG_MODELS:
        post_save.connect(_catalog_changed, sender=model, dispatch_uid=f"catalog-save-{model.__name__}")
        post_delete.connect(_catalog_changed, sender=model, dispatch_uid=f"catalog-delete-{model.__name__}")
    m2m_changed.connect(_card_attributes_changed, sender=Card.attributes.through, dispatch_uid="catalog-attributes")
    request_started.connect(_request_started, dispatch_uid="catalog-request-started")
    request_finished.connect(_request_finished, dispatch_uid="catalog-request-finished")
