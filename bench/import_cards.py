"""Card import benchmark: N synthetic printings into PostgreSQL through the real Celery worker.

Run by hand from the repository root (prerequisites and results in docs/benchmarks.md):

    .venv/bin/python bench/import_cards.py --printings 20000 [--runs 3] [--format json|csv]
    .venv/bin/python bench/import_cards.py --printings 20000 --profile   # in-process cProfile instead

Each run:

1. Drops and recreates the database of --database-url (default gatesite_bench_import on
   127.0.0.1:5432) and migrates it.
2. Starts `celery -A gatesite worker --pool solo --concurrency 1` as a subprocess (production
   settings: DEBUG off, SECRET_KEY set; broker --redis-url, default db 14) consuming only a
   queue private to this run (the Redis database may be shared with other workers: it is
   never flushed), and waits for it to answer the gatesite.ping task.
3. Fresh import: sends `cards.import_files.delay([...absolute paths...])` of the files that
   bench/gen_cards.py wrote and times until the result arrives; reads the worker's peak
   memory (VmHWM of /proc/<pid>/status: with --pool solo the task runs in the main process).
4. Stops the worker (its database connection closes, which flushes its table statistics) and
   takes the write counts of the cards_* tables from pg_stat_user_tables.
5. Floor: a plain PostgreSQL COPY of the same rows (one row per printing, every column of the
   file) into a scratch table of the same database, committed; ratio = import / COPY. Then a
   second, "schema" floor: what PostgreSQL alone takes to insert the rows the import wrote
   into the real tables (`INSERT ... SELECT` from copies, with every index, the trigram GIN
   index and the deferred foreign-key checks), committed: the part no Python change removes.
6. Re-import of the same unchanged files by a freshly started worker (peak memory reset),
   timed the same way; zero writes is checked three ways: the counters of pg_stat_user_tables
   (n_tup_ins/upd/del of every cards_* table, read after the worker stopped), the row counts,
   and no row of a cards_* table with an xmin newer than the snapshot taken before.

Prints Markdown tables and writes everything as JSON to bench/results/import_cards-<UTC time>.json.
Exit status 1 if a check failed (a task that did not succeed, wrong counts, a worker that did
not start); missed targets are reported but do not fail the run.

--profile instead imports in this process (no worker) against the same freshly migrated
database under cProfile, fresh then re-import, prints the top functions and saves the .prof
files to bench/results/ (open with `python -m pstats` or snakeviz).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/import_cards.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

from bench.gen_cards import CARD_KEYS, GenConfig, iter_printings, write_sets  # noqa: E402

RESULTS_DIR = REPO / "bench" / "results"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench_import"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
BENCH_SECRET_KEY = "gatesite-bench-only-not-a-production-key"

TARGET_IMPORT_S = 10.0
TARGET_REIMPORT_S = 3.0
TARGET_PEAK_MB = 300.0

# Counted per printing row for the COPY floor: the file's columns, set columns included.
COPY_COLUMNS = ("set_code", "set_name", "release_date", *CARD_KEYS)


# --- environment ------------------------------------------------------------------------------


def bench_env(args: argparse.Namespace) -> dict[str, str]:
    """Production settings against the bench database and Redis database."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="gatesite.settings",
        DEBUG="0",  # DEBUG on would also keep every query in memory
        SECRET_KEY=BENCH_SECRET_KEY,
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def setup_django(args: argparse.Namespace) -> None:
    """This process as a Celery client (or, with --profile, as the importer) of the bench settings."""
    os.environ.update({k: v for k, v in bench_env(args).items() if k != "PYTHONUNBUFFERED"})
    import django

    django.setup()


def pg_params(database_url: str, dbname: str | None = None) -> dict[str, Any]:
    url = urllib.parse.urlsplit(database_url)
    params: dict[str, Any] = {
        "host": url.hostname or "127.0.0.1",
        "port": url.port or 5432,
        "user": urllib.parse.unquote(url.username or "postgres"),
        "dbname": dbname or url.path.lstrip("/"),
        "connect_timeout": 5,
    }
    if url.password:
        params["password"] = urllib.parse.unquote(url.password)
    return params


