"""Public decks list API benchmark: GET /api/v1/decks/ over 100 000 decks in PostgreSQL, under gunicorn.

Run by hand from the repository root (prerequisites and results in docs/benchmarks.md):

    .venv/bin/python bench/deck_api.py [--decks 100000] [--duration 10] [--connections 4] [--workers 2] ...

Setup (skipped with --skip-setup): create the database of --database-url (default
gatesite_bench_deckapi on 127.0.0.1:5432) if missing, migrate it, load the rules, import the
practice set, then bench/gen_decks.py --decks N (which does nothing when the database already holds
exactly N generated decks) and `VACUUM ANALYZE` of the deck tables (what autovacuum does shortly
after a bulk load).

Then gunicorn serves the app as in production (DEBUG off, SECRET_KEY set, throttling off: one
client sends thousands of requests), with an access log of the server time of each request
(%(D)s: from a worker starting on the request to the response written, so time spent waiting for a
free worker is not in it). For each scenario (the plain list, the other sort, filters, a deep page),
one anonymous request is checked (200, a page of 50 decks, the count), then wrk loads it with
--connections connections for --duration seconds after a warm-up. Server-time percentiles come from
the access log, client ones from wrk (loopback, so they include queueing for a worker).

Target (issue 5): the public decks list API p95 <= 50 ms, judged on the plain list (newest first,
page 1, anonymous) by server time. Prints Markdown and a `TARGET` line; writes JSON to
bench/results/deck_api-<UTC time>.json. Exit status 1 if a check failed (a non-200 answer, a
wrong body, wrk socket errors); a missed target is reported but does not fail the run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/deck_api.py` puts bench/, not the repository, on the path
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
    prepare_database,
    read_access_log,
    server_env,
    share,
    wait_idle,
    yes,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench_deckapi"
LIST = "/api/v1/decks/"
TARGET_P95_MS = 50.0


def _libpq_url(database_url: str) -> str:
    return database_url.replace("postgres://", "postgresql://", 1)


def setup(args: argparse.Namespace, env: dict[str, str]) -> None:
    import psycopg

    prepare_database(args.database_url)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "bench/gen_decks.py", "--decks", str(args.decks)],
        cwd=REPO,
        env={**env, "DEBUG": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"bench/gen_decks.py failed:\n{result.stdout}\n{result.stderr}")
    print(f"  gen_decks: {result.stdout.strip().splitlines()[-1]} ({time.perf_counter() - started:.0f} s)")
    with psycopg.connect(_libpq_url(args.database_url), autocommit=True) as conn:
        for table in ("decks_deck", "decks_deckcard", "auth_user"):
            conn.execute(f"VACUUM ANALYZE {table}")
    print("  VACUUM ANALYZE: ok")


def catalog_facts(database_url: str) -> dict[str, Any]:
    """What the scenarios filter by: the most played ruler, card and faction among public decks."""
    import psycopg

    with psycopg.connect(_libpq_url(database_url)) as conn:
        counts = conn.execute(
            "SELECT count(*) FILTER (WHERE visibility = 'public' AND NOT archived), count(*) FROM decks_deck"
        ).fetchone()
        ruler = conn.execute(
            "SELECT r.slug FROM decks_deck d JOIN cards_ruler r ON r.id = d.ruler_id "
            "WHERE d.visibility = 'public' GROUP BY r.slug ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
        card = conn.execute(
            "SELECT c.name FROM decks_deckcard dc JOIN cards_printing p ON p.id = dc.printing_id "
            "JOIN cards_card c ON c.id = p.card_id WHERE dc.section = 'main' "
            "GROUP BY c.name ORDER BY count(*) ASC LIMIT 1 OFFSET 20"
        ).fetchone()
        faction = conn.execute("SELECT slug FROM cards_faction ORDER BY id LIMIT 1").fetchone()
    return {
        "public": counts[0],
        "decks": counts[1],
        "ruler": ruler[0] if ruler else "apprentice",
        "card": card[0] if card else "",
        "faction": faction[0] if faction else "",
    }


def scenarios(facts: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    return [
        ("public list, newest (target)", {}),
        ("sort=most_copied", {"sort": "most_copied"}),
        ("ruler filter", {"ruler": facts["ruler"]}),
        ("legal=true", {"legal": "true"}),
        ("page 100", {"page": "100"}),
        ("card filter (a rarer card)", {"card": facts["card"]}),
        ("faction filter", {"faction": facts["faction"]}),
    ]


def check(base: str, query: dict[str, str], public: int) -> dict[str, Any]:
    url = base + LIST + (f"?{urllib.parse.urlencode(query)}" if query else "")
    with urllib.request.urlopen(url, timeout=30) as response:
        status = response.status
        body = json.loads(response.read())
    problems = []
    if status != 200:
        problems.append(f"status {status}")
    results = body.get("results", [])
    if not results or len(results) > 50:
        problems.append(f"{len(results)} decks on the page")
    if any(d.get("visibility") != "public" or d.get("archived") for d in results):
        problems.append("a deck that is not public (or archived) in the list")
    if not query and body.get("count") != public:
        problems.append(f"count {body.get('count')} != {public} public decks")
    return {"url": url, "count": body.get("count"), "page": len(results), "problems": problems}


def run_wrk(args: argparse.Namespace, url: str, seconds: float, script: Path | None = None) -> dict[str, Any]:
    """wrk against url (with a Lua script choosing each request's path, if given); its figures."""
    argv = [args.wrk, "-t1", f"-c{args.connections}", f"-d{max(round(seconds), 1)}s", "--latency", "--timeout", "10s"]
    if script is not None:
        argv += ["--script", str(script)]
    result = subprocess.run([*argv, url], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"wrk failed:\n{result.stdout}\n{result.stderr}")
    out = result.stdout

    def ms(label: str) -> float | None:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\b", out, re.MULTILINE)
        if not match:
            return None
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    requests = re.search(r"(\d+) requests in", out)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "requests": int(requests.group(1)) if requests else 0,
        "rps": float(rps.group(1)) if rps else 0.0,
        "client_p50_ms": ms("50"),
        "client_p90_ms": ms("90"),
        "client_p99_ms": ms("99"),
        "socket_errors": errors.group(1) if errors else "",
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
    }


