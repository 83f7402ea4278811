"""gatesite.cache: Django's Redis cache with a client kept per connection pool."""

from __future__ import annotations

import os

import pytest
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from gatesite.cache import RedisCache


def test_each_cache_call_reuses_its_pools_client():
    cache = RedisCache("redis://127.0.0.1:6379/0", {})  # making clients connects to nothing

    client = cache._cache.get_client("a", write=True)

    assert cache._cache.get_client("b", write=False) is client  # one server: reads and writes share its pool
    assert client.connection_pool is cache._cache._get_connection_pool(True)
    # What it spares: Django's own client makes a new redis.Redis for every call.
    django_cache = DjangoRedisCache("redis://127.0.0.1:6379/0", {})
    assert django_cache._cache.get_client(write=True) is not django_cache._cache.get_client(write=True)


def test_replicas_each_get_their_own_client():
    cache = RedisCache("redis://primary:6379/0,redis://replica-1:6379/0,redis://replica-2:6379/0", {})

    writer = cache._cache.get_client(write=True)
    readers = {id(cache._cache.get_client(write=False)) for _ in range(40)}

    assert writer.connection_pool.connection_kwargs["host"] == "primary"
    hosts = {pool.connection_kwargs["host"] for pool in cache._cache._pools.values()}
    assert hosts == {"primary", "replica-1", "replica-2"}  # 40 random reads reach both replicas
    assert len(readers) == 2
    assert id(writer) not in readers


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis of REDIS_URL (CI sets it)")
def test_it_reads_and_writes_redis():
    cache = RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": "gatesite-test-cache"})

    cache.set("answer", {"n": 42}, timeout=30)
    cache.set("count", 1, timeout=30)

    assert cache.get("answer") == {"n": 42}
    assert cache.incr("count") == 2
    cache.delete_many(["answer", "count"])
    assert cache.get_many(["answer", "count"]) == {}
