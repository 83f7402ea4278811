from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run_check(**env_overrides: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL")}
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="gatesite.settings")
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER, settings.SESSION_COOKIE_SECURE)",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    process = run_check()

    assert process.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in process.stderr


@pytest.mark.slow
@pytest.mark.parametrize("empty", [{}, {"DATABASE_URL": "", "REDIS_URL": ""}])
def test_it_defaults_to_sqlite_and_eager_tasks(empty):
    """Unset or set empty (`DATABASE_URL= make run`), the embedded defaults."""
    process = run_check(DEBUG="1", **empty)

    assert process.returncode == 0, process.stderr
    assert process.stdout.split() == ["django.db.backends.sqlite3", "True", "False"]


@pytest.mark.slow
def test_it_uses_postgresql_redis_and_secure_cookies_when_configured():
    process = run_check(
        SECRET_KEY="x" * 50,
        DATABASE_URL="postgres://u@db.example:5432/gatesite",
        REDIS_URL="redis://redis.example:6379/0",
    )

    assert process.returncode == 0, process.stderr
    assert process.stdout.split() == ["django.db.backends.postgresql", "False", "True"]


def run_settings(expression: str, **env_overrides: str) -> subprocess.CompletedProcess[str]:
    """Print one expression of the production settings, in a fresh process with this environment."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "NUM_PROXIES")
    }
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="gatesite.settings", SECRET_KEY="x" * 50)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); from django.conf import settings; print({expression})"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


CACHE = "settings.CACHES['default']['BACKEND'], settings.CACHES['default']['LOCATION']"


@pytest.mark.slow
def test_the_cache_is_redis_when_redis_url_is_set():
    process = run_settings(CACHE, REDIS_URL="redis://redis.example:6379/0")

    assert process.returncode == 0, process.stderr
    backend, location = process.stdout.split()
    assert backend == "gatesite.cache.RedisCache"  # Django's, keeping a client per pool
    assert location == "redis://redis.example:6379/0"


@pytest.mark.slow
def test_cache_url_still_overrides_redis_url():
    process = run_settings(CACHE, REDIS_URL="redis://redis.example:6379/0", CACHE_URL="redis://cache.example:6379/3")

    assert process.returncode == 0, process.stderr
    assert process.stdout.split()[1] == "redis://cache.example:6379/3"


@pytest.mark.slow
def test_the_cache_is_per_process_without_redis():
    process = run_settings("settings.CACHES['default']['BACKEND']")

    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


SESSIONS = "settings.SESSION_ENGINE"


@pytest.mark.slow
def test_sessions_are_cached_in_a_shared_cache_and_kept_in_the_database():
    process = run_settings(SESSIONS, REDIS_URL="redis://redis.example:6379/0")

    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "gatesite.sessions.cached_db"


@pytest.mark.slow
def test_sessions_are_only_in_the_database_with_a_per_process_cache():
    # Each worker's memory would hold its own copy: a logout in one would go unseen by the others.
    for overrides in ({}, {"CACHE_URL": "locmemcache://"}, {"CACHE_URL": "dummycache://"}):
        process = run_settings(SESSIONS, **overrides)

        assert process.returncode == 0, process.stderr
        assert process.stdout.strip() == "gatesite.sessions.db", overrides


@pytest.mark.slow
def test_no_proxy_is_trusted_unless_declared():
    declared = run_settings("settings.NUM_PROXIES, settings.REST_FRAMEWORK['NUM_PROXIES']", NUM_PROXIES="2")
    default = run_settings("settings.NUM_PROXIES, settings.REST_FRAMEWORK['NUM_PROXIES']")

    assert declared.stdout.split() == ["2", "2"], declared.stderr
    assert default.stdout.split() == ["0", "0"], default.stderr
