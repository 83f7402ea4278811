"""Deck validation benchmark: the pure engine, then POST /api/v1/decks/validate/ over HTTP.

Run by hand from the repository root (see docs/benchmarks.md for prerequisites and results):

    .venv/bin/python bench/validate.py [--duration 10] [--connections 16] [--workers 3] ...

1. Engine (no Django, no database): for several rulers, build a legal deck from the practice
   set (data/practice/*.json) with decks.rules.builder.build_legal_deck, then time
   validate_deck with timeit; also time rules_in_force (parsing a ruler object, with and
   without a geas). Target: at most 100 µs per 50-card deck.
2. HTTP: create the PostgreSQL database DATABASE_URL (default gatesite_bench on
   127.0.0.1:5432) if missing, migrate it, load the rules and import the practice set; serve
   the app with gunicorn as production would (DEBUG off, SECRET_KEY set,
   ALLOWED_HOSTS=127.0.0.1); check one request of each endpoint with urllib; then load both
   the trivial DRF endpoint POST /api/v1/ping/ and POST /api/v1/decks/validate/ (a legal
   50-card Apprentice deck, by collector number) with wrk, warm-up first, and compare.
   Targets: validate at least 70% of ping's requests/s, validate p99 at most 25 ms.
3. Prints Markdown tables and writes everything as JSON to bench/results/validate-<UTC time>.json.

The exit status is 1 if a check failed (a response that was not 200, a validate body that
was not legal, wrk socket errors); missed targets are reported but do not fail the run.
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
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/validate.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

from decks.rules.builder import build_legal_deck  # noqa: E402
from decks.rules.engine import validate_deck  # noqa: E402
from decks.rules.ruleset import RulesInForce, rules_in_force  # noqa: E402
from decks.rules.types import CardFacts, Deck  # noqa: E402

DATA = REPO / "data"
RULES_PATH = DATA / "rules.json"
PRACTICE_FILES = tuple(sorted((DATA / "practice").glob("*.json")))
RESULTS_DIR = REPO / "bench" / "results"
APPENDIX_A = "appendix-a-2023-12-04"

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench"
DEFAULT_RULERS = (
    "Apprentice",
    "Knight",
    "Highlander",
    "Legion",
    "Centurion",
    "Wizard",
    "Janken Junkie",
    "Exvader",
    "World Master Alpha 2020",
)
DEFAULT_GEASES = ("Oath of the Lone Banner", "Oath of the Peerless Master")
HTTP_RULER = "Apprentice"  # the deck sent to the validate endpoint
HTTP_RULER_SLUG = "apprentice"
BENCH_SECRET_KEY = "gatesite-bench-only-not-a-production-key"

TARGET_ENGINE_US = 100.0
TARGET_THROUGHPUT_RATIO = 0.70
TARGET_P99_MS = 25.0


# --- data ------------------------------------------------------------------------------------


def load_rules_data() -> dict[str, Any]:
    return json.loads(RULES_PATH.read_text(encoding="utf-8"))


def ruler_object(data: dict[str, Any], name: str, document: str = APPENDIX_A) -> dict[str, Any]:
    for doc in data["documents"]:
        if doc["key"] == document:
            for obj in doc["rulers"]:
                if obj["name"] == name:
                    return obj
    raise SystemExit(f"No ruler {name!r} in {document} of {RULES_PATH}.")


def geas_object(data: dict[str, Any], name: str) -> dict[str, Any]:
    for doc in data["documents"]:
        for obj in doc["geases"]:
            if obj["name"] == name:
                return obj
    raise SystemExit(f"No geas {name!r} in {RULES_PATH}.")


def practice_cards(paths: Iterable[Path] = PRACTICE_FILES) -> list[CardFacts]:
    """One CardFacts per name from set files in the import format, with all its collector numbers."""
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for card in json.loads(path.read_text(encoding="utf-8"))["cards"]:
            by_name[card["name"]].append(card)
    facts = []
    for name, printings in sorted(by_name.items()):
        first = printings[0]
        facts.append(
            CardFacts(
                name=name,
                type=first["type"],
                faction=first["faction"],
                attributes=frozenset(first["attributes"]),
                level=first["level"],
                cnt=first["cnt"],
                legend=first["legend"],
                text=first["text"],
                collector_numbers=tuple(sorted(p["number"] for p in printings)),
            )
        )
    return facts


def legal_deck(cards: Sequence[CardFacts], rules: RulesInForce) -> Deck:
    deck = build_legal_deck(cards, rules)
    label = rules.ruler + (f" + {rules.geas}" if rules.geas else "")
    if deck is None:
        raise SystemExit(f"build_legal_deck found no legal deck for {label} from the practice set.")
    report = validate_deck(deck, rules)
    if not report.legal:
        raise SystemExit(f"The deck built for {label} is not legal: {[v.message for v in report.violations]}")
    return deck


def deck_size(deck: Deck) -> int:
    return sum(entry.count for entry in deck.main)


# --- 1. engine -------------------------------------------------------------------------------


@dataclass
class EngineRow:
    label: str
    cards: int  # cards in the main deck
    names: int  # different names in the main deck
    validate_mean_us: float
    validate_best_us: float
    parse_mean_us: float  # rules_in_force for this ruler (and geas)
    calls: int  # validate_deck calls timed
    other_cpu: float | None = None  # share of all CPUs other processes used meanwhile


def time_call(fn: Callable[[], object], number: int, repeat: int) -> tuple[float, float]:
    """(mean, best) µs per call over repeat runs of number calls each (timeit: GC off while timing)."""
    runs = timeit.Timer(fn).repeat(repeat=repeat, number=number)
    return sum(runs) / (number * repeat) * 1e6, min(runs) / number * 1e6


def bench_engine(args: argparse.Namespace) -> dict[str, Any]:
    machine = wait_idle(args, "the engine runs")
    data = load_rules_data()
    cards = practice_cards()
    cases: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = [
        (name, ruler_object(data, name), None) for name in args.rulers
    ]
    for geas_name in args.geases:
        geas = geas_object(data, geas_name)
        cases.append((f"{geas['target_ruler']} + {geas_name}", ruler_object(data, geas["target_ruler"]), geas))

    rows = []
    for label, ruler, geas in cases:
        rules = rules_in_force(ruler, geas)
        deck = legal_deck(cards, rules)
        for attempt in range(args.retries + 1):
            with OtherLoad() as load:
                mean, best = time_call(
                    lambda deck=deck, rules=rules: validate_deck(deck, rules), args.iterations, args.repeat
                )
                parse_number = max(args.iterations // 10, 1)
                parse_mean, _ = time_call(lambda r=ruler, g=geas: rules_in_force(r, g), parse_number, args.repeat)
            if load.share is None or load.share <= args.max_other or attempt == args.retries:
                break
            print(f"  engine: {label}: other processes used {load.share:.0%} of the CPUs; again", flush=True)
            wait_idle(args, f"{label} again")
        rows.append(
            EngineRow(
                label=label,
                cards=deck_size(deck),
                names=len(deck.main),
                validate_mean_us=mean,
                validate_best_us=best,
                parse_mean_us=parse_mean,
                calls=args.iterations * args.repeat,
                other_cpu=load.share,
            )
        )
        print(
            f"  engine: {label}: validate {mean:.1f} µs, rules_in_force {parse_mean:.1f} µs"
            f" (other processes: {'?' if load.share is None else f'{load.share:.0%}'} of the CPUs)",
            flush=True,
        )

    ruler_rows = [r for r in rows if " + " not in r.label]
    geas_rows = [r for r in rows if " + " in r.label]
    overall = statistics.fmean(r.validate_mean_us for r in rows)  # every row has the same number of calls
    return {
        "practice_cards": len(cards),
        "iterations": args.iterations,
        "repeat": args.repeat,
        "machine_state": machine,
        "rows": [asdict(r) for r in rows],
        "validate_overall_mean_us": overall,
        "validate_worst_mean_us": max(r.validate_mean_us for r in rows),
        "parse_ruler_mean_us": statistics.fmean(r.parse_mean_us for r in ruler_rows) if ruler_rows else None,
        "parse_geas_mean_us": statistics.fmean(r.parse_mean_us for r in geas_rows) if geas_rows else None,
        "target_us": TARGET_ENGINE_US,
        "target_met": overall <= TARGET_ENGINE_US,
    }


# --- 2. HTTP: database ------------------------------------------------------------------------


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


# --- 2. HTTP: server ---------------------------------------------------------------------------


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

    def argv(self, port: int, error_log: Path) -> list[str]:
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

    def __init__(self, config: ServerConfig, env: dict[str, str], workdir: Path) -> None:
        self.config = config
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.error_log = workdir / f"gunicorn-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            self.config.argv(self.port, self.error_log),
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


# --- 2. HTTP: wrk ------------------------------------------------------------------------------

# Every response is checked inside wrk: a status other than 200, or a body without the
# expected text, is counted per thread and the totals printed by done().
WRK_SCRIPT = """\
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
wrk.body = [==[{body}]==]
local expect = [==[{expect}]==]

