"""CPU time per request, in-process: a steady figure on a busy machine, to compare code before and after.

Run from the repository root:

    .venv/bin/python bench/request_cpu.py [--database-url ...] [--skip-setup] [-n 300] [--runs 5]

Django's test client (production settings: DEBUG off) sends POST /api/v1/ping/ and
POST /api/v1/decks/validate/ (the body bench/validate.py sends: a legal 50-card Apprentice
deck by collector number) one at a time, in this process, against the PostgreSQL database of
bench/validate.py (created, migrated and loaded unless --skip-setup). Each row is the CPU time
of this process (time.process_time) per request, best and median of `--runs` runs of `-n`
requests, after a warm-up. The database server's CPU is not in it; wall time per request is
shown beside it. The throughput and latency targets are measured by bench/validate.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.common import prepare_database, server_env  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench"


def measure(call: Callable[[], object], n: int, runs: int) -> dict[str, float]:
    """CPU and wall µs per call: best and median of `runs` runs of `n` calls, after n // 5 warm-up calls."""
    for _ in range(max(1, n // 5)):
        call()
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(n):
            call()
        cpu.append((time.process_time() - c0) / n * 1e6)
        wall.append((time.perf_counter() - w0) / n * 1e6)
    return {
        "cpu_best_us": min(cpu),
        "cpu_median_us": statistics.median(cpu),
        "wall_best_us": min(wall),
        "wall_median_us": statistics.median(wall),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--skip-setup", action="store_true", help="do not create/migrate/load the database")
    parser.add_argument("-n", type=int, default=300, help="requests per run (300)")
    parser.add_argument("--runs", type=int, default=5, help="runs per endpoint (5)")
    args = parser.parse_args(argv)

    if not args.skip_setup:
        prepare_database(args.database_url)
    env = server_env(args.database_url)
    env["ALLOWED_HOSTS"] = "testserver"
    os.environ.update(env)

    import django

    django.setup()
    from django.test import Client

    from bench.validate import HTTP_RULER, legal_deck, load_rules_data, ruler_object, validate_body
    from decks.rules.practice import card_facts
    from decks.rules.ruleset import rules_in_force

    deck = legal_deck(card_facts(), rules_in_force(ruler_object(load_rules_data(), HTTP_RULER)))
    body = json.dumps(validate_body(deck))
    client = Client()

    def ping() -> None:
        response = client.post("/api/v1/ping/", data="{}", content_type="application/json")
        if response.status_code != 200:
            raise SystemExit(f"ping answered {response.status_code}: {response.content!r}")

    def validate() -> None:
        response = client.post("/api/v1/decks/validate/", data=body, content_type="application/json")
        if response.status_code != 200 or not response.json()["legal"]:
            raise SystemExit(f"validate answered {response.status_code}: {response.content!r}")

    print("| request | CPU µs best | CPU µs median | wall µs median |")
    print("| --- | ---: | ---: | ---: |")
    results = {}
    for label, call in (("ping", ping), ("validate", validate)):
        results[label] = row = measure(call, args.n, args.runs)
        print(f"| {label} | {row['cpu_best_us']:.0f} | {row['cpu_median_us']:.0f} | {row['wall_median_us']:.0f} |")
    ratio = results["ping"]["cpu_best_us"] / results["validate"]["cpu_best_us"]
    print(f"\nping CPU / validate CPU: {ratio:.0%} (the throughput ratio a CPU-bound server would approach)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
