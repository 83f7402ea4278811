"""The stack the reliability suite probes: PostgreSQL, Redis, gunicorn, a Celery worker and beat.

Everything on loopback, in its own database (gatesite_bench_reliability) and Redis db (13), so
it never touches another run's data. The worker and beat are subprocesses the suite may kill
(bench/reliability/recovery.py) and start again, as a process supervisor would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from bench.common import REPO, Server, ServerConfig, manage, prepare_database, server_env

# Another database and Redis db by environment, so two people on one machine can run the suite at once.
DATABASE_URL = os.environ.get(
    "RELIABILITY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gatesite_bench_reliability"
)
REDIS_URL = os.environ.get("RELIABILITY_REDIS_URL", "redis://127.0.0.1:6379/13")
PASSWORD = "reliability-probe-Pa55"
USERS = ("rel-owner", "rel-other", "rel-staff")
# A deck list the practice set always has (data/practice/practice_starter_ps00.json).
RULER = "apprentice"
MAIN = [{"number": f"2020PS00-{n:03d}", "count": 2} for n in range(1, 13)]


def stack_env() -> dict[str, str]:
    """Production settings (DEBUG off) on the suite's database and Redis; cookies over plain http.

    The anonymous and per-user API throttles are off (the load rows send thousands of requests
    from one address); the token endpoint's limit, sign-in lockouts and every other guard stay.
    """
    env = server_env(DATABASE_URL)
    env.update(
        REDIS_URL=REDIS_URL,
        SESSION_COOKIE_SECURE="0",  # plain http on loopback: a Secure cookie would never come back
        CSRF_COOKIE_SECURE="0",
        WORKER_CONCURRENCY="1",
    )
    return env


@dataclass
class Stack:
    """gunicorn + worker + beat for a `with` block; `base` is the site's URL."""

    workdir: Path
    workers: int = 3
    env: dict[str, str] = field(default_factory=stack_env)
    server: Server | None = None
    worker: subprocess.Popen[bytes] | None = None
    beat: subprocess.Popen[bytes] | None = None
    tokens: dict[str, str] = field(default_factory=dict)
    deck_id: str = ""

    @property
    def base(self) -> str:
        assert self.server is not None
        return self.server.base

    def __enter__(self) -> Stack:
        # A fresh database and Redis db each run: no lockout, deck or imported set of an earlier one.
        redis_flush()
        drop_database()
        prepare_database(DATABASE_URL)
        manage(self.env, "shell", "-c", _USERS_SCRIPT)
        try:
            self.server = Server(ServerConfig(self.workers, "sync", 1), self.env, self.workdir).__enter__()
            self.worker_start()
            self.beat_start()
            for user in USERS:
                self.tokens[user] = token_for(self.base, user)
            self.deck_id = deck_create(self.base, self.tokens["rel-owner"], name="Private probe deck")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for process in (self.beat, self.worker):
            _stop(process)
        if self.server is not None:
            self.server.__exit__()

    def worker_start(self) -> subprocess.Popen[bytes]:
        self.worker = self._celery(
            "worker",
            "--concurrency=1",
            "--prefetch-multiplier=1",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"reliability-{time.monotonic_ns()}@%h",
        )
        return self.worker

    def beat_start(self) -> subprocess.Popen[bytes]:
        self.beat = self._celery(
            "beat",
            "--scheduler",
            "django_celery_beat.schedulers:DatabaseScheduler",
            "-s",
            str(self.workdir / "beat-schedule"),
        )
        return self.beat

    def celery_stop(self) -> None:
        """Stop the worker and beat (a probe with a stack of its own on the same database needs them quiet)."""
        for process in (self.beat, self.worker):
            _stop(process)

    def _celery(self, *argv: str) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"celery-{argv[0]}.log").open("ab")
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "gatesite", *argv, "--loglevel=WARNING"],
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def shell(self, code: str, timeout: float = 300) -> str:
        """Run Python in `manage.py shell` against the stack; its stdout."""
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=REPO,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py shell failed:\n{result.stderr[-2000:]}")
        return result.stdout


def _stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)  # its own session: the worker's pool children too
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def drop_database() -> None:
    """Drop the suite's own database (gatesite_bench_reliability) if it is there."""
    import psycopg
    from psycopg import sql

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database_name())))


def redis_flush() -> None:
    """Empty the suite's own Redis database (13) only: queues and caches of an earlier run."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


_USERS_SCRIPT = f"""
from django.contrib.auth import get_user_model
User = get_user_model()
for name in {USERS!r}:
    user, _ = User.objects.get_or_create(username=name, defaults={{"email": name + "@example.com"}})
    user.set_password({PASSWORD!r})
    user.is_staff = user.is_superuser = name == "rel-staff"
    user.save()
"""


def token_for(base: str, username: str) -> str:
    response = requests.post(
        f"{base}/api/v1/auth/token/", json={"username": username, "password": PASSWORD}, timeout=10
    )
    response.raise_for_status()
    return str(response.json()["token"])


def deck_body(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "ruler": RULER, "main": MAIN, **extra}


def deck_create(base: str, token: str, *, name: str, **extra: Any) -> str:
    response = requests.post(
        f"{base}/api/v1/decks/", json=deck_body(name, **extra), headers={"Authorization": f"Token {token}"}, timeout=10
    )
    if response.status_code != 201:
        raise RuntimeError(f"creating a deck answered {response.status_code}: {response.text[:500]}")
    return str(response.json()["public_id"])


def login(base: str, username: str) -> requests.Session:
    """A browser-like session signed in through /accounts/login/ (CSRF cookie and field)."""
    session = requests.Session()
    session.get(f"{base}/accounts/login/", timeout=10)
    token = session.cookies.get("csrftoken", "")
    response = session.post(
        f"{base}/accounts/login/",
        data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/accounts/login/"},
        timeout=10,
        allow_redirects=False,
    )
    if response.status_code != 302:
        raise RuntimeError(f"signing in as {username} answered {response.status_code}")
    return session


def database_name() -> str:
    return urllib.parse.urlsplit(DATABASE_URL).path.lstrip("/")


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
