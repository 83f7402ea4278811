"""Shared fixtures: the rules loaded, personas, a real Celery worker when REDIS_URL is set; Hypothesis profiles and the slow marker."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import settings as hypothesis_settings

# Hypothesis profiles: a quick one for everyday runs, a thorough one for CI (.ci/run exports
# HYPOTHESIS_PROFILE=ci). Tests pin only what is special to them (a deadline, a health check),
# so the number of examples comes from here. No deadline: the machine is shared, timings are noise.
hypothesis_settings.register_profile("dev", max_examples=50, deadline=None)
hypothesis_settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# The tests that take seconds each (pytest --durations=30 on 2 shared cores): browsers, Schemathesis,
# subprocesses, the largest Hypothesis searches. `make test` runs them; PYTEST_ARGS='-m "not slow"'
# leaves them out for a quick run. Node ids or their prefixes (a folder, a file, a test and its cases).
@pytest.fixture(scope="session", autouse=True)
def configured_services_are_reachable() -> None:
    """When CI configures PostgreSQL or Redis, an unreachable server fails the suite; it never skips."""
    if os.environ.get("REDIS_URL"):
        import redis

        try:
            redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
        except redis.RedisError as exc:
            pytest.fail(f"REDIS_URL is set but Redis is unreachable: {exc}", pytrace=False)
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        import psycopg

        try:
            # The server's own database: the test database does not exist yet, whatever its name.
            url = urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres").geturl()
            psycopg.connect(url, connect_timeout=3).close()
        except psycopg.Error as exc:
            pytest.fail(
                f"DATABASE_URL is set but PostgreSQL is unreachable: {exc}",
                pytrace=False,
            )


# The session's database blocker, kept by django_db_setup for the teardown hook, which gets no fixtures.
_DB_BLOCKER = pytest.StashKey[Any]()


def _rules_load() -> None:
    from cards.rules_loading import rules_load

    rules_load()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any, pytestconfig: pytest.Config) -> None:
    """The test database, with the rules of data/rules.json loaded (committed) once for the whole session.

    A test's own edits to them roll back with its transaction; a transactional test's flush
    empties every table, so the rules are loaded again after it (pytest_runtest_teardown below).
    """
    pytestconfig.stash[_DB_BLOCKER] = django_db_blocker
    _flush_by_delete()
    with django_db_blocker.unblock():
        _rules_load()


def _flush_by_delete() -> None:
    """On PostgreSQL, a transactional test's flush empties the tables by DELETE instead of TRUNCATE.

    TRUNCATE of the ~50 tables gives each new files, fsync'd: about 2 s per transactional test on 2 shared
    cores, against 0.15 s to DELETE the few rows a test leaves. The tables end as empty (no sequence is reset
    by either); the foreign keys, DEFERRABLE INITIALLY DEFERRED as Django makes them, are checked at the flush's
    commit. A flush asked to reset sequences or to cascade beyond the listed tables keeps Django's TRUNCATE.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return  # SQLite's flush already deletes
    operations = type(connection.ops)
    truncate = operations.sql_flush

    def sql_flush(
        self: Any, style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]

    operations.sql_flush = sql_flush  # type: ignore[method-assign]