def wait_quiet(log: Path | None, quiet: float = 0.5) -> None:
    """Let gunicorn finish what wrk left queued, so the next run does not share the CPUs with it."""
    size = access_log_size(log)
    for _ in range(120):
        time.sleep(quiet)
        if access_log_size(log) == size:
            return
        size = access_log_size(log)


def measure(args: argparse.Namespace, server: Server, label: str, query: dict[str, str]) -> dict[str, Any]:
    url = server.base + LIST + (f"?{urllib.parse.urlencode(query)}" if query else "")
    if args.warmup:
        run_wrk(args, url, args.warmup)
        wait_quiet(server.access_log)
    since = access_log_size(server.access_log)
    with OtherLoad([server.pid], marker=urllib.parse.urlsplit(args.database_url).path.lstrip("/")) as load:
        client = run_wrk(args, url, args.duration)
        wait_quiet(server.access_log)
    assert server.access_log is not None
    lines = [ln for ln in read_access_log(server.access_log, since) if ln.path == LIST]
    server_ms = [ln.server_us / 1e3 for ln in lines]
    row = {
        "scenario": label,
        "query": query,
        **client,
        "server_requests": len(lines),
        "server_non_200": sum(1 for ln in lines if ln.status != 200),
        "server_p50_ms": percentile(server_ms, 50),
        "server_p95_ms": percentile(server_ms, 95),
        "server_p99_ms": percentile(server_ms, 99),
        "bytes": lines[0].bytes if lines else None,
        "other_cpu": load.share,
    }
    print(
        f"  {label}: {row['rps']:.0f} req/s; server p50 {_f(row['server_p50_ms'])} / p95 "
        f"{_f(row['server_p95_ms'])} / p99 {_f(row['server_p99_ms'])} ms; client p50 {_f(row['client_p50_ms'])} / "
        f"p99 {_f(row['client_p99_ms'])} ms; other processes {share(load.share)} of the CPUs",
        flush=True,
    )
    return row


