"""Instructions per request, counted by valgrind's callgrind: bench/request_cpu.py's requests, the same on any load.

Run from the repository root (after bench/request_cpu.py set its database up):

    .venv/bin/python -m bench.request_instructions [--database-url ...] [--cache-url ...] [-n 100]
        [--only validate,click]

CPU time moves with whatever else the machine does (other processes share its caches and cores):
on a busy machine two runs of bench/request_cpu.py differ by 10-20 %, more than a small change
saves. Instructions do not: callgrind counts those this process executes, the same for the same
code, inputs and database contents (a few tenths of a percent between runs, from hash order and
the memory allocator). This script runs itself under `valgrind --tool=callgrind` (about fifty
times slower), sets up bench/request_cpu.py's requests (measured_calls: the test client, production
settings), sends each of them n // 3 times to warm up, then n times between two markers that
make callgrind zero its counts and dump them (os.getppid and os.getuid, called nowhere else on
the way). Each row is the instructions per request and their ratio to ping's. A count of
instructions is not a time (a cache miss costs more than an add) and leaves out the database
server: bench/request_cpu.py's CPU time is still the figure reported against the targets, this
one says whether a change moved it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.request_cpu import DEFAULT_DATABASE_URL  # noqa: E402

UNDER_CALLGRIND = "GATESITE_BENCH_UNDER_CALLGRIND"


def _labels(measured: dict[str, object], only: str) -> list[str]:
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    return [label for label in measured if label == "ping" or (wanted and any(w in label for w in wanted))]


def _measure(args: argparse.Namespace) -> None:
    """Under callgrind: warm every request up, then count each between the markers."""
    from bench.request_cpu import measured_calls

    measured = measured_calls(args.database_url, args.cache_url)
    labels = _labels(measured, args.only)
    for label in labels:
        for _ in range(max(1, args.n // 3)):
            measured[label]()
    for label in labels:
        os.getppid()  # callgrind: --zero-before
        for _ in range(args.n):
            measured[label]()
        os.getuid()  # callgrind: --dump-before
    print("\t".join(labels))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--cache-url", default="", help="a shared cache (sessions cached_db), as bench/request_cpu.py")
    parser.add_argument("-n", type=int, default=100, help="requests counted per label (100)")
    parser.add_argument("--only", default="validate,click", help="labels with one of these words, and ping")
    args = parser.parse_args(argv)
    if os.environ.get(UNDER_CALLGRIND):
        _measure(args)
        return 0

    with tempfile.TemporaryDirectory(prefix="gatesite-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--zero-before=os_getppid",
            "--dump-before=os_getuid",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "bench.request_instructions",
            *(argv if argv is not None else sys.argv[1:]),
        ]
        run = subprocess.run(
            command, cwd=REPO, env={**os.environ, UNDER_CALLGRIND: "1"}, capture_output=True, text=True, check=False
        )
        lines = run.stdout.strip().splitlines()
        if run.returncode != 0 or not lines:
            sys.stderr.write(run.stderr[-3000:])
            return run.returncode or 1
        labels = lines[-1].split("\t")
        # One dump per label, in order (out.1, out.2, …), each with the instructions since the last zeroing.
        counts = []
        for i in range(1, len(labels) + 1):
            summary = next(line for line in Path(f"{out}.{i}").read_text().splitlines() if line.startswith("summary:"))
            counts.append(int(summary.split()[1]) / args.n)
    ping = counts[labels.index("ping")]
    print(f"callgrind, {args.n} requests each after {max(1, args.n // 3)} of warm-up\n")
    print("| request | instructions | × ping |")
    print("| --- | ---: | ---: |")
    for label, count in zip(labels, counts, strict=True):
        print(f"| {label} | {count:,.0f} | {count / ping:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
