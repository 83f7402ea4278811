"""Redis killed for 25 s while six players work and an admin uploads a set (issue 24).

The suite's stack shares the machine's Redis, which must never be stopped; this probe starts a
redis-server of its own on a free port and, against the stack's database (its worker and beat
stopped meanwhile), a gunicorn, a Celery worker and beat that use it for their cache, sessions, throttles and broker. Six players (each
their own signed-in session and deck) loop over the deck page, the editor, an autosave, the
validate API (anonymous), a token PATCH and, now and then, a fresh sign-in. After a few seconds
Redis is SIGKILLed; the admin uploads a set file while it is down; 25 s later Redis starts again
(empty, as a Redis without persistence does).

A failure: any 5xx or request that got no answer. Time to recover: from Redis' return to the
import queued during the outage finishing (it waited in the outbox; beat sends it within 15 s).
"""

from __future__ import annotations

import json
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import requests

from bench.common import REPO, OwnRedis, Server, ServerConfig

from .imports import _query
from .probes import TIMEOUT, Case
from .stack import Stack, deck_create, login

PLAYERS = 6
DOWN_S = 25.0
BEFORE_S = 5.0
AFTER_S = 10.0
SET_FILE = json.dumps(
    {
        "set": {"code": "RO01", "name": "Outage set"},
        "cards": [{"number": "RO01-001", "name": "Outage Squire", "type": "unit", "faction": "Red", "level": 1}],
    }
).encode()


class Tally:
    """Requests per phase (before, down, after): how many, how many failed, their latencies."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.phase = "before"
        self.counts: dict[str, dict[str, Any]] = {
            p: {"tried": 0, "failed": 0, "ms": [], "examples": []} for p in ("before", "down", "after")
        }

    def record(self, what: str, started: float, response: requests.Response | None, error: str = "") -> None:
        ms = (time.monotonic() - started) * 1000
        with self.lock:
            phase = self.counts[self.phase]
            phase["tried"] += 1
            phase["ms"].append(ms)
            if response is None or response.status_code >= 500:
                phase["failed"] += 1
                if len(phase["examples"]) < 5:
                    phase["examples"].append(f"{what}: {response.status_code if response is not None else error}")


def _sign_in(base: str, username: str, tries: int = 3) -> requests.Session:
    """login(), tried again on a timeout: six sign-ins at once on a busy machine can take a while."""
    for attempt in range(tries):
        try:
            return login(base, username)
        except requests.Timeout:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def _player(
    base: str, session: requests.Session, username: str, token: str, deck: str, tally: Tally, stop: threading.Event
) -> None:
    try:
        _play(base, session, username, token, deck, tally, stop)
    except Exception as exc:  # a player that breaks is a failure counted, not a thread dying silently
        tally.record("player", time.monotonic(), None, f"{type(exc).__name__}: {exc}"[:120])


def _play(
    base: str, session: requests.Session, username: str, token: str, deck: str, tally: Tally, stop: threading.Event
) -> None:
    api = {"Authorization": f"Token {token}"}
    anonymous = requests.Session()
    n = 0

    def call(what: str, method: str, url: str, session_: requests.Session = session, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            response = session_.request(method, base + url, timeout=TIMEOUT, **kwargs)
        except requests.RequestException as exc:
            tally.record(what, started, None, type(exc).__name__)
            return None
        tally.record(what, started, response)
        return response

    while not stop.is_set():
        n += 1
        call("deck page", "GET", f"/d/{deck}/")
        call("editor", "GET", f"/decks/{deck}/edit/")
        got = call("deck (API)", "GET", f"/api/v1/decks/{deck}/", requests.Session(), headers=api)
        version = got.json().get("version", 1) if got is not None and got.status_code == 200 else 1
        op = "add main 2020PS00-001" if n % 2 else "remove main 2020PS00-001"
        csrf = session.cookies.get("csrftoken", "")
        call(
            "autosave",
            "POST",
            f"/decks/{deck}/change/",
            data={"op": op, "base_version": version, "shown": "", "hinted": ""},
            headers={"HX-Request": "true", "X-CSRFToken": csrf, "Referer": base + f"/decks/{deck}/edit/"},
        )
        call("validate", "POST", "/api/v1/decks/validate/", anonymous, json={"ruler": "apprentice", "main": []})
        got = call("deck (API)", "GET", f"/api/v1/decks/{deck}/", requests.Session(), headers=api)
        version = got.json().get("version", 1) if got is not None and got.status_code == 200 else 1
        call(
            "token PATCH",
            "PATCH",
            f"/api/v1/decks/{deck}/",
            requests.Session(),
            json={"version": version, "name": f"Outage deck {n}"},
            headers=api,
        )
        if n % 10 == 0:
            started = time.monotonic()
            try:
                login(base, username)
                tally.record("sign-in", started, _Ok())
            except Exception as exc:  # login() raises on anything but its redirect
                tally.record("sign-in", started, None, str(exc)[:80])


class _Ok:
    status_code = 302


def _admin_upload(base: str) -> tuple[int, bool, float]:
    """The admin's "Import card set" upload: its status, whether the page says it waits, seconds taken."""
    admin = _sign_in(base, "rel-staff")
    admin.get(f"{base}/admin/cards/importjob/import/", timeout=TIMEOUT)
    csrf = admin.cookies.get("csrftoken", "")
    started = time.monotonic()
    response = admin.post(
        f"{base}/admin/cards/importjob/import/",
        data={"csrfmiddlewaretoken": csrf, "mode": "apply", "errata_effective_date": ""},
        files={"file": ("ro01.json", SET_FILE, "application/json")},
        headers={"Referer": f"{base}/admin/cards/importjob/import/"},
        timeout=TIMEOUT,
    )
    return response.status_code, "Queued, waiting for the worker" in response.text, time.monotonic() - started


