"""Run the reliability suite and print its table (docs/reliability.md says what each row means).

.venv/bin/python -m bench.reliability            # everything, about 8 minutes on 2 cores
.venv/bin/python -m bench.reliability --quick    # 10 s load runs, fewer Schemathesis examples
.venv/bin/python -m bench.reliability --only csrf,worker-kill
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from bench.common import RESULTS_DIR, machine_info, postgres_version

from . import browser, control_characters, imports, load, outage, probes
from .probes import Case
from .stack import DATABASE_URL, REDIS_URL, Stack

Probe = Callable[[Stack, Path, argparse.Namespace], list[Case]]

# In this order: the lockout probes come last, so that sign-ins of the others still work.
PROBES: dict[str, Probe] = {
    "permissions": lambda s, w, a: [probes.permission_matrix(s)],
    "csrf": lambda s, w, a: [probes.csrf(s)],
    "racing-saves": lambda s, w, a: [probes.racing_saves(s)],
    "xss": lambda s, w, a: [browser.xss(s)],
    "malformed-imports": lambda s, w, a: [imports.malformed_imports(s, w)],
    "worker-kill": lambda s, w, a: [imports.worker_killed(s, w)],
    "redis-outage": lambda s, w, a: [outage.redis_outage(s, w)],
    "control-characters": lambda s, w, a: control_characters.control_characters(s),
    "schemathesis": lambda s, w, a: [load.schemathesis(s, w, examples=a.examples)],
    "load": lambda s, w, a: load.load(s, w, connections=a.connections, seconds=a.seconds),
    "nested-json": lambda s, w, a: [probes.nested_json(s)],
    "absurd-counts": lambda s, w, a: [probes.absurd_counts(s)],
    "oversized-body": lambda s, w, a: [probes.oversized_body(s)],
    "forged-xff": lambda s, w, a: [probes.forged_forwarded_for(s)],
    "wrong-passwords": lambda s, w, a: [probes.wrong_passwords(s)],
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.reliability", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="", help=f"comma-separated probes: {', '.join(PROBES)}")
    parser.add_argument("--quick", action="store_true", help="10 s load runs and 5 Schemathesis examples")
    parser.add_argument("--connections", type=int, default=16, help="wrk clients per load run (16)")
    parser.add_argument("--seconds", type=int, default=60, help="length of each load run (60)")
    parser.add_argument("--examples", type=int, default=25, help="Schemathesis examples per operation (25)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers (3)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.examples = 10, 5
    chosen = [name.strip() for name in args.only.split(",") if name.strip()] or list(PROBES)
    unknown = set(chosen) - PROBES.keys()
    if unknown:
        parser.error(f"unknown probes: {', '.join(sorted(unknown))}")
    args.probes = chosen
    return args


def run(args: argparse.Namespace) -> list[Case]:
    cases: list[Case] = []
    with tempfile.TemporaryDirectory(prefix="reliability-") as tmp, Stack(Path(tmp), workers=args.workers) as stack:
        print(f"stack up: {stack.base}, worker and beat on {REDIS_URL}", flush=True)
        for name in args.probes:
            started = time.monotonic()
            try:
                found = PROBES[name](stack, Path(tmp), args)
            except Exception as exc:  # a probe that breaks is a row that failed, not the end of the run
                traceback.print_exc()
                found = [Case(name, failures=1, note=f"the probe itself failed: {type(exc).__name__}: {exc}")]
            for case in found:
                print(
                    f"  {case.name}: {case.tried} tried, {case.failures} failed "
                    f"({time.monotonic() - started:.0f} s) {case.examples or ''}",
                    flush=True,
                )
            cases.extend(found)
    return cases


def table(cases: list[Case]) -> str:
    lines = [
        "| case | tried | failures | time to recover | notes | depends on |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for case in cases:
        recover = "" if case.recover_s is None else f"{case.recover_s:g} s"
        failures = f"**{case.failures}**" if case.failures else "0"
        lines.append(f"| {case.name} | {case.tried} | {failures} | {recover} | {case.note} | {case.depends_on} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = datetime.now(UTC)
    cases = run(args)
    machine = machine_info()
    print()
    print(
        f"{started:%Y-%m-%d %H:%M} UTC; {machine['nproc']} CPUs ({machine['cpu']}), {machine['ram_gib']} GiB; "
        f"Python {machine['python']}; {postgres_version(DATABASE_URL).split(' on ')[0]}"
    )
    print(table(cases))
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / f"reliability-{started:%Y%m%dT%H%M}.json"
    out.write_text(
        json.dumps(
            {
                "started": started.isoformat(),
                "machine": machine,
                "args": vars(args),
                "cases": [asdict(c) for c in cases],
            },
            indent=2,
            default=str,
        ),
        encoding="utf-8",
    )
    print(f"\nresults: {out.relative_to(RESULTS_DIR.parent.parent)}")
    return 1 if any(case.failures for case in cases) else 0