def connect(database_url: str, dbname: str | None = None, *, autocommit: bool = True) -> Any:
    import psycopg

    return psycopg.connect(**pg_params(database_url, dbname), autocommit=autocommit)


def recreate_database(args: argparse.Namespace) -> float:
    """Drop and create the bench database, then migrate it; seconds spent migrating."""
    from psycopg import sql

    name = pg_params(args.database_url)["dbname"]
    if not name or not name.startswith("gatesite_bench"):
        raise SystemExit(f"Refusing to drop {name!r}: the bench database name must start with gatesite_bench")
    with connect(args.database_url, "postgres") as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO,
        env=bench_env(args),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py migrate failed:\n{result.stdout}\n{result.stderr}")
    return time.perf_counter() - started


def private_queue() -> str:
    """A queue of this run alone: other workers on the same Redis database neither take our tasks nor give us theirs.

    Set as the default queue of this client before it sends anything, so `.delay()` goes there;
    the worker consumes only it (-Q). The Redis database is never flushed: it may be shared.
    """
    from gatesite.celery import app

    name = f"bench-import-{os.getpid()}-{int(time.time())}"
    app.conf.task_default_queue = name
    return name


def postgres_version(database_url: str) -> str:
    with connect(database_url, "postgres") as conn:
        return conn.execute("SHOW server_version").fetchone()[0]


