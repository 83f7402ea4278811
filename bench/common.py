"""Helpers shared by the HTTP benchmarks (bench/validate.py, bench/editor.py).

A PostgreSQL database for the production settings (create, migrate, load), gunicorn serving the
app on a free loopback port, how busy the machine is with other work, and what machine it is.
Nothing here imports Django: the benchmarks' server and manage.py run in subprocesses.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"
PRACTICE_FILES = tuple(sorted((DATA / "practice").glob("*.json")))
RESULTS_DIR = REPO / "bench" / "results"
BENCH_SECRET_KEY = "gatesite-bench-only-not-a-production-key"


# --- database --------------------------------------------------------------------------------


def server_env(database_url: str) -> dict[str, str]:
    """The environment of manage.py and gunicorn: production settings against the bench database."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="gatesite.settings",
        DEBUG="0",
        SECRET_KEY=BENCH_SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        REDIS_URL="",  # set but empty: wins over a .env file; import_cards runs its task in-process
        LOG_LEVEL="WARNING",
        # The benchmarks send thousands of requests a second from one address: measure the app, not the throttle.
        API_THROTTLE_ANON="off",
        API_THROTTLE_USER="off",
    )
    return env


def ensure_database(database_url: str) -> bool:
    """Create the database of the URL if it does not exist; True if it was created."""
    import psycopg
    from psycopg import sql

    url = urllib.parse.urlsplit(database_url)
    name = url.path.lstrip("/")
    if not name:
        raise SystemExit(f"No database name in {database_url}")
    params = {
        "host": url.hostname or "127.0.0.1",
        "port": url.port or 5432,
        "user": urllib.parse.unquote(url.username or "postgres"),
        "dbname": "postgres",
    }
    if url.password:
        params["password"] = urllib.parse.unquote(url.password)
    with psycopg.connect(**params, autocommit=True, connect_timeout=5) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return True


def postgres_version(database_url: str) -> str:
    import psycopg

    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1), connect_timeout=5) as conn:
        row = conn.execute("SELECT version()").fetchone()
    return row[0] if row else "?"


def manage(env: dict[str, str], *command: str) -> None:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py {command[0]} failed:\n{result.stdout}\n{result.stderr}")
    print(f"  manage.py {command[0]}: ok ({time.perf_counter() - started:.1f} s)", flush=True)


def prepare_database(database_url: str) -> None:
    created = ensure_database(database_url)
    print(f"  database {urllib.parse.urlsplit(database_url).path.lstrip('/')}: {'created' if created else 'exists'}")
    env = server_env(database_url)
    manage(env, "migrate", "--noinput")
    manage(env, "load_rules")
    manage(env, "import_cards", *(str(p) for p in PRACTICE_FILES))


# --- server ----------------------------------------------------------------------------------


# gunicorn's access log, one request a line: method, path, query string, status, response bytes and
# the server time in microseconds (%(D)s: from the worker starting to handle the request to the
# response written; the time spent waiting in the listen backlog for a free worker is not in it).
ACCESS_LOG_FORMAT = "%(m)s %(U)s %(q)s %(s)s %(B)s %(D)s"


@dataclass(frozen=True)
class ServerConfig:
    workers: int
    worker_class: str
    threads: int
    app: str = "gatesite.wsgi:application"

    @property
    def label(self) -> str:
        label = f"{self.worker_class} {self.workers}"
        if self.worker_class == "gthread":
            label += f"x{self.threads}"
        if self.app != "gatesite.wsgi:application":
            label += f" ({self.app})"
        return label

    def argv(self, port: int, error_log: Path, access_log: Path | None = None) -> list[str]:
        """gunicorn's command line; with access_log, one line per request with its server time (see ACCESS_LOG_FORMAT)."""
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            self.app,
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(self.workers),
            "--worker-class",
            self.worker_class,
            "--timeout",
            "30",
            "--graceful-timeout",
            "10",
            "--log-level",
            "warning",
            "--error-logfile",
            str(error_log),
        ]
        if self.worker_class == "gthread":
            argv += ["--threads", str(self.threads)]
        if access_log is not None:
            argv += ["--access-logfile", str(access_log), "--access-logformat", ACCESS_LOG_FORMAT]
        return argv


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post_json(url: str, body: object, timeout: float = 10.0) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


