"""Instructions per request, counted by valgrind's callgrind: bench/request_cpu.py's requests, the same on any load.

Run from the repository root (after bench/request_cpu.py set its database up):

    .venv/bin/python -m bench.request_instructions [--database-url ...] [--cache-url ...] [-n 100]
        [--only validate,click] [--wsgi]

CPU time moves with whatever else the machine does (other processes share its caches and cores):
on a busy machine two runs of bench/request_cpu.py differ by 10-20 %, more than a small change
saves. Instructions do not: callgrind counts those this process executes, the same for the same
code, inputs and database contents (a few tenths of a percent between runs, from hash order and
the memory allocator). This script runs itself under `valgrind --tool=callgrind` (about fifty
times slower), sets up bench/request_cpu.py's requests (measured_calls: the test client, production
settings), sends each of them n // 3 times to warm up, then n times between two markers that
make callgrind zero its counts and dump them (os.getppid and os.getuid, called nowhere else on
the way), with Python's cyclic garbage collector off (collected before): its full collections are
rare and large, and would land in one window or another. Each row is the instructions per request
and their ratio to ping's (the WSGI rows': to the WSGI ping's). A count of
instructions is not a time (a cache miss costs more than an add) and leaves out the database
server: bench/request_cpu.py's CPU time is still the figure reported against the targets, this
one says whether a change moved it. With --wsgi, ping and validate are also sent straight to
Django's WSGI handler, as gunicorn calls it (labels "… (WSGI)"): without the test client's own work.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.request_cpu import DEFAULT_DATABASE_URL  # noqa: E402

UNDER_CALLGRIND = "GATESITE_BENCH_UNDER_CALLGRIND"


def _labels(measured: dict[str, object], only: str) -> list[str]:
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    return [label for label in measured if label.startswith("ping") or (wanted and any(w in label for w in wanted))]


def _measure(args: argparse.Namespace) -> None:
    """Under callgrind: warm every request up, then count each between the markers."""
    from bench.request_cpu import measured_calls

    measured = measured_calls(args.database_url, args.cache_url)
    if args.wsgi:
        measured.update(_wsgi_calls())
    labels = _labels(measured, args.only)
    for label in labels:
        for _ in range(max(1, args.n // 3)):
            measured[label]()
    for label in labels:
        # The cyclic collector off while counting: a full collection (~0.1 s of a process holding the
        # catalog) lands in one window or another and would swing its figure by a third.
        gc.collect()
        gc.disable()
        os.getppid()  # callgrind: --zero-before
        for _ in range(args.n):
            measured[label]()
        os.getuid()  # callgrind: --dump-before
        gc.enable()
    print("\t".join(labels))


def _wsgi_calls() -> dict[str, Callable[[], None]]:
    """POST ping and validate (bench/validate.py's body) through django.core.handlers.wsgi.WSGIHandler."""
    from django.core.handlers.wsgi import WSGIHandler

    from bench.validate import HTTP_RULER, legal_deck, load_rules_data, ruler_object, validate_body
    from decks.rules.practice import card_facts
    from decks.rules.ruleset import rules_in_force

    deck = legal_deck(card_facts(), rules_in_force(ruler_object(load_rules_data(), HTTP_RULER)))
    body = json.dumps(validate_body(deck)).encode()
    handler = WSGIHandler()

    def call(path: str, data: bytes) -> None:
        environ = {
            "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
            "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(data)), "wsgi.input": io.BytesIO(data),
            "SERVER_NAME": "testserver", "SERVER_PORT": "80", "HTTP_HOST": "testserver", "wsgi.url_scheme": "http",
            "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "HTTP_ACCEPT": "*/*", "wsgi.errors": sys.stderr,
            "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
        }  # fmt: skip
        status = []
        response = handler(environ, lambda s, headers, exc_info=None: status.append(s))
        b"".join(response)
        response.close()  # request_finished, as a server sends it
        if not status[0].startswith("200"):
            raise SystemExit(f"{path}: {status[0]}")

    return {
        "ping (WSGI)": lambda: call("/api/v1/ping/", b"{}"),
        "validate (WSGI)": lambda: call("/api/v1/decks/validate/", body),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--cache-url", default="", help="a shared cache (sessions cached_db), as bench/request_cpu.py")
    parser.add_argument("-n", type=int, default=100, help="requests counted per label (100)")
    parser.add_argument("--only", default="validate,click", help="labels with one of these words, and ping")
    parser.add_argument("--wsgi", action="store_true", help="also ping and validate straight through the WSGI handler")
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
    print(f"callgrind, {args.n} requests each after {max(1, args.n // 3)} of warm-up\n")
    print("| request | instructions | × ping |")
    print("| --- | ---: | ---: |")
    by_label = dict(zip(labels, counts, strict=True))
    for label, count in by_label.items():
        ping = by_label["ping (WSGI)" if label.endswith("(WSGI)") else "ping"]
        print(f"| {label} | {count:,.0f} | {count / ping:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