def drop_queue(redis_url: str, queue: str) -> None:
    """Remove the private queue's keys (the queue itself, empty, and kombu's binding of it); nothing else."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


# --- machine ----------------------------------------------------------------------------------


def _cpu_times() -> tuple[int, int] | None:
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields), idle


def cpu_busy(interval: float = 1.0) -> float | None:
    """Share of all CPUs busy over interval seconds (other engineers' test runs, for instance)."""
    before = _cpu_times()
    time.sleep(interval)
    after = _cpu_times()
    if before is None or after is None or after[0] == before[0]:
        return None
    return 1 - (after[1] - before[1]) / (after[0] - before[0])


def wait_idle(args: argparse.Namespace, what: str) -> dict[str, Any]:
    """Wait up to --wait-idle seconds for other work on the machine to stop; what was seen."""
    started = time.monotonic()
    busy = cpu_busy()
    while busy is not None and busy > args.idle_below and time.monotonic() - started < args.wait_idle:
        busy = cpu_busy(2.0)
    idle = busy is None or busy <= args.idle_below
    if not idle:
        print(f"  warning: before {what} the CPUs were {busy:.0%} busy with other work: figures will be high")
    return {
        "cpu_busy_before": None if busy is None else round(busy, 3),
        "idle": idle,
        "waited_s": round(time.monotonic() - started, 1),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def code_state() -> dict[str, Any]:
    """The commit measured and the uncommitted changes to the import code (read-only git)."""

    def git(*command: str) -> str:
        result = subprocess.run(["git", *command], cwd=REPO, capture_output=True, text=True, check=False)
        return result.stdout.strip()

    return {
        "commit": git("rev-parse", "--short", "HEAD"),
        "uncommitted": git("status", "--porcelain", "--", "cards", "gatesite").splitlines(),
    }


def machine_info(args: argparse.Namespace) -> dict[str, Any]:
    cpu = "?"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        cpu = next((ln.split(":", 1)[1].strip() for ln in lscpu.splitlines() if ln.startswith("Model name")), cpu)
    except OSError:
        pass
    match = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
    from importlib.metadata import version

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(int(match.group(1)) / 1024**2, 1) if match else None,
        "python": platform.python_version(),
        "postgresql": postgres_version(args.database_url),
        "platform": platform.platform(),
        "packages": {p: version(p) for p in ("django", "celery", "kombu", "redis", "psycopg")},
    }


# --- worker -----------------------------------------------------------------------------------


class CheckFailed(Exception):
    pass


def proc_status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (peak RSS) of a process, in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values


def child_pids(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        children += [int(c) for c in text]
    return children


class Worker:
    """`celery -A gatesite worker --pool solo --concurrency 1` as a subprocess, for a `with` block."""

    def __init__(self, args: argparse.Namespace, log: Path, queue: str) -> None:
        self.args = args
        self.log = log
        self.queue = queue
        self.process: subprocess.Popen[bytes] | None = None
        self.started_s = 0.0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def __enter__(self) -> Worker:
        from gatesite.celery import app

        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "gatesite",
            "worker",
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",  # "Task ... succeeded in Xs": the worker's own time for the task
            "--queues",
            self.queue,
            "--hostname",
            f"{self.queue}@%h",
            "--without-gossip",
            "--without-mingle",
        ]
        started = time.perf_counter()
        with self.log.open("ab") as log:
            log.write(f"\n--- worker started {datetime.now(UTC).isoformat()}\n".encode())
            log.flush()
            self.process = subprocess.Popen(argv, cwd=REPO, env=bench_env(self.args), stdout=log, stderr=log)
        deadline = time.monotonic() + 90
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"The Celery worker exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if app.send_task("gatesite.ping").get(timeout=5) == "pong":
                    break
            except Exception as exc:  # celery.exceptions.TimeoutError, broker errors
                if time.monotonic() > deadline:
                    self.__exit__()
                    raise SystemExit(
                        f"The Celery worker did not answer within 90 s ({exc}):\n{self.log_tail()}"
                    ) from exc
        self.started_s = time.perf_counter() - started
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # warm shutdown: closes its database connection
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def memory(self) -> dict[str, float]:
        return proc_status(self.pid)

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def task_runtime(self, task_id: str) -> float:
        """The worker's own time for the task ('... succeeded in Xs' in its log); proves it ran here."""
        pattern = re.compile(rf"Task cards\.import_files\[{re.escape(task_id)}\] succeeded in ([0-9.]+)s")
        match = pattern.search(self.log.read_text(errors="replace"))
        if match is None:
            raise CheckFailed(f"task {task_id} did not run on the bench worker (see {self.log})")
        return float(match.group(1))


def send_import(paths: list[Path], timeout: float) -> tuple[float, dict[str, Any], str, float | None]:
    """cards.import_files.delay(paths), timed until the result arrives.

    (seconds, result, task id, share of all CPUs busy meanwhile: the worker and its PostgreSQL
    backend use about one CPU, so much more than 1/nproc means other work competed).
    """
    from cards.tasks import import_files

    cpu_before = _cpu_times()
    started = time.perf_counter()
    async_result = import_files.delay([str(p) for p in paths])
    counts = async_result.get(timeout=timeout)
    seconds = time.perf_counter() - started
    cpu_after = _cpu_times()
    busy = None
    if cpu_before and cpu_after and cpu_after[0] > cpu_before[0]:
        busy = round(1 - (cpu_after[1] - cpu_before[1]) / (cpu_after[0] - cpu_before[0]), 3)
    return seconds, counts, async_result.id, busy


# --- writes -----------------------------------------------------------------------------------

STATS_SQL = r"""
SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup
FROM pg_stat_user_tables WHERE schemaname = 'public' AND relname LIKE 'cards\_%' ORDER BY relname
"""


def wait_no_other_backends(database_url: str, timeout: float = 30.0) -> None:
    """Until only this session is connected to the bench database (the worker's backend has exited)."""
    deadline = time.monotonic() + timeout
    with connect(database_url) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
            if row[0] == 0:
                return
            time.sleep(0.1)
    print("  warning: another session still uses the bench database; its statistics may be unflushed")


def table_stats(database_url: str) -> dict[str, dict[str, int]]:
    with connect(database_url) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        rows = conn.execute(STATS_SQL).fetchall()
    return {name: {"ins": ins, "upd": upd, "del": dele} for name, ins, upd, dele, _ in rows}


def stats_delta(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    delta = {}
    for table, counters in after.items():
        old = before.get(table, {"ins": 0, "upd": 0, "del": 0})
        change = {k: counters[k] - old[k] for k in counters}
        if any(change.values()):
            delta[table] = change
    return delta


def cards_tables(conn: Any) -> list[str]:
    rows = conn.execute(
        r"SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'cards\_%' ORDER BY 1"
    ).fetchall()
    return [r[0] for r in rows]


def row_snapshot(database_url: str) -> dict[str, Any]:
    """Row counts of the cards_* tables and the next transaction id (32-bit, as xmin holds it)."""
    from psycopg import sql

    with connect(database_url) as conn:
        counts = {
            t: conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(t))).fetchone()[0]
            for t in cards_tables(conn)
        }
        next_xid = conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint").fetchone()[0]
    return {"counts": counts, "next_xid": next_xid % 2**32}


