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


def test_a_write_skipped_while_redis_was_unreachable_is_not_read_back_when_it_returns(own_redis, monkeypatch):
    from redis.exceptions import ConnectionError as RedisConnectionError

    from gatesite import cache as cache_module

    monkeypatch.setattr(cache_module, "RETRY_AFTER", 0.0)
    cache = RedisCache(own_redis.url, {"KEY_PREFIX": "gatesite-test-cache"})
    other_thread = RedisCache(own_redis.url, {"KEY_PREFIX": "gatesite-test-cache"})  # Django's cache of another thread
    cache.set("session", "signed in", timeout=60)

    def unreachable(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    with monkeypatch.context() as outage:  # Redis keeps its data but this process cannot reach it
        outage.setattr(cache_module.RedisCacheClient, "set", unreachable)
        outage.setattr(cache_module.RedisCacheClient, "delete", unreachable)
        cache.set("session", "signed out")  # skipped, no error
        cache.delete("draft")

    # Back: the value from before the skipped write is gone, not served as if current, in any thread.
    assert other_thread.get("session") is None
    cache.set("session", "signed in again", timeout=60)
    assert cache.get("session") == "signed in again"


def test_a_killed_redis_is_used_again_once_it_is_back(own_redis, monkeypatch):
    from gatesite import cache as cache_module

    monkeypatch.setattr(cache_module, "RETRY_AFTER", 0.0)
    cache = RedisCache(own_redis.url, {"KEY_PREFIX": "gatesite-test-cache", "OPTIONS": {"socket_timeout": 0.5}})
    cache.set("a", 1, timeout=60)

    own_redis.kill()
    assert cache.get("a") is None
    cache.set("a", 2)  # skipped
    assert cache.ping() is False

    own_redis.start()
    assert cache.ping() is True
    assert cache.get("a") is None  # a restarted Redis without persistence starts empty
    cache.set("a", 3, timeout=60)
    assert cache.get("a") == 3
