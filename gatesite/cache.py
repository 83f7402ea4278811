"""Django's Redis cache, with one redis-py client per connection pool rather than one per call.

Django's RedisCacheClient.get_client builds a new `redis.Redis` for every cache operation: about
65 µs each (its response callbacks are set up anew), while the pool it hands that client is kept.
The sessions (cached_db: a read per request of a signed-in player) and the API throttles (a read
and a write per API request) each pay it. A redis-py client over a pool is safe to share between
threads, and the pool itself notices a fork, so each pool's client is kept here with the pool.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


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