local threads = {{}}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bad_status = 0
  bad_body = 0
end

function response(status, headers, body)
  if status ~= 200 then
    bad_status = bad_status + 1
  elseif not string.find(body, expect, 1, true) then
    bad_body = bad_body + 1
  end
end

function done(summary, latency, requests)
  local s, b = 0, 0
  for _, t in ipairs(threads) do
    s = s + t:get("bad_status")
    b = b + t:get("bad_body")
  end
  io.write(string.format("BENCH_CHECK bad_status=%d bad_body=%d\\n", s, b))
end
"""

_UNITS_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}


def _ms(value: str, unit: str) -> float:
    return float(value) * _UNITS_MS[unit]


@dataclass
class LoadResult:
    endpoint: str
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p75_ms: float
    p90_ms: float
    p99_ms: float
    bad_status: int
    bad_body: int
    non_2xx: int
    socket_errors: dict[str, int] = field(default_factory=dict)
    other_cpu: float | None = None  # share of all CPUs other processes used during the run

    @property
    def clean(self) -> bool:
        return not (self.bad_status or self.bad_body or self.non_2xx or any(self.socket_errors.values()))


def parse_wrk(endpoint: str, output: str) -> LoadResult:
    def need(pattern: str) -> re.Match[str]:
        match = re.search(pattern, output)
        if match is None:
            raise SystemExit(f"Could not find {pattern!r} in the output of wrk:\n{output}")
        return match

    total = need(r"(\d+) requests in ([\d.]+)(us|ms|s|m|h),")
    rps = need(r"Requests/sec:\s+([\d.]+)")
    latency = {
        pct: _ms(value, unit)
        for pct, value, unit in re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s|m|h)\s*$", output, re.M)
    }
    if set(latency) != {"50", "75", "90", "99"}:
        raise SystemExit(f"No complete Latency Distribution in the output of wrk (run with --latency):\n{output}")
    check = need(r"BENCH_CHECK bad_status=(\d+) bad_body=(\d+)")
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return LoadResult(
        endpoint=endpoint,
        requests=int(total.group(1)),
        seconds=_ms(total.group(2), total.group(3)) / 1e3,
        rps=float(rps.group(1)),
        p50_ms=latency["50"],
        p75_ms=latency["75"],
        p90_ms=latency["90"],
        p99_ms=latency["99"],
        bad_status=int(check.group(1)),
        bad_body=int(check.group(2)),
        non_2xx=int(non_2xx.group(1)) if non_2xx else 0,
        socket_errors=dict(
            zip(("connect", "read", "write", "timeout"), (int(g) for g in sockets.groups()), strict=True)
        )
        if sockets
        else {},
    )


def run_wrk(args: argparse.Namespace, url: str, script: Path, seconds: float) -> str:
    argv = [
        args.wrk,
        f"-t{args.wrk_threads}",
        f"-c{args.connections}",
        f"-d{max(round(seconds), 1)}s",
        "--latency",
        "--timeout",
        "5s",
        "-s",
        str(script),
        url,
    ]
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"wrk failed ({' '.join(argv)}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


def write_script(path: Path, body: object, expect: str) -> Path:
    text = json.dumps(body, separators=(",", ":"))
    if "]==]" in text or "]==]" in expect:
        raise SystemExit("The request body cannot be quoted for Lua.")
    path.write_text(WRK_SCRIPT.format(body=text, expect=expect), encoding="utf-8")
    return path


def validate_body(deck: Deck) -> dict[str, Any]:
    """The request body for a deck: every card by one of its collector numbers."""

    def lines(entries: Iterable[Any]) -> list[dict[str, Any]]:
        return [{"number": e.printing or e.card.collector_numbers[0], "count": e.count} for e in entries]

    return {
        "ruler": HTTP_RULER_SLUG,
        "geas": None,
        "as_of": None,
        "attribute": deck.attribute,
        "main": lines(deck.main),
        "resources": lines(deck.resources),
    }


def bench_http(args: argparse.Namespace, configs: Sequence[ServerConfig]) -> dict[str, Any]:
    if shutil.which(args.wrk) is None:
        raise SystemExit(f"{args.wrk} not found: install it (apt-get install wrk) or pass --wrk PATH.")
    rules = rules_in_force(ruler_object(load_rules_data(), HTTP_RULER))
    deck = legal_deck(practice_cards(), rules)
    if deck_size(deck) != 50:
        raise SystemExit(f"The {HTTP_RULER} deck has {deck_size(deck)} cards, not 50.")
    body = validate_body(deck)

    if args.skip_setup:
        print("  database setup skipped (--skip-setup)")
    else:
        prepare_database(args.database_url)
    env = server_env(args.database_url)

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="gatesite-bench-") as tmp:
        workdir = Path(tmp)
        ping_script = write_script(workdir / "ping.lua", {}, '"ok":true')
        validate_script = write_script(workdir / "validate.lua", body, '"legal":true')
        for config in configs:
            machine = wait_idle(args, f"gunicorn {config.label}")
            with Server(config, env, workdir) as server:
                ping_url = server.base + "/api/v1/ping/"
                validate_url = server.base + "/api/v1/decks/validate/"
                status, answer = post_json(ping_url, {})
                assert status == 200, (status, answer)
                assert answer == {"ok": True}, answer
                status, answer = post_json(validate_url, body)
                assert status == 200, (status, answer)
                assert answer["legal"] is True, answer
                assert answer["summary"]["size"] == 50, answer
                print(
                    f"  {config.label}: gunicorn on port {server.port}; one validate request by urllib: 200, "
                    f"legal, {answer['summary']['size']} cards, rules from {answer['rules_effective_from']}",
                    flush=True,
                )
                if args.warmup > 0:
                    for url, script in ((ping_url, ping_script), (validate_url, validate_script)):
                        run_wrk(args, url, script, args.warmup)
                runs: dict[str, list[LoadResult]] = {"ping": [], "validate": []}
                retried = 0
                round_no = 0
                # PostgreSQL backends show "postgres: <version>/<cluster>: <user> <database> <client> <state>".
                marker = f" {urllib.parse.urlsplit(args.database_url).path.lstrip('/')} "
                while round_no < args.rounds:
                    pair = []
                    for name, url, script in (
                        ("ping", ping_url, ping_script),
                        ("validate", validate_url, validate_script),
                    ):
                        with OtherLoad([server.pid], marker) as load:
                            output = run_wrk(args, url, script, args.duration)
                        result = parse_wrk(name, output)
                        result.other_cpu = load.share
                        pair.append(result)
                        other = "?" if load.share is None else f"{load.share:.0%}"
                        print(
                            f"    round {round_no + 1} {name}: {result.rps:.0f} req/s, p50 {result.p50_ms:.2f} ms, "
                            f"p99 {result.p99_ms:.2f} ms, other processes {other} of the CPUs"
                            f"{'' if result.clean else ' (ERRORS)'}",
                            flush=True,
                        )
                    contended = any(r.other_cpu is not None and r.other_cpu > args.max_other for r in pair)
                    if contended and retried < args.retries:
                        retried += 1
                        print(f"    other work on the machine: round {round_no + 1} again", flush=True)
                        wait_idle(args, f"round {round_no + 1} again")
                        continue
                    for result in pair:
                        runs[result.endpoint].append(result)
                    round_no += 1
            results.append(
                summarize_config(config, runs, server.log_tail())
                | {"machine_state": machine, "retried_rounds": retried}
            )
    return {
        "database_url": args.database_url,
        "postgres": postgres_version(args.database_url),
        "deck": {"ruler": HTTP_RULER, "cards": deck_size(deck), "names": len(deck.main), "body": body},
        "wrk": {"threads": args.wrk_threads, "connections": args.connections, "duration_s": args.duration},
        "warmup_s": args.warmup,
        "rounds": args.rounds,
        "configs": results,
    }


def summarize_config(config: ServerConfig, runs: dict[str, list[LoadResult]], log_tail: str) -> dict[str, Any]:
    """Median over the rounds of each figure, the throughput ratio and the targets."""

    def median(name: str, attr: str) -> float:
        return statistics.median(getattr(r, attr) for r in runs[name])

    figures = {
        name: {attr: median(name, attr) for attr in ("rps", "p50_ms", "p75_ms", "p90_ms", "p99_ms")}
        | {"requests": sum(r.requests for r in runs[name])}
        for name in runs
    }
    ratio = figures["validate"]["rps"] / figures["ping"]["rps"]
    clean = all(r.clean for results in runs.values() for r in results)
    return {
        "server": config.label,
        "gunicorn": asdict(config),
        "ping": figures["ping"],
        "validate": figures["validate"],
        "ratio": ratio,
        "all_checks_passed": clean,
        "targets": {
            "ratio_min": TARGET_THROUGHPUT_RATIO,
            "ratio_met": ratio >= TARGET_THROUGHPUT_RATIO,
            "validate_p99_max_ms": TARGET_P99_MS,
            "validate_p99_met": figures["validate"]["p99_ms"] <= TARGET_P99_MS,
        },
        "rounds": {name: [asdict(r) for r in results] for name, results in runs.items()},
        "gunicorn_log_tail": log_tail,
    }


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


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def markdown(results: dict[str, Any]) -> str:
    out = []
    engine = results.get("engine")
    if engine:
        out += [
            f"Engine (pure Python, timeit, {engine['iterations']}x{engine['repeat']} calls per row; "
            f"target ≤ {TARGET_ENGINE_US:.0f} µs per 50-card deck; other CPU: share of the CPUs other "
            "processes used meanwhile):",
            "",
            "| rules | cards (names) | validate_deck mean µs | best µs | rules_in_force µs | other CPU |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in engine["rows"]:
            out.append(
                f"| {row['label']} | {row['cards']} ({row['names']}) | {row['validate_mean_us']:.1f} "
                f"| {row['validate_best_us']:.1f} | {row['parse_mean_us']:.1f} | {_share(row['other_cpu'])} |"
            )
        parse = f"{engine['parse_ruler_mean_us']:.1f} µs per ruler"
        if engine["parse_geas_mean_us"] is not None:
            parse += f", {engine['parse_geas_mean_us']:.1f} µs with a geas"
        out += [
            f"| **overall** | | **{engine['validate_overall_mean_us']:.1f}** | | | |",
            "",
            f"validate_deck overall mean {engine['validate_overall_mean_us']:.1f} µs "
            f"(worst ruler {engine['validate_worst_mean_us']:.1f} µs): target met: {_yes(engine['target_met'])}. "
            f"rules_in_force (parsing): {parse}.",
            _machine_note(engine["machine_state"]),
            "",
        ]
    http = results.get("http")
    if http:
        wrk = http["wrk"]
        out += [
            f"HTTP (wrk -t{wrk['threads']} -c{wrk['connections']} -d{wrk['duration_s']:g}s, "
            f"median of {http['rounds']} round(s) after {http['warmup_s']:g} s warm-up; "
            f"validate: {http['deck']['cards']}-card {http['deck']['ruler']} deck, "
            f"{http['deck']['names']} lines by collector number; other CPU: the most of the CPUs other "
            "processes used during a measured run):",
            "",
            "| gunicorn | endpoint | req/s | p50 ms | p99 ms | validate/ping | all 200 + checks | other CPU | targets met |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |",
        ]
        for cfg in http["configs"]:
            t = cfg["targets"]
            for name in ("ping", "validate"):
                f = cfg[name]
                ratio = f"{cfg['ratio']:.0%}" if name == "validate" else ""
                met = (
                    f"ratio ≥ {t['ratio_min']:.0%}: {_yes(t['ratio_met'])}; "
                    f"p99 ≤ {t['validate_p99_max_ms']:g} ms: {_yes(t['validate_p99_met'])}"
                    if name == "validate"
                    else ""
                )
                out.append(
                    f"| {cfg['server']} | {name} | {f['rps']:.0f} | {f['p50_ms']:.2f} | {f['p99_ms']:.2f} "
                    f"| {ratio} | {'yes' if cfg['all_checks_passed'] else '**no**'} "
                    f"| {_share(max((r['other_cpu'] or 0 for r in cfg['rounds'][name]), default=None))} | {met} |"
                )
        out += [_machine_note(cfg["machine_state"], cfg["server"]) for cfg in http["configs"]]
        out.append("")
    return "\n".join(out)


def _share(value: float | None) -> str:
    return "?" if value is None else f"{value:.0%}"


def _machine_note(state: dict[str, Any], what: str = "") -> str:
    busy = state["cpu_busy_before"]
    seen = "unknown" if busy is None else f"{busy:.0%}"
    where = f" ({what})" if what else ""
    verdict = "idle" if state["idle"] else "**not idle: figures are pessimistic**"
    return f"CPU busy with other work before the runs{where}: {seen}, {verdict}.  "


# --- main ------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=10, help="seconds of each measured wrk run (10)")
    parser.add_argument("--connections", type=int, default=16, help="concurrent wrk connections (16)")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up per endpoint, not measured (3)")
    parser.add_argument("--rounds", type=int, default=1, help="measured ping+validate rounds per server; medians (1)")
    parser.add_argument(
        "--workers",
        default="5",
        help="gunicorn worker counts, comma-separated: each gets its own server and runs (5 = 2xcores+1)",
    )
    parser.add_argument("--worker-class", default="sync", choices=("sync", "gthread"), help="gunicorn worker class")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker for --worker-class gthread (4)")
    parser.add_argument(
        "--app",
        default="gatesite.wsgi:application",
        help="the WSGI application gunicorn serves (for what-if experiments; PYTHONPATH is passed on)",
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--skip-setup", action="store_true", help="do not create/migrate/load the database")
    parser.add_argument("--wrk", default="wrk", help="the wrk binary (wrk)")
    parser.add_argument("--iterations", type=int, default=5000, help="validate_deck calls per timeit run (5000)")
    parser.add_argument("--repeat", type=int, default=5, help="timeit runs per ruler (5)")
    parser.add_argument(
        "--rulers",
        default=",".join(DEFAULT_RULERS),
        help="Appendix A rulers for the engine part, comma-separated, or 'all'",
    )
    parser.add_argument(
        "--geases", default=",".join(DEFAULT_GEASES), help="geases for the engine part, comma-separated ('' for none)"
    )
    parser.add_argument(
        "--wait-idle",
        type=float,
        default=120,
        help="seconds to wait, before each part, for other work on the machine to stop (120)",
    )
    parser.add_argument(
        "--idle-below", type=float, default=0.15, help="CPU share counted as idle for --wait-idle (0.15)"
    )
    parser.add_argument(
        "--max-other",
        type=float,
        default=0.10,
        help="share of the CPUs other processes may use during a measured run before it is retried (0.10)",
    )
    parser.add_argument("--retries", type=int, default=6, help="retries of contended runs or rows (6)")
    parser.add_argument("--engine-only", action="store_true", help="only the engine part")
    parser.add_argument("--http-only", action="store_true", help="only the HTTP part")
    args = parser.parse_args(argv)
    if args.engine_only and args.http_only:
        parser.error("--engine-only and --http-only exclude each other")
    if args.rulers == "all":
        doc = next(d for d in load_rules_data()["documents"] if d["key"] == APPENDIX_A)
        args.rulers = [r["name"] for r in doc["rulers"]]
    else:
        args.rulers = [r.strip() for r in args.rulers.split(",") if r.strip()]
    args.geases = [g.strip() for g in args.geases.split(",") if g.strip()]
    try:
        args.workers = [int(w) for w in args.workers.split(",")]
    except ValueError:
        parser.error("--workers takes comma-separated integers, e.g. 3,5")
    if args.rounds < 1 or args.duration < 1 or args.connections < 1 or min(args.workers) < 1:
        parser.error("--rounds, --duration, --connections and --workers must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = datetime.now(UTC)
    results: dict[str, Any] = {
        "benchmark": "validate",
        "started_utc": started.isoformat(timespec="seconds"),
        "command": " ".join([".venv/bin/python", "bench/validate.py", *(argv if argv is not None else sys.argv[1:])]),
        "machine": machine_info(),
    }
    if not args.http_only:
        print("Engine…", flush=True)
        results["engine"] = bench_engine(args)
    if not args.engine_only:
        print("HTTP…", flush=True)
        configs = [ServerConfig(w, args.worker_class, args.threads, args.app) for w in args.workers]
        results["http"] = bench_http(args, configs)
        results["machine"]["postgres"] = results["http"]["postgres"]

    table = markdown(results)
    results["markdown"] = table
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"validate-{started.strftime('%Y%m%dT%H%M%SZ')}.json"
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print()
    print(table)
    print(f"Results: {path.relative_to(REPO)}")
    failed = "http" in results and not all(c["all_checks_passed"] for c in results["http"]["configs"])
    if failed:
        print("Some responses failed their checks (not 200, not legal, or socket errors): see the JSON.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
