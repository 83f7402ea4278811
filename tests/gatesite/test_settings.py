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
def test_it_defaults_to_sqlite_and_eager_tasks():
    process = run_check(DEBUG="1")

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
