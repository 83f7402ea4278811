"""What each web process remembers of the catalog and the rules, and how it knows when to forget.

Every validate request and every editor change needs the engine's facts of a few dozen
printings and the rules revisions in force; reading them from the database cost more than the
rest of the request. A process keeps them in a CatalogMemory, tagged with the token of the one
CatalogVersion row. Every write to the cards or the rules changes that token in the same
transaction (catalog_version_bump: the imports, which also record errata; load_rules; and the
post_save/post_delete/m2m_changed receivers below for admin and ORM edits), so any process
that reads the token sees a write as soon as it is committed and drops its memory.

The token is read once per request (remembered until the request ends, see
request_started/request_finished below) and on every call outside a request (management
commands, Celery tasks, tests calling selectors). Reading it is one primary-key SELECT, except
on PostgreSQL outside a transaction (web requests): there each database connection LISTENs on
a channel to which catalog_version_bump NOTIFYs the new token. PostgreSQL delivers a
notification when, and only if, the bumping transaction commits, so a process learns of every
committed change from its connection's socket: a non-blocking poll instead of a round trip to
the server, which cost a validate request a third of its CPU time (docs/benchmarks.md). The
token is still read with a SELECT on a new connection (after LISTEN, so no commit is missed in
between) and whenever the poll cannot tell.
"""

from __future__ import annotations

import select
import threading
import uuid
import weakref
from collections.abc import Callable, Hashable
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connection, connections
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

# Derived values remembered per catalog version (a few per API page and date clients ask about).
MAX_DERIVED = 10_000

# The rendered API answers each process keeps per catalog version (the whole card list is ~10 MB).
MAX_ANSWER_BYTES = 64 * 1024 * 1024

_ROW = 1
T = TypeVar("T")
_local = threading.local()


# The PostgreSQL channel on which catalog_version_bump announces each new token.
CHANNEL = "gatesite_catalog"


def catalog_version_bump() -> None:
    """Give the catalog a new token, in the caller's transaction: every process's memory is stale once it commits."""
    token = uuid.uuid4().hex
    if not CatalogVersion.objects.filter(pk=_ROW).update(token=token):
        # The row is gone (a test database flushed); two processes may race to put it back.
        CatalogVersion.objects.bulk_create([CatalogVersion(pk=_ROW, token=token)], ignore_conflicts=True)
        CatalogVersion.objects.filter(pk=_ROW).update(token=token)
    _local.token = None  # the rest of this request must read the new token
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # sent to the listeners on commit, never on rollback
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, token])
        listener = _listeners.get(connection.connection)
        if listener is not None:
            listener.forget()  # this connection hears its own notification only once it commits


def catalog_token() -> str:
    """The catalog's current token: known already in this request, told by notifications, or else one query."""
    token = getattr(_local, "token", None)
    if token is not None:
        return token
    listener = _listener()
    if listener is not None:
        listener.poll()
        token = listener.token
    if token is None:
        heard = listener.heard if listener is not None else 0
        token = _token_read()
        if listener is not None and listener.heard == heard:
            # Only if no notification came in meanwhile: it may be newer than what the SELECT saw.
            listener.token = token
    if getattr(_local, "in_request", False):
        _local.token = token
    return token