def _f(value: float | None) -> str:
    return "?" if value is None else f"{value:.1f}"


def markdown(results: dict[str, Any]) -> str:
    lines = [
        f"{results['decks']} decks ({results['public']} public, not archived); gunicorn {results['server']}, "
        f"wrk 1 thread, {results['connections']} connections, {results['duration_s']:g} s per scenario after a "
        f"{results['warmup_s']:g} s warm-up; anonymous; 50 decks a page.  ",
        machine_note(results["machine_state"]),
        "",
        "| scenario | req/s | server p50 ms | server p95 ms | server p99 ms | client p50 ms | client p99 ms "
        "| bytes | other CPU |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results["rows"]:
        lines.append(
            f"| {row['scenario']} | {row['rps']:.0f} | {_f(row['server_p50_ms'])} | **{_f(row['server_p95_ms'])}** "
            f"| {_f(row['server_p99_ms'])} | {_f(row['client_p50_ms'])} | {_f(row['client_p99_ms'])} "
            f"| {row['bytes']} | {share(row['other_cpu'])} |"
        )
    target = results["target"]
    lines += [
        "",
        f"| target | value | met |\n| --- | ---: | :---: |\n| public decks list API p95 ≤ {TARGET_P95_MS:g} ms "
        f"(server) | {_f(target['value'])} ms | {yes(target['met'])} |",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--decks", type=int, default=100_000)
    parser.add_argument("--skip-setup", action="store_true")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--wrk", default="wrk")
    parser.add_argument("--only-target", action="store_true", help="measure the plain list only")
    parser.add_argument("--wait-idle", type=float, default=0.0, help="seconds to wait for other work to stop")
    parser.add_argument("--idle-below", type=float, default=0.15)
    args = parser.parse_args()

    env = server_env(args.database_url)
    print(f"Setup ({args.database_url}):", flush=True)
    if not args.skip_setup:
        setup(args, env)
    facts = catalog_facts(args.database_url)
    print(f"  {facts['decks']} decks, {facts['public']} public and not archived", flush=True)
    state = wait_idle(args, "the runs")
    config = ServerConfig(workers=args.workers, worker_class="sync", threads=1)
    rows = []
    checks = []
    with (
        tempfile.TemporaryDirectory(prefix="deck-api-bench-") as tmp,
        Server(config, env, Path(tmp), access_log=True) as server,
    ):
        print(f"gunicorn {config.label} on {server.base}:", flush=True)
        for label, query in scenarios(facts)[: 1 if args.only_target else None]:
            checked = check(server.base, query, facts["public"])
            checks.append(checked)
            if checked["problems"]:
                print(f"  CHECK FAILED {label}: {checked['problems']}", flush=True)
            rows.append(measure(args, server, label, query))
    target_p95 = rows[0]["server_p95_ms"]
    results = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "decks": facts["decks"],
        "public": facts["public"],
        "server": config.label,
        "connections": args.connections,
        "duration_s": args.duration,
        "warmup_s": args.warmup,
        "machine": machine_info(),
        "postgres": postgres_version(args.database_url),
        "machine_state": state,
        "checks": checks,
        "rows": rows,
        "target": {"value": target_p95, "met": target_p95 is not None and target_p95 <= TARGET_P95_MS},
    }
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / f"deck_api-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.write_text(json.dumps(results, indent=2, default=str))
    print()
    print(markdown(results))
    print()
    print(
        f"TARGET public decks list API p95 <= {TARGET_P95_MS:g} ms (server, {facts['decks']} decks): "
        f"{_f(target_p95)} ms -> {'met' if results['target']['met'] else 'NOT met'}"
    )
    print(f"Results: {out.relative_to(REPO)}")
    failed = any(c["problems"] for c in checks) or any(
        r["server_non_200"] or r["non_2xx"] or r["socket_errors"] for r in rows
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
