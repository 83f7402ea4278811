"""Public deck page benchmark: GET /d/<public_id>/ over 100 000 decks in PostgreSQL, under gunicorn.

Run by hand from the repository root (prerequisites and results in docs/benchmarks.md):

    .venv/bin/python bench/deck_page.py [--decks 100000] [--duration 10] [--connections 1,8] [--workers 2] ...

Setup (skipped with --skip-setup): the database of bench/deck_api.py (gatesite_bench_deckapi by
default), prepared by its setup: migrate, rules, practice set, bench/gen_decks.py --decks N,
`VACUUM ANALYZE`.

Then gunicorn serves the app as in production (DEBUG off, SECRET_KEY set), with an access log of
the server time of each request (%(D)s). wrk sends anonymous GETs of --ids different public decks
(a random sample, cycled through by a Lua script, so neither PostgreSQL's nor the app's caches see
the same deck twice in a row) at each of --connections, after a warm-up. Server-time percentiles
come from the access log, client ones from wrk.

Then, in this process (Django test Client, the same production settings and database), the SQL
queries of the page for --query-sample of those decks, anonymous and as the deck's owner, counted
with CaptureQueriesContext; --profile N profiles N anonymous page loads with cProfile.

Target (issue 5): the public deck page p95 <= 30 ms server time (judged at the first of
--connections) and <= 10 SQL queries (the most any sampled page needed, anonymous or owner). Prints
Markdown and a `TARGET` line; writes JSON to bench/results/deck_page-<UTC time>.json. Exit status 1
if a check failed (a non-200 answer, wrk socket errors); a missed target is reported but does not
fail the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/deck_page.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

from bench.common import (  # noqa: E402
    RESULTS_DIR,
    OtherLoad,
    Server,
    ServerConfig,
    access_log_size,
    machine_info,
    machine_note,
    percentile,
    postgres_version,
    read_access_log,
    server_env,
    share,
    wait_idle,
    yes,
)
from bench.deck_api import DEFAULT_DATABASE_URL, _f, _libpq_url, run_wrk, setup, wait_quiet  # noqa: E402

TARGET_P95_MS = 30.0
TARGET_QUERIES = 10
PAGE_PREFIX = "/d/"

# wrk's Lua: each request the next deck of the list, round and round (one wrk thread).
LUA = """\
local paths = {%s}
local i = 0
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
"""


def public_decks(database_url: str, n: int, seed: float) -> tuple[int, list[tuple[str, str]]]:
    """How many public, unarchived decks there are, and a random sample of n (public_id, owner's username)."""
    import psycopg

    with psycopg.connect(_libpq_url(database_url)) as conn:
        total = conn.execute("SELECT count(*) FROM decks_deck WHERE visibility = 'public' AND NOT archived").fetchone()
        conn.execute("SELECT setseed(%s)", (seed,))
        rows = conn.execute(
            "SELECT d.public_id, u.username FROM decks_deck d JOIN auth_user u ON u.id = d.owner_id "
            "WHERE d.visibility = 'public' AND NOT d.archived ORDER BY random() LIMIT %s",
            (n,),
        ).fetchall()
    return total[0] if total else 0, [(r[0], r[1]) for r in rows]


def check(base: str, public_id: str) -> dict[str, Any]:
    url = f"{base}{PAGE_PREFIX}{public_id}/"
    with urllib.request.urlopen(url, timeout=30) as response:
        status = response.status
        body = response.read().decode(errors="replace")
    problems = []
    if status != 200:
        problems.append(f"status {status}")
    if public_id not in body:
        problems.append("the page does not name its own link")
    return {"url": url, "status": status, "bytes": len(body.encode()), "problems": problems}


def measure(args: argparse.Namespace, server: Server, lua: Path, connections: int) -> dict[str, Any]:
    wrk_args = argparse.Namespace(**{**vars(args), "connections": connections})
    url = server.base + "/"
    if args.warmup:
        run_wrk(wrk_args, url, args.warmup, script=lua)
        wait_quiet(server.access_log)
    since = access_log_size(server.access_log)
    with OtherLoad([server.pid], marker=urllib.parse.urlsplit(args.database_url).path.lstrip("/")) as load:
        client = run_wrk(wrk_args, url, args.duration, script=lua)
        wait_quiet(server.access_log)
    assert server.access_log is not None
    lines = [ln for ln in read_access_log(server.access_log, since) if ln.path.startswith(PAGE_PREFIX)]
    server_ms = [ln.server_us / 1e3 for ln in lines]
    row = {
        "connections": connections,
        **client,
        "server_requests": len(lines),
        "distinct_decks": len({ln.path for ln in lines}),
        "server_non_200": sum(1 for ln in lines if ln.status != 200),
        "server_p50_ms": percentile(server_ms, 50),
        "server_p95_ms": percentile(server_ms, 95),
        "server_p99_ms": percentile(server_ms, 99),
        "bytes_median": round(statistics.median(ln.bytes for ln in lines)) if lines else None,
        "other_cpu": load.share,
    }
    print(
        f"  {connections} connection(s): {row['rps']:.0f} req/s over {row['distinct_decks']} decks; server p50 "
        f"{_f(row['server_p50_ms'])} / p95 {_f(row['server_p95_ms'])} / p99 {_f(row['server_p99_ms'])} ms; "
        f"client p50 {_f(row['client_p50_ms'])} / p99 {_f(row['client_p99_ms'])} ms; "
        f"other processes {share(load.share)} of the CPUs",
        flush=True,
    )
    return row


def django_setup(env: dict[str, str]) -> None:
    """This process as the server: production settings against the bench database."""
    os.environ.update(env)
    import django

    django.setup()


def count_queries(decks: list[tuple[str, str]], host: str = "127.0.0.1") -> dict[str, Any]:
    """The SQL queries of each sampled deck page, anonymous and as its owner (in-process, test Client)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    users = {u.username: u for u in get_user_model().objects.filter(username__in={owner for _, owner in decks})}
    counts: dict[str, list[int]] = {"anonymous": [], "owner": []}
    worst: dict[str, tuple[int, str, list[str]]] = {}
    problems = []
    anonymous = Client(HTTP_HOST=host)
    for public_id, owner in decks:
        owned = Client(HTTP_HOST=host)
        owned.force_login(users[owner])
        for who, client in (("anonymous", anonymous), ("owner", owned)):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(f"{PAGE_PREFIX}{public_id}/")
            if response.status_code != 200:
                problems.append(f"{who} {public_id}: status {response.status_code}")
            n = len(queries.captured_queries)
            counts[who].append(n)
            if n > worst.get(who, (-1, "", []))[0]:
                worst[who] = (n, public_id, [q["sql"][:200] for q in queries.captured_queries])
    result: dict[str, Any] = {"decks": len(decks), "problems": problems}
    for who, values in counts.items():
        result[who] = {
            "max": max(values) if values else None,
            "median": statistics.median(values) if values else None,
            "histogram": dict(sorted(Counter(values).items())),
            "worst_deck": worst[who][1] if who in worst else None,
            "worst_queries": worst[who][2] if who in worst else [],
        }
    return result


def profile(decks: list[tuple[str, str]], n: int, top: int = 30) -> str:
    """cProfile of n anonymous page loads in-process: the functions by cumulative time."""
    import cProfile
    import io
    import pstats

    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    chosen = [public_id for public_id, _ in decks[:n]]
    client.get(f"{PAGE_PREFIX}{chosen[0]}/")  # imports and template loading out of the profile
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for public_id in chosen:
        client.get(f"{PAGE_PREFIX}{public_id}/")
    profiler.disable()
    elapsed = time.perf_counter() - started
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return f"{len(chosen)} pages in {elapsed * 1e3:.0f} ms ({elapsed * 1e3 / len(chosen):.1f} ms each, profiled)\n" + (
        out.getvalue()
    )


def markdown(results: dict[str, Any]) -> str:
    lines = [
        f"{results['decks']} public decks (not archived) in the database; gunicorn {results['server']}, wrk 1 thread, "
        f"{results['duration_s']:g} s per run after a {results['warmup_s']:g} s warm-up; anonymous GETs cycling "
        f"through {results['ids']} different public decks.  ",
        machine_note(results["machine_state"]),
        "",
        "| connections | req/s | decks hit | server p50 ms | server p95 ms | server p99 ms | client p50 ms "
        "| client p99 ms | bytes (median) | other CPU |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results["rows"]:
        lines.append(
            f"| {row['connections']} | {row['rps']:.0f} | {row['distinct_decks']} | {_f(row['server_p50_ms'])} "
            f"| **{_f(row['server_p95_ms'])}** | {_f(row['server_p99_ms'])} | {_f(row['client_p50_ms'])} "
            f"| {_f(row['client_p99_ms'])} | {row['bytes_median']} | {share(row['other_cpu'])} |"
        )
    queries = results["queries"]
    if queries:
        lines += [
            "",
            f"SQL queries per page ({queries['decks']} sampled decks, in-process):",
            "",
            "| viewer | max | median | counts (queries: pages) |",
            "| --- | ---: | ---: | --- |",
        ]
        for who in ("anonymous", "owner"):
            q = queries[who]
            hist = ", ".join(f"{k}: {v}" for k, v in q["histogram"].items())
            lines.append(f"| {who} | **{q['max']}** | {q['median']:g} | {hist} |")
    target = results["target"]
    lines += [
        "",
        "| target | value | met |",
        "| --- | ---: | :---: |",
        f"| deck page p95 ≤ {TARGET_P95_MS:g} ms (server, {target['connections']} connection(s)) "
        f"| {_f(target['p95_ms'])} ms | {yes(target['p95_met'])} |",
        f"| deck page ≤ {TARGET_QUERIES} SQL queries (max of the sample) | {target['queries']} "
        f"| {yes(target['queries_met'])} |",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--decks", type=int, default=100_000)
    parser.add_argument("--skip-setup", action="store_true")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--connections", default="1,8", help="comma-separated; the first one is judged")
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--ids", type=int, default=5000, help="how many different public decks wrk cycles through")
    parser.add_argument("--seed", type=float, default=0.42, help="PostgreSQL setseed() for the sample")
    parser.add_argument("--query-sample", type=int, default=200, help="decks whose queries are counted")
    parser.add_argument("--profile", type=int, default=0, help="cProfile this many page loads in-process")
    parser.add_argument("--wrk", default="wrk")
    parser.add_argument("--wait-idle", type=float, default=0.0, help="seconds to wait for other work to stop")
    parser.add_argument("--idle-below", type=float, default=0.15)
    args = parser.parse_args()
    levels = [int(c) for c in args.connections.split(",") if c.strip()]

    env = server_env(args.database_url)
    print(f"Setup ({args.database_url}):", flush=True)
    if not args.skip_setup:
        setup(args, env)
    public, decks = public_decks(args.database_url, args.ids, args.seed)
    if not decks:
        raise SystemExit("No public decks in the database: run without --skip-setup")
    print(f"  {public} public decks; wrk cycles through {len(decks)} of them", flush=True)
    state = wait_idle(args, "the runs")
    config = ServerConfig(workers=args.workers, worker_class="sync", threads=1)
    rows = []
    checks = []
    with (
        tempfile.TemporaryDirectory(prefix="deck-page-bench-") as tmp,
        Server(config, env, Path(tmp), access_log=True) as server,
    ):
        lua = Path(tmp) / "decks.lua"
        lua.write_text(LUA % ", ".join(f'"{PAGE_PREFIX}{public_id}/"' for public_id, _ in decks))
        print(f"gunicorn {config.label} on {server.base}:", flush=True)
        for public_id, _ in decks[:3]:
            checked = check(server.base, public_id)
            checks.append(checked)
            if checked["problems"]:
                print(f"  CHECK FAILED {checked['url']}: {checked['problems']}", flush=True)
        for connections in levels:
            rows.append(measure(args, server, lua, connections))

    django_setup(env)
    queries = count_queries(decks[: args.query_sample]) if args.query_sample else None
    if queries:
        for who in ("anonymous", "owner"):
            q = queries[who]
            print(f"  queries, {who}: max {q['max']} (deck {q['worst_deck']}), median {q['median']:g}", flush=True)
        for problem in queries["problems"][:10]:
            print(f"  CHECK FAILED {problem}", flush=True)
    profiled = profile(decks, args.profile) if args.profile else None
    if profiled:
        print(profiled)

    target_p95 = rows[0]["server_p95_ms"] if rows else None
    max_queries = max(queries["anonymous"]["max"], queries["owner"]["max"]) if queries else None
    results = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "decks": public,
        "ids": len(decks),
        "server": config.label,
        "duration_s": args.duration,
        "warmup_s": args.warmup,
        "machine": machine_info(),
        "postgres": postgres_version(args.database_url),
        "machine_state": state,
        "checks": checks,
        "rows": rows,
        "queries": queries,
        "profile": profiled,
        "target": {
            "connections": rows[0]["connections"] if rows else None,
            "p95_ms": target_p95,
            "p95_met": target_p95 is not None and target_p95 <= TARGET_P95_MS,
            "queries": max_queries,
            "queries_met": max_queries is not None and max_queries <= TARGET_QUERIES,
        },
    }
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / f"deck_page-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.write_text(json.dumps(results, indent=2, default=str))
    print()
    print(markdown(results))
    print()
    met = results["target"]["p95_met"] and results["target"]["queries_met"]
    print(
        f"TARGET deck page p95 <= {TARGET_P95_MS:g} ms (server) and <= {TARGET_QUERIES} SQL queries "
        f"({public} public decks): {_f(target_p95)} ms, {max_queries} queries -> {'met' if met else 'NOT met'}"
    )
    print(f"Results: {out.relative_to(REPO)}")
    failed = (
        any(c["problems"] for c in checks)
        or bool(queries and queries["problems"])
        or any(r["server_non_200"] or r["non_2xx"] or r["socket_errors"] for r in rows)
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