def redis_outage(stack: Stack, workdir: Path, *, players: int = PLAYERS, down_s: float = DOWN_S) -> Case:
    case = Case("Redis killed 25 s (6 players, an upload)")
    # The stack's own worker and beat share the database: they would send the outbox through the
    # shared Redis and hide what this probe measures. Stopped for its length, started again after.
    stack.celery_stop()
    own = OwnRedis(workdir)
    own.start()
    env = {**stack.env, "REDIS_URL": own.url}
    server = Server(ServerConfig(stack.workers, "sync", 1), env, workdir)
    celery: list[subprocess.Popen[bytes]] = []
    try:
        server.__enter__()
        for argv in (
            ["worker", "--concurrency=1", "--prefetch-multiplier=1", "--without-gossip", "--without-mingle"],
            ["beat", "-S", "celery.beat:PersistentScheduler", "-s", str(workdir / "outage-beat-schedule")],
        ):
            log = (workdir / f"outage-celery-{argv[0]}.log").open("ab")
            celery.append(
                subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "gatesite", *argv, "--loglevel=WARNING"],
                    cwd=REPO,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        base = server.base
        users = [("rel-owner", stack.tokens["rel-owner"]), ("rel-other", stack.tokens["rel-other"])]
        decks = [deck_create(base, users[i % 2][1], name=f"Outage deck {i}") for i in range(players)]
        tally, stop = Tally(), threading.Event()
        sessions = [_sign_in(base, users[i % 2][0]) for i in range(players)]  # with Redis up, one at a time
        threads = [
            threading.Thread(
                target=_player,
                args=(base, sessions[i], users[i % 2][0], users[i % 2][1], decks[i], tally, stop),
                daemon=True,
            )
            for i in range(players)
        ]
        for thread in threads:
            thread.start()
        time.sleep(BEFORE_S)
        own.kill()
        tally.phase = "down"
        killed = time.monotonic()
        upload_status, waiting, upload_s = _admin_upload(base)
        job_id = _query("SELECT max(id) FROM cards_importjob")[0][0]
        time.sleep(max(0.0, down_s - (time.monotonic() - killed)))
        own.start()
        back = time.monotonic()
        tally.phase = "after"
        status = ""
        while time.monotonic() - back < 120:
            status = _query("SELECT status FROM cards_importjob WHERE id = %s", job_id)[0][0]
            if status in ("succeeded", "failed"):
                break
            time.sleep(0.5)
        ran_after = time.monotonic() - back
        time.sleep(max(0.0, AFTER_S - ran_after))
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        for process in celery:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        server.__exit__()
        own.kill()
        stack.worker_start()
        stack.beat_start()
    printings = _query("SELECT count(*) FROM cards_printing WHERE collector_number = 'RO01-001'")[0][0]
    for phase in tally.counts.values():
        case.tried += phase["tried"]
        for example in phase["examples"]:
            case.fail(example)
        case.failures += max(0, phase["failed"] - len(phase["examples"]))
    case.tried += 1
    if upload_status != 200 or not waiting:
        case.fail(f"admin upload during the outage: {upload_status}, says it waits: {waiting}")
    if status != "succeeded" or printings != 1:
        case.fail(f"the import queued during the outage: {status}, {printings} printings")
    case.recover_s = round(ran_after, 1) if status == "succeeded" else None

    def p(phase: str, q: float) -> str:
        ms = sorted(tally.counts[phase]["ms"]) or [0.0]
        return f"{ms[min(len(ms) - 1, int(q * len(ms)))]:.0f}"

    down = tally.counts["down"]
    case.note = (
        f"{down['tried']} requests while down, {down['failed']} failed; median/p95 ms before "
        f"{statistics.median(tally.counts['before']['ms'] or [0]):.0f}/{p('before', 0.95)}, down "
        f"{statistics.median(down['ms'] or [0]):.0f}/{p('down', 0.95)}, after "
        f"{statistics.median(tally.counts['after']['ms'] or [0]):.0f}/{p('after', 0.95)}; upload {upload_status} "
        f"in {upload_s:.1f} s ({'queued, waiting for the worker' if waiting else 'no waiting message'}); "
        f"import {status} {ran_after:.1f} s after Redis returned"
    )
    return case