class Server:
    """gunicorn serving the app on a free loopback port, for a `with` block."""

    def __init__(self, config: ServerConfig, env: dict[str, str], workdir: Path, *, access_log: bool = False) -> None:
        self.config = config
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.error_log = workdir / f"gunicorn-{self.port}.log"
        self.access_log = workdir / f"gunicorn-{self.port}-access.log" if access_log else None
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            self.config.argv(self.port, self.error_log, self.access_log),
            cwd=REPO,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                status, _ = post_json(self.base + "/api/v1/ping/", {}, timeout=2)
                if status == 200:
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        self.__exit__()
        raise SystemExit(f"gunicorn did not answer within 60 s:\n{self.log_tail()}")

    def __exit__(self, *exc: object) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # graceful shutdown of the master and its workers
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log_tail(self, lines: int = 30) -> str:
        if not self.error_log.exists():
            return ""
        return "\n".join(self.error_log.read_text(errors="replace").splitlines()[-lines:])


# --- machine and report ----------------------------------------------------------------------


def _cpu_times() -> tuple[int, int] | None:
    """(idle, total) jiffies of all CPUs since boot, from /proc/stat (None elsewhere)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user..steal


def cpu_busy(interval: float = 1.0) -> float | None:
    """The share of all CPUs busy over the next interval seconds (0..1), None if unknown."""
    before = _cpu_times()
    time.sleep(interval)
    after = _cpu_times()
    if before is None or after is None or after[1] == before[1]:
        return None
    return 1 - (after[0] - before[0]) / (after[1] - before[1])


def _process_ticks(pid: int) -> int:
    """CPU time (user + system, clock ticks) a live process has used; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))


def tree_cpu_ticks(root_pid: int) -> int:
    """CPU time (user + system, clock ticks) used so far by a process and its live children
    (gunicorn's master and workers)."""
    return sum(_process_ticks(pid) for pid in _ours([root_pid], None))