def _token_read() -> str:
    table = connection.ops.quote_name(CatalogVersion._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token FROM {table} WHERE id = %s", [_ROW])
        row = cursor.fetchone()
    if row is None:
        catalog_version_bump()
        return _token_read()
    return row[0]


class _Listener:
    """What one PostgreSQL connection has heard on CHANNEL: the latest token, None when not known."""

    def __init__(self, raw: Any) -> None:
        self.raw = weakref.ref(raw)
        self.token: str | None = None
        self.heard = 0  # notifications received: catalog_token's guard against overwriting a newer token

    def notified(self, payload: str) -> None:
        self.token = payload or None
        self.heard += 1

    def forget(self) -> None:
        self.token = None
        self.heard += 1

    def poll(self) -> None:
        """Take in the notifications waiting on the socket, without blocking; on any trouble, forget the token."""
        raw = self.raw()
        if raw is None:
            self.forget()
            return
        try:
            pgconn = raw.pgconn
            if not select.select([pgconn.socket], [], [], 0)[0]:
                return
            pgconn.consume_input()
            while (notify := pgconn.notifies()) is not None:
                if notify.relname.decode() == CHANNEL:
                    self.notified(notify.extra.decode())
        except Exception:  # a broken connection: Django notices at its next query; until then, ask
            self.forget()


# One listener per PostgreSQL connection (the DB-API object), dropped with it.
_listeners: weakref.WeakKeyDictionary[Any, _Listener] = weakref.WeakKeyDictionary()


def _listener() -> _Listener | None:
    """The current connection's listener, LISTENing first if it is new; None where notifications cannot tell.

    Not inside a transaction: LISTEN would wait for its commit, and a write of the same
    transaction is not the other processes' to see yet (the transaction's own bumps reset the
    token, see catalog_version_bump).
    """
    # The connection itself, not Django's `connection` proxy: each attribute read through the proxy
    # looks the connection up again (~2 µs), and this runs on every request that reads the catalog.
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.vendor != "postgresql" or conn.in_atomic_block or not settings.CATALOG_LISTEN:
        return None
    raw = conn.connection
    if raw is None or raw.closed:
        return None
    listener = _listeners.get(raw)
    if listener is None:
        listener = _Listener(raw)
        with conn.cursor() as cursor:
            cursor.execute(f"LISTEN {CHANNEL}")

        def heard(notify: Any) -> None:  # what psycopg reads along with query results
            if notify.channel == CHANNEL:
                listener.notified(notify.payload)

        raw.add_notify_handler(heard)
        _listeners[raw] = listener
    return listener


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
        # The Printing row id by collector number, read along with the facts (a save of a new line needs it).
        self.printing_ids: dict[str, int] = {}
        # A card name -> one of its collector numbers (see decks.selectors.deck_entries_resolve).
        self.number_of_name: dict[str, str] = {}
        self.attributes: frozenset[str] | None = None
        # Slug -> the revisions (data deferred) with their ruler or geas, oldest first.
        self.ruler_revisions: dict[str, tuple[RulerRevision, ...]] = {}
        self.geas_revisions: dict[str, tuple[GeasRevision, ...]] = {}
        # (ruler slug, geas slug, date) -> the revisions in force, their parsed rules, and whether the
        # ruler's are its earliest (cards.rules_selectors.rules_choice_get); bounded there.
        self.rules_in_force: dict[tuple[str, str | None, date], Any] = {}
        # Cards by id with their facts (cards.selectors.with_card_facts), as the card search shows them;
        # shared by the requests of this process: read only.
        self.cards: dict[int, Card] = {}
        # Values worked out from the catalog (catalog_remembered): immutable, a few per key.
        self.derived: dict[Hashable, Any] = {}
        # The catalog API's rendered answers (catalog_answer_remembered), and their total size.
        self.answers: dict[Hashable, bytes] = {}
        self.answers_size = 0

    def full(self) -> bool:
        return len(self.facts) + len(self.number_of_name) + len(self.cards) > MAX_REMEMBERED


_memory: CatalogMemory | None = None


def catalog_memory() -> CatalogMemory:
    """This process's memory of the catalog as of its current token (a new, empty one when the token changed)."""
    global _memory
    token = catalog_token()
    memory = _memory
    if memory is None or memory.token != token or memory.full():
        memory = _memory = CatalogMemory(token)
    return memory


def catalog_remembered(key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()` worked out once per catalog version in this process (it must read only the catalog
    and return an immutable value): the catalog API's answers, the rulers whose first turn differs."""
    memory = catalog_memory()
    try:
        return memory.derived[key]  # type: ignore[no-any-return]
    except KeyError:
        pass
    value = compute()
    if len(memory.derived) < MAX_DERIVED:
        memory.derived[key] = value
    return value


def catalog_answer_remembered(key: Hashable, render: Callable[[], bytes]) -> bytes:
    """An API answer rendered once per catalog version in this process, within MAX_ANSWER_BYTES in all
    (past it, answers are rendered each time: clients asking many different URLs cannot grow it)."""
    memory = catalog_memory()
    answer = memory.answers.get(key)
    if answer is None:
        answer = render()
        if memory.answers_size + len(answer) <= MAX_ANSWER_BYTES:
            memory.answers[key] = answer
            memory.answers_size += len(answer)
    return answer


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


def catalog_request_start() -> None:
    """Behave as at the start of a request (the catalog's version read once until it ends), as the
    request_started signal does, without the signal's other receivers (Django closes the database
    connection there, which a test inside its transaction cannot have)."""
    _request_started()


def catalog_request_reset() -> None:
    """Forget the request this thread was in. Servers always finish a request; a test client request
    whose view raised (or whose streaming body was never closed) sends no request_finished, and the
    thread would keep that request's token for the rest of the run."""
    _request_finished()


def connect_signals() -> None:
    """Called once, from CardsConfig.ready."""
    for model in CATALOG_MODELS:
        post_save.connect(_catalog_changed, sender=model, dispatch_uid=f"catalog-save-{model.__name__}")
        post_delete.connect(_catalog_changed, sender=model, dispatch_uid=f"catalog-delete-{model.__name__}")
    m2m_changed.connect(_card_attributes_changed, sender=Card.attributes.through, dispatch_uid="catalog-attributes")
    request_started.connect(_request_started, dispatch_uid="catalog-request-started")
    request_finished.connect(_request_finished, dispatch_uid="catalog-request-finished")
