"""Django's Redis cache, with one redis-py client per connection pool, that a Redis outage turns into misses.

Django's RedisCacheClient.get_client builds a new `redis.Redis` for every cache operation: about
65 µs each (its response callbacks are set up anew), while the pool it hands that client is kept.
The sessions (cached_db: a read per request of a signed-in player) and the API throttles (a read
and a write per API request) each pay it. A redis-py client over a pool is safe to share between
threads, and the pool itself notices a fork, so each pool's client is kept here with the pool.

A cache is a cache (issue 24): when Redis cannot be reached, a read misses and a write is
skipped, so the sessions read the database (their source of truth) and the throttles let the
request through (docs/deploy.md says why they fail open). Django's RedisCache has no such mode
(django-redis' IGNORE_EXCEPTIONS is the same idea), hence this wrapper. After a failure Redis is
left alone for RETRY_AFTER seconds, so an outage costs a request one refused connection, not one
per cache call (nor one socket timeout per call when the host is gone). A write skipped meanwhile
leaves Redis with the value from before the outage, which would be read again once Redis is back
(a signed-out session signed in again, an older draft): the keys of skipped writes are kept, and
deleted first thing when Redis answers again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

# Seconds a process leaves Redis alone after a failed call before trying it again.
RETRY_AFTER = 1.0
# Keys of skipped writes kept for deletion once Redis is back; past this many, a warning says to flush the cache.
UNWRITTEN_KEYS_KEPT = 100_000
# What "Redis cannot be reached" raises (redis-py wraps socket errors, refused connections included, in these).
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)

T = TypeVar("T")


class _Outage:
    """A Redis server's outage as this process sees it: since when, until when it is left alone, the skipped writes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0  # time.monotonic() before which Redis is not tried
        self.down_since: float | None = None
        self.unwritten: set[str] = set()  # made keys whose write or delete was skipped
        self.overflow = False


_OUTAGES: dict[str, _Outage] = {}
_OUTAGES_LOCK = threading.Lock()


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[Any, Any] = {}  # by pool (Django keeps its pools for good)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        # Django makes a cache object per thread: the outage is the process's, one per server.
        with _OUTAGES_LOCK:
            self._outage = _OUTAGES.setdefault(server, _Outage())

    # ------------------------------------------------------------ the outage

    def reachable(self) -> bool:
        """Whether to try Redis now: not within RETRY_AFTER of a failure, and the skipped writes' keys cleared."""
        if time.monotonic() < self._outage.down_until:
            return False
        if self._outage.unwritten or self._outage.down_since is not None:
            return self._recover()
        return True

    def ping(self) -> bool:
        """Whether Redis answers now (the health check); a failure counts as one for the cache too."""
        try:
            self._cache.get_client(write=True).ping()
        except UNREACHABLE as exc:
            self._failed(exc)
            return False
        return self._recover()

    def _recover(self) -> bool:
        with self._outage.lock:
            keys = list(self._outage.unwritten)
            try:
                if keys:
                    self._cache.delete_many(keys)
            except UNREACHABLE as exc:
                self._failed(exc, locked=True)
                return False
            self._outage.unwritten.difference_update(keys)
            if self._outage.down_since is not None:
                logger.warning(
                    "Redis cache is back after %.1f s; %d keys written meanwhile were cleared.",
                    time.monotonic() - self._outage.down_since,
                    len(keys),
                )
                self._outage.down_since = None
            self._outage.overflow = False
            return True

    def _failed(self, exc: Exception, keys: Iterable[str] = (), *, locked: bool = False) -> None:
        if not locked:
            with self._outage.lock:
                self._failed(exc, keys, locked=True)
            return
        now = time.monotonic()
        self._outage.down_until = now + RETRY_AFTER
        if self._outage.down_since is None:
            self._outage.down_since = now
            # Once per outage: every call meanwhile would say the same.
            logger.warning("Redis cache unreachable (%s): reads miss and writes are skipped until it is back.", exc)
        self._unwritten_note(keys)

    def _unwritten_note(self, keys: Iterable[str]) -> None:
        for key in keys:
            if len(self._outage.unwritten) >= UNWRITTEN_KEYS_KEPT:
                if not self._outage.overflow:
                    self._outage.overflow = True
                    logger.error(
                        "Redis cache: more than %d writes skipped during the outage; some cached values may be stale "
                        "once it is back (flush the cache's Redis database to be sure).",
                        UNWRITTEN_KEYS_KEPT,
                    )
                return
            self._outage.unwritten.add(key)

    def _read(self, call: Callable[[], T], default: T) -> T:
        if not self.reachable():
            return default
        try:
            return call()
        except UNREACHABLE as exc:
            self._failed(exc)
            return default

    def _write(self, call: Callable[[], T], keys: Iterable[Any], version: int | None, failed: T) -> T:
        if self.reachable():
            try:
                return call()
            except UNREACHABLE as exc:
                self._failed(exc, self._made(keys, version))
                return failed
        with self._outage.lock:
            self._unwritten_note(self._made(keys, version))
        return failed

    def _made(self, keys: Iterable[Any], version: int | None) -> list[str]:
        return [self.make_and_validate_key(key, version=version) for key in keys]

    # ------------------------------------------------------------ reads miss

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._read(lambda: super(RedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._read(lambda: super(RedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._read(lambda: super(RedisCache, self).has_key(key, version), False)

    # ------------------------------------------------------------ writes are skipped (their keys kept)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._write(lambda: super(RedisCache, self).set(key, value, timeout, version), [key], version, None)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._write(lambda: super(RedisCache, self).add(key, value, timeout, version), [key], version, False)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._write(lambda: super(RedisCache, self).touch(key, timeout, version), [key], version, False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._write(lambda: super(RedisCache, self).delete(key, version), [key], version, False)

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        return self._write(
            lambda: super(RedisCache, self).set_many(data, timeout, version), list(data), version, list(data)
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        keys = list(keys)
        self._write(lambda: super(RedisCache, self).delete_many(keys, version), keys, version, None)