def _flushes_the_database(item: pytest.Item) -> bool:
    """Whether pytest-django ran the test as a TransactionTestCase, which flushes every table after it."""
    from pytest_django.fixtures import validate_django_db

    marker = item.get_closest_marker("django_db")
    transaction, reset_sequences = validate_django_db(marker)[:2] if marker else (False, False)
    names = set(getattr(item, "fixturenames", ()))
    return (
        transaction or reset_sequences or bool(names & {"transactional_db", "live_server", "django_db_reset_sequences"})
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    # After the last test the test database is gone (nextitem None): nothing to load them into.
    if nextitem is not None and _flushes_the_database(item) and _DB_BLOCKER in item.config.stash:
        # The flush took the session's rules with it: load them again for the tests that follow.
        with item.config.stash[_DB_BLOCKER].unblock():
            _rules_load()
    return result


@pytest.fixture
def rules(db: None) -> None:
    """Every ruler, geas and revision of data/rules.json, as `make run` loads them.

    They are loaded once per session (django_db_setup above), so this only checks they are there
    and loads them, as a last resort, if something left the database without them.
    """
    from cards.models import Ruler

    if not Ruler.objects.exists():
        _rules_load()


@pytest.fixture
def no_rules(db: None) -> None:
    """A database without rulers, geases or revisions, as before `make run` loads them (rolled back after the test)."""
    from cards.models import Ruler

    Ruler.objects.all().delete()  # their revisions and geases go with them (on_delete=CASCADE)


@pytest.fixture
def user(db: None) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("alice", "alice@example.com", "correct horse battery")


@pytest.fixture
def other_user(db: None) -> Any:
    """Charlie should have no access to Alice's things."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("charlie", "charlie@example.com", "correct horse battery")


@pytest.fixture
def celery_worker_on_redis(transactional_db: None) -> Iterator[Any]:
    """A real Celery worker consuming from Redis when REDIS_URL is set; eager in-process otherwise.

    The worker runs in a thread of this process against the same test database, so tests
    that use it need committed data (hence transactional_db).
    """
    from django.conf import settings

    from gatesite.celery import app

    if not settings.REDIS_URL:
        yield None
        return
    from celery.contrib.testing.worker import start_worker

    app.conf.task_always_eager = False
    # Tasks left queued by an interrupted run (or a command run by hand against this Redis database)
    # would run against the test database: start from an empty queue.
    app.control.purge()
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as worker:
            yield worker
    finally:
        app.conf.task_always_eager = True


@pytest.fixture(autouse=True)
def clock_on_another_day() -> Iterator[None]:
    """GATESITE_TEST_TODAY=2027-02-28 (or a full ISO datetime) runs every test with the clock there, ticking.

    No test may depend on the calendar: those that read the clock freeze it themselves. This
    checks it: run the suite on a few other days (a month's end, a leap day, a new year).
    """
    when = os.environ.get("GATESITE_TEST_TODAY")
    if not when:
        yield
        return
    import datetime

    import time_machine

    moment = datetime.datetime.fromisoformat(when if "T" in when else f"{when}T12:00:00+00:00")
    with time_machine.travel(moment, tick=True):
        yield


@pytest.fixture(autouse=True)
def catalog_request_state_reset() -> Iterator[None]:
    """Each test starts outside any request, whatever an earlier test's unfinished request left behind."""
    from cards.catalog import catalog_request_reset

    catalog_request_reset()
    yield
    catalog_request_reset()


@pytest.fixture(autouse=True)
def language_reset() -> Iterator[None]:
    """Each test starts in the default language: a request made with the test client leaves its language
    active in the thread (LocaleMiddleware activates and never deactivates), which would change what
    a later test's words, outside any request, read."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


def redis_server_present() -> None:
    """The outage tests start a redis-server of their own: skipped on a newcomer's machine without one,
    a failure where the suite is configured with Redis (CI), which must run them."""
    import shutil

    if shutil.which("redis-server") is None:
        if os.environ.get("REDIS_URL"):
            pytest.fail("REDIS_URL is set but redis-server is missing: the Redis outage tests need it", pytrace=False)
        pytest.skip("needs redis-server (apt-get install redis-server)")


@pytest.fixture
def own_redis(tmp_path: Any) -> Iterator[Any]:
    """A redis-server of the test's own on a free port, which the test may kill and start again."""
    from bench.common import OwnRedis

    redis_server_present()
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def celery_pools_reset(app: Any) -> None:
    """Forget the Celery app's broker connections, so a changed broker_url is the one used next."""
    app._pool = None  # kombu keeps each URL's pool: the old broker's is found again when it comes back
    app.amqp._producer_pool = None


@pytest.fixture
def broker_at(settings: Any) -> Iterator[Any]:
    """Send Celery tasks to a broker URL of the test's choosing (not eagerly): broker_at(url)."""
    from gatesite.celery import app
    from gatesite.outbox import services

    saved = app.conf.task_always_eager, app.conf.broker_url

    def point(url: str) -> None:
        app.conf.task_always_eager = False
        app.conf.broker_url = url
        celery_pools_reset(app)
        services._broker_down_until = 0.0

    try:
        yield point
    finally:
        app.conf.task_always_eager, app.conf.broker_url = saved
        celery_pools_reset(app)
        services._broker_down_until = 0.0


@pytest.fixture
def broker_down(broker_at: Any) -> None:
    """A broker nobody listens at: sending a task fails as with Redis down."""
    from bench.common import free_port

    broker_at(f"redis://127.0.0.1:{free_port()}/0")