def _ours(root_pids: Iterable[int], marker: bytes | None) -> set[int]:
    """The given processes, their children, and processes whose command line holds marker
    (the PostgreSQL backends serving the bench database)."""
    roots = set(root_pids)
    found = set(roots)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid in roots or (marker and marker in (entry / "cmdline").read_bytes()):
                found.add(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


class OtherLoad:
    """How much of the machine other processes used while a block ran: the CPU time of all
    CPUs (/proc/stat user+nice+system) minus that of our processes (this one, the given
    roots and their children, processes whose command line holds marker, and reaped
    children such as wrk). Loopback interrupt time is left out; 0..1 of all CPUs."""

    def __init__(self, root_pids: Iterable[int] = (), marker: str | None = None) -> None:
        self.roots = {os.getpid(), *root_pids}
        self.marker = marker.encode() if marker else None
        self.share: float | None = None

    @staticmethod
    def _machine() -> tuple[int, int] | None:
        try:
            fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        except (OSError, ValueError):
            return None
        return fields[0] + fields[1] + fields[2], sum(fields[:8])

    def _children(self) -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (usage.ru_utime + usage.ru_stime) * os.sysconf("SC_CLK_TCK")

    def __enter__(self) -> OtherLoad:
        self.pids = _ours(self.roots, self.marker)
        self.start = {pid: _process_ticks(pid) for pid in self.pids}
        self.start_children = self._children()
        self.start_machine = self._machine()
        return self

    def __exit__(self, *exc: object) -> None:
        end_machine = self._machine()
        if self.start_machine is None or end_machine is None or end_machine[1] == self.start_machine[1]:
            return
        pids = self.pids | _ours(self.roots, self.marker)
        ours = sum(_process_ticks(pid) - self.start.get(pid, 0) for pid in pids)
        ours += self._children() - self.start_children
        busy = end_machine[0] - self.start_machine[0]
        self.share = max(busy - ours, 0) / (end_machine[1] - self.start_machine[1])


def wait_idle(args: argparse.Namespace, what: str) -> dict[str, Any]:
    """Wait up to --wait-idle seconds for other work on the machine to stop; what was seen."""
    deadline = time.monotonic() + args.wait_idle
    busy = cpu_busy()
    started = time.monotonic()
    while busy is not None and busy > args.idle_below and time.monotonic() < deadline:
        busy = cpu_busy(2.0)
    waited = time.monotonic() - started
    idle = busy is None or busy <= args.idle_below
    if not idle:
        print(
            f"  warning: before {what} the CPUs were {busy:.0%} busy with other work "
            f"(waited {waited:.0f} s): results will be low and noisy",
            flush=True,
        )
    return {
        "cpu_busy_before": None if busy is None else round(busy, 3),
        "idle": idle,
        "waited_s": round(waited, 1),
        "loadavg": os.getloadavg(),
    }


def machine_info() -> dict[str, Any]:
    cpu = "?"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        cpu = next((ln.split(":", 1)[1].strip() for ln in lscpu.splitlines() if ln.startswith("Model name")), cpu)
    except OSError:
        pass
    ram_gib = None
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        match = re.search(r"MemTotal:\s+(\d+) kB", meminfo.read_text())
        ram_gib = round(int(match.group(1)) / 1024**2, 1) if match else None
    versions = {}
    for package in ("django", "djangorestframework", "gunicorn", "psycopg"):
        try:
            from importlib.metadata import version

            versions[package] = version(package)
        except Exception:  # informational only
            versions[package] = "?"
    wrk_version = "?"
    if wrk := shutil.which("wrk"):
        out = subprocess.run([wrk, "-v"], capture_output=True, text=True, check=False).stdout
        wrk_version = out.splitlines()[0].strip() if out else "?"
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": ram_gib,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": versions,
        "wrk": wrk_version,
    }


def yes(met: bool) -> str:
    return "yes" if met else "**no**"


def share(value: float | None) -> str:
    return "?" if value is None else f"{value:.0%}"


def machine_note(state: dict[str, Any], what: str = "") -> str:
    busy = state["cpu_busy_before"]
    seen = "unknown" if busy is None else f"{busy:.0%}"
    where = f" ({what})" if what else ""
    verdict = "idle" if state["idle"] else "**not idle: figures are pessimistic**"
    return f"CPU busy with other work before the runs{where}: {seen}, {verdict}.  "


# --- gunicorn's access log ---------------------------------------------------------------------


@dataclass(frozen=True)
class AccessLine:
    method: str
    path: str
    query: str
    status: int
    bytes: int
    server_us: int


def access_log_size(path: Path | None) -> int:
    """Where the access log ends now: read_access_log(path, since=...) returns only later lines."""
    return path.stat().st_size if path is not None and path.exists() else 0


def read_access_log(path: Path, since: int = 0) -> list[AccessLine]:
    """The access log's lines (ACCESS_LOG_FORMAT) written after byte offset `since`."""
    with path.open("rb") as handle:
        handle.seek(since)
        text = handle.read().decode(errors="replace")
    lines = []
    for raw in text.splitlines():
        parts = raw.split(" ")
        if len(parts) != 6:
            continue
        method, url_path, query, status, size, micros = parts
        try:
            lines.append(AccessLine(method, url_path, query, int(status), int(size) if size != "-" else 0, int(micros)))
        except ValueError:
            continue
    return lines


def percentile(values: Iterable[float], pct: float) -> float | None:
    """The pct-th percentile (0..100) by linear interpolation between closest ranks; None if no values."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = (len(ordered) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


class OwnRedis:
    """A redis-server of one's own on a free port, to kill and start again (never the shared one):
    the outage bench's and the outage tests' (tests/conftest.py)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        server = shutil.which("redis-server") or "redis-server"
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL, as an outage: no goodbye to the clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