def rows_written_since(database_url: str, snapshot: dict[str, Any]) -> dict[str, int]:
    """Rows of cards_* tables inserted or updated by a transaction that started after snapshot."""
    from psycopg import sql

    found = {}
    with connect(database_url) as conn:
        for table in cards_tables(conn):
            query = sql.SQL("SELECT count(*) FROM {} WHERE xmin::text::bigint >= %s").format(sql.Identifier(table))
            count = conn.execute(query, (snapshot["next_xid"],)).fetchone()[0]
            if count:
                found[table] = count
    return found


# --- COPY floor -------------------------------------------------------------------------------


def copy_rows(config: GenConfig) -> list[tuple[Any, ...]]:
    """The printings of the files as flat rows (the same rows: gen_cards is deterministic)."""
    rows = []
    for info, card in iter_printings(config):
        values = dict(card, set_code=info["code"], set_name=info["name"], release_date=info["release_date"])
        values["attributes"] = "/".join(card["attributes"])
        rows.append(tuple(values[c] for c in COPY_COLUMNS))
    return rows


def copy_floor(database_url: str, rows: list[tuple[Any, ...]]) -> float:
    """Seconds to COPY the rows into a fresh scratch table and commit (creating and dropping it not timed)."""
    with connect(database_url) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_copy_floor")
        conn.execute(
            """CREATE TABLE bench_copy_floor (
                set_code varchar(20), set_name varchar(200), release_date date,
                number varchar(40), name varchar(200), name_ja varchar(200), type varchar(10),
                faction varchar(100), attributes text, level integer, atk integer, hp integer,
                stk integer, cnt boolean, legend boolean, rarity varchar(20), text text)"""
        )
    with connect(database_url, autocommit=False) as conn:
        started = time.perf_counter()
        with (
            conn.cursor() as cursor,
            cursor.copy(f"COPY bench_copy_floor ({', '.join(COPY_COLUMNS)}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        conn.commit()
        elapsed = time.perf_counter() - started
        copied = conn.execute("SELECT count(*) FROM bench_copy_floor").fetchone()[0]
        conn.execute("DROP TABLE bench_copy_floor")
        conn.commit()
    if copied != len(rows):
        raise SystemExit(f"COPY wrote {copied} rows, expected {len(rows)}")
    return elapsed


# The catalog tables in foreign-key order (parents first).
SCHEMA_TABLES = (
    "cards_cardset",
    "cards_faction",
    "cards_attribute",
    "cards_card",
    "cards_card_attributes",
    "cards_printing",
)


def schema_floor(database_url: str) -> float:
    """Seconds for PostgreSQL alone to insert the rows the import wrote into the real tables, committed.

    The rows are copied aside, the tables emptied, then `INSERT INTO t SELECT * FROM copy` for
    each table in one transaction: every index (the trigram GIN index of cards_card included),
    check constraint and deferred foreign-key check of the import, none of its Python. The
    tables end with the same rows and ids, so the re-import that follows finds them unchanged.
    """
    from psycopg import sql

    with connect(database_url, autocommit=False) as conn:
        for table in SCHEMA_TABLES:
            conn.execute(
                sql.SQL("CREATE TEMP TABLE {} AS SELECT * FROM {}").format(
                    sql.Identifier(f"floor_{table}"), sql.Identifier(table)
                )
            )
        referencing = conn.execute(
            """SELECT DISTINCT c.conrelid::regclass::text FROM pg_constraint c
               WHERE c.contype = 'f' AND c.confrelid::regclass::text = ANY(%s)
                 AND NOT c.conrelid::regclass::text = ANY(%s)""",
            (list(SCHEMA_TABLES), list(SCHEMA_TABLES)),
        ).fetchall()
        for (table,) in referencing:  # TRUNCATE ... CASCADE would empty them too: they must be empty
            if conn.execute(sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(table))).fetchone()[0]:
                raise SystemExit(f"schema floor: {table} references the catalog and is not empty")
        tables = sql.SQL(", ").join(sql.Identifier(t) for t in SCHEMA_TABLES)
        conn.execute(sql.SQL("TRUNCATE {} CASCADE").format(tables))
        conn.commit()
        started = time.perf_counter()
        for table in SCHEMA_TABLES:
            conn.execute(
                sql.SQL("INSERT INTO {} SELECT * FROM {}").format(
                    sql.Identifier(table), sql.Identifier(f"floor_{table}")
                )
            )
        conn.commit()
        return time.perf_counter() - started


# --- runs -------------------------------------------------------------------------------------


def plain_counts(counts: dict[str, Any]) -> dict[str, Any]:
    """The task's counts without the (long) diff lists."""
    return {k: v for k, v in counts.items() if isinstance(v, int | float | str | bool)}


def check_counts(counts: dict[str, int], printings: int, *, fresh: bool) -> None:
    if fresh:
        ok = counts.get("printings_created") == printings and counts.get("printings_updated") == 0
    else:
        ok = counts.get("printings_unchanged") == printings and not any(
            v for k, v in counts.items() if k.endswith(("_created", "_updated"))
        )
    if not ok:
        raise CheckFailed(f"unexpected counts for a {'fresh' if fresh else 're-'}import: {plain_counts(counts)}")


def one_run(
    args: argparse.Namespace, number: int, paths: list[Path], rows: list[tuple[Any, ...]], log: Path, queue: str
) -> dict:
    print(f"run {number}:", flush=True)
    migrate_s = recreate_database(args)
    print(f"  database recreated and migrated ({migrate_s:.1f} s)", flush=True)
    run: dict[str, Any] = {"run": number, "migrate_s": round(migrate_s, 2)}

    # Fresh import.
    with Worker(args, log, queue) as worker:
        before_memory = worker.memory()
        run["fresh_machine"] = wait_idle(args, "the fresh import")
        stats_before = table_stats(args.database_url)
        seconds, counts, task_id, busy = send_import(paths, args.timeout)
        after_memory = worker.memory()
        children = child_pids(worker.pid)
    wait_no_other_backends(args.database_url)
    task_runtime = worker.task_runtime(task_id)
    check_counts(counts, args.printings, fresh=True)
    run["fresh"] = {
        "seconds": seconds,
        "cpu_busy_during": busy,
        "task_runtime_s": task_runtime,
        "counts": plain_counts(counts),
        "rss_before_mb": round(before_memory["VmRSS"], 1),
        "peak_mb": round(after_memory["VmHWM"], 1),
        "worker_children": children,
        "writes": stats_delta(stats_before, table_stats(args.database_url)),
    }
    print(f"  fresh import: {seconds:.2f} s, worker peak {after_memory['VmHWM']:.0f} MB", flush=True)

    # The floor: COPY of the same rows.
    run["copy_machine"] = wait_idle(args, "the COPY")
    run["copy_s"] = copy_floor(args.database_url, rows)
    run["ratio"] = seconds / run["copy_s"]
    print(f"  COPY floor: {run['copy_s']:.3f} s (import = {run['ratio']:.0f}x COPY)", flush=True)
    run["schema_machine"] = wait_idle(args, "the schema floor")
    run["schema_floor_s"] = schema_floor(args.database_url)
    print(f"  schema floor (INSERT ... SELECT into the real tables): {run['schema_floor_s']:.2f} s", flush=True)

    # Re-import of the same files by a fresh worker.
    with Worker(args, log, queue) as worker:
        before_memory = worker.memory()
        run["reimport_machine"] = wait_idle(args, "the re-import")
        stats_before = table_stats(args.database_url)
        rows_before = row_snapshot(args.database_url)
        seconds, counts, task_id, busy = send_import(paths, args.timeout)
        after_memory = worker.memory()
    wait_no_other_backends(args.database_url)  # the worker's backend flushed its statistics on exit
    task_runtime = worker.task_runtime(task_id)
    check_counts(counts, args.printings, fresh=False)
    writes = stats_delta(stats_before, table_stats(args.database_url))
    rows_after = row_snapshot(args.database_url)
    new_rows = rows_written_since(args.database_url, rows_before)
    run["reimport"] = {
        "seconds": seconds,
        "cpu_busy_during": busy,
        "task_runtime_s": task_runtime,
        "counts": plain_counts(counts),
        "rss_before_mb": round(before_memory["VmRSS"], 1),
        "peak_mb": round(after_memory["VmHWM"], 1),
        "writes": writes,
        "row_counts_changed": {
            t: [rows_before["counts"].get(t), n]
            for t, n in rows_after["counts"].items()
            if rows_before["counts"].get(t) != n
        },
        "rows_with_new_xmin": new_rows,
    }
    run["reimport"]["zero_writes"] = not writes and not run["reimport"]["row_counts_changed"] and not new_rows
    print(
        f"  re-import: {seconds:.2f} s, worker peak {after_memory['VmHWM']:.0f} MB, "
        f"writes: {'none' if run['reimport']['zero_writes'] else writes or new_rows}",
        flush=True,
    )
    return run


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    def median(values: Sequence[float]) -> float:
        return statistics.median(values)

    fresh = median([r["fresh"]["seconds"] for r in runs])
    copy = median([r["copy_s"] for r in runs])
    reimport = median([r["reimport"]["seconds"] for r in runs])
    peak = max(max(r["fresh"]["peak_mb"], r["reimport"]["peak_mb"]) for r in runs)
    zero = all(r["reimport"]["zero_writes"] for r in runs)
    return {
        "fresh_s": fresh,
        "fresh_best_s": min(r["fresh"]["seconds"] for r in runs),
        "reimport_best_s": min(r["reimport"]["seconds"] for r in runs),
        "fresh_task_runtime_s": median([r["fresh"]["task_runtime_s"] or 0 for r in runs]),
        "copy_s": copy,
        "ratio": median([r["ratio"] for r in runs]),
        "schema_floor_s": median([r["schema_floor_s"] for r in runs]),
        "reimport_s": reimport,
        "reimport_task_runtime_s": median([r["reimport"]["task_runtime_s"] or 0 for r in runs]),
        "peak_mb": peak,
        "peak_fresh_mb": max(r["fresh"]["peak_mb"] for r in runs),
        "peak_reimport_mb": max(r["reimport"]["peak_mb"] for r in runs),
        "rss_idle_mb": median([r["fresh"]["rss_before_mb"] for r in runs]),
        "zero_writes": zero,
        "targets": {
            "import": fresh <= TARGET_IMPORT_S,
            "reimport": reimport <= TARGET_REIMPORT_S,
            "zero_writes": zero,
            "peak_memory": peak <= TARGET_PEAK_MB,
        },
    }


# --- output -----------------------------------------------------------------------------------


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def markdown(results: dict[str, Any]) -> str:
    s = results["summary"]
    n = results["config"]["printings"]
    runs = results["runs"]
    out = [
        f"{n:,} printings, {results['config']['factions']} factions, {results['files']} {results['config']['format']} "
        f"files ({results['bytes'] / 1e6:.1f} MB), {results['distinct_cards']:,} cards; median of {len(runs)} run(s).",
        "",
        "| measure | result | target | met |",
        "| --- | --- | --- | --- |",
        f"| import through the Celery worker (delay → result) | {s['fresh_s']:.2f} s "
        f"(best {s['fresh_best_s']:.2f} s; task in worker {s['fresh_task_runtime_s']:.2f} s) | ≤ {TARGET_IMPORT_S:.0f} s | {_yes(s['targets']['import'])} |",
        f"| floor: PostgreSQL `COPY` of the same rows into a scratch table | {s['copy_s']:.3f} s | "
        f"| import = {s['ratio']:.0f}× COPY |",
        f"| schema floor: `INSERT … SELECT` of the rows the import wrote into the real tables | "
        f"{s['schema_floor_s']:.2f} s | | import = {s['fresh_s'] / s['schema_floor_s']:.1f}× |",
        f"| re-import, unchanged (delay → result) | {s['reimport_s']:.2f} s "
        f"(best {s['reimport_best_s']:.2f} s; task in worker {s['reimport_task_runtime_s']:.2f} s) | ≤ {TARGET_REIMPORT_S:.0f} s "
        f"| {_yes(s['targets']['reimport'])} |",
        f"| writes during the re-import | {'0' if s['zero_writes'] else 'some, see JSON'} | 0 "
        f"| {_yes(s['targets']['zero_writes'])} |",
        f"| worker peak memory (VmHWM), fresh / re-import | {s['peak_fresh_mb']:.0f} / {s['peak_reimport_mb']:.0f} MB "
        f"(idle worker {s['rss_idle_mb']:.0f} MB) | ≤ {TARGET_PEAK_MB:.0f} MB | {_yes(s['targets']['peak_memory'])} |",
        "",
        "| run | import s | task s | COPY s | ratio | schema floor s | peak MB | re-import s | task s | peak MB "
        "| writes | CPU busy during import / re-import |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        f, ri = r["fresh"], r["reimport"]
        busy = [r["fresh"]["cpu_busy_during"], r["reimport"]["cpu_busy_during"]]
        out.append(
            f"| {r['run']} | {f['seconds']:.2f} | {f['task_runtime_s'] or 0:.2f} | {r['copy_s']:.3f} | {r['ratio']:.0f}× "
            f"| {r['schema_floor_s']:.2f} | {f['peak_mb']:.0f} | {ri['seconds']:.2f} | {ri['task_runtime_s'] or 0:.2f} | {ri['peak_mb']:.0f} "
            f"| {'0' if ri['zero_writes'] else 'yes'} | {' / '.join('?' if b is None else f'{b:.0%}' for b in busy)} |"
        )
    first = runs[0]["fresh"]["writes"]
    out += [
        "",
        "Rows the fresh import wrote (pg_stat_user_tables, run 1): "
        + ", ".join(f"{t} +{w['ins']:,}" + (f"/~{w['upd']:,}" if w["upd"] else "") for t, w in sorted(first.items()))
        + ".",
    ]
    return "\n".join(out)


def machine_markdown(machine: dict[str, Any]) -> str:
    return (
        f"{machine['nproc']} CPUs ({machine['cpu']}), {machine['ram_gib']} GiB RAM, "
        f"PostgreSQL {machine['postgresql']}, Python {machine['python']}, "
        + ", ".join(f"{k} {v}" for k, v in machine["packages"].items())
    )


# --- profile ----------------------------------------------------------------------------------


def profile(args: argparse.Namespace, paths: list[Path], stamp: str) -> dict[str, Any]:
    """cProfile of card_files_import in this process against the freshly migrated bench database."""
    setup_django(args)
    from django.db import connection

    from cards.services import card_files_import

    print(f"database recreated and migrated ({recreate_database(args):.1f} s)", flush=True)
    report: dict[str, Any] = {}
    for label in ("fresh", "reimport"):
        connection.ensure_connection()
        wait_idle(args, f"the {label} profile")
        hwm_before = proc_status(os.getpid())
        profiler = cProfile.Profile()
        started = time.perf_counter()
        profiler.enable()
        result = card_files_import(paths=[str(p) for p in paths])
        profiler.disable()
        elapsed = time.perf_counter() - started
        hwm_after = proc_status(os.getpid())
        prof_path = RESULTS_DIR / f"import_cards-{stamp}-{label}.prof"
        profiler.dump_stats(prof_path)
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(25)
        print(f"\n=== {label}: {elapsed:.2f} s under cProfile, counts {result.counts()}")
        print(f"    this process: VmHWM {hwm_before['VmHWM']:.0f} → {hwm_after['VmHWM']:.0f} MB")
        print(text.getvalue())
        report[label] = {
            "seconds_under_profile": elapsed,
            "vmhwm_before_mb": hwm_before["VmHWM"],
            "vmhwm_after_mb": hwm_after["VmHWM"],
            "prof": str(prof_path),
        }
    return report


# --- main -------------------------------------------------------------------------------------


@contextmanager
def generated_files(args: argparse.Namespace, config: GenConfig) -> Iterator[tuple[list[Path], float]]:
    with tempfile.TemporaryDirectory(prefix="gatesite-bench-import-") as tmp:
        started = time.perf_counter()
        paths = [p.resolve() for p in write_sets(config, Path(tmp), args.format)]
        yield paths, time.perf_counter() - started


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--printings", type=int, default=20_000)
    parser.add_argument("--factions", type=int, default=12)
    parser.add_argument("--set-size", type=int, default=1000, help="printings per set file")
    parser.add_argument("--seed", type=int, default=GenConfig().seed)
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument("--runs", type=int, default=3, help="fresh import + COPY + re-import cycles")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="dropped and recreated every run")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="broker and results (never flushed)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for one import task")
    parser.add_argument("--wait-idle", type=float, default=30, help="seconds to wait for the CPUs to calm down")
    parser.add_argument("--idle-below", type=float, default=0.25, help="CPU busy share counted as idle")
    parser.add_argument("--profile", action="store_true", help="cProfile the import in-process instead")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    config = GenConfig(printings=args.printings, factions=args.factions, set_size=args.set_size, seed=args.seed)
    machine = machine_info(args)
    print(machine_markdown(machine), flush=True)
    with generated_files(args, config) as (paths, generate_s):
        total_bytes = sum(p.stat().st_size for p in paths)
        print(f"generated {args.printings} printings in {len(paths)} files ({generate_s:.2f} s)", flush=True)
        if args.profile:
            report = profile(args, paths, stamp)
            out = RESULTS_DIR / f"import_cards-{stamp}-profile.json"
            out.write_text(json.dumps({"machine": machine, "profile": report}, indent=2))
            print(f"saved {out.relative_to(REPO)}")
            return 0
        setup_django(args)
        rows = copy_rows(config)
        distinct = len({row[COPY_COLUMNS.index("name")] for row in rows})
        log = RESULTS_DIR / f"import_cards-{stamp}-worker.log"
        queue = private_queue()
        runs = []
        try:
            for number in range(1, args.runs + 1):
                runs.append(one_run(args, number, paths, rows, log, queue))
        except CheckFailed as exc:
            print(f"check failed: {exc}")
            return 1
        finally:
            drop_queue(args.redis_url, queue)
    results = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "started": stamp,
        "machine": machine,
        "code": code_state(),
        "config": {
            "printings": args.printings,
            "factions": args.factions,
            "set_size": args.set_size,
            "seed": args.seed,
            "format": args.format,
            "database_url": args.database_url,
            "redis_url": args.redis_url,
            "queue": queue,
        },
        "files": len(paths),
        "bytes": total_bytes,
        "distinct_cards": distinct,
        "generate_s": generate_s,
        "runs": runs,
        "summary": summarize(runs),
        "worker_log": str(log.relative_to(REPO)),
    }
    text = markdown(results)
    code = results["code"]
    dirty = (
        f", with uncommitted changes to {len(code['uncommitted'])} file(s) of cards/ and gatesite/"
        if code["uncommitted"]
        else ""
    )
    print(f"\n{machine_markdown(machine)}\nCode: commit {code['commit']}{dirty}.\n\n{text}")
    out = RESULTS_DIR / f"import_cards-{stamp}.json"
    out.write_text(json.dumps(results, indent=2, default=str))
    print(f"\nsaved {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
