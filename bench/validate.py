"""Deck validation benchmark: the pure engine, then POST /api/v1/decks/validate/ over HTTP.

Run by hand from the repository root (see docs/benchmarks.md for prerequisites and results):

    .venv/bin/python bench/validate.py [--duration 10] [--connections 16] [--workers 3] [--rounds 3] ...

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
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import timeit
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/validate.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

# The database, the server and the machine: shared with bench/editor.py.
from bench.common import (  # noqa: E402
    DATA,
    RESULTS_DIR,
    OtherLoad,
    Server,
    ServerConfig,
    machine_info,
    post_json,
    postgres_version,
    prepare_database,
    server_env,
    tree_cpu_ticks,
    wait_idle,
)
from bench.common import machine_note as _machine_note  # noqa: E402
from bench.common import share as _share  # noqa: E402
from bench.common import yes as _yes  # noqa: E402
from decks.rules.builder import build_legal_deck  # noqa: E402
from decks.rules.engine import validate_deck  # noqa: E402
from decks.rules.practice import card_facts  # noqa: E402
from decks.rules.ruleset import RulesInForce, rules_in_force  # noqa: E402
from decks.rules.types import CardFacts, DeckSnapshot  # noqa: E402

RULES_PATH = DATA / "rules.json"
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


def legal_deck(cards: Sequence[CardFacts], rules: RulesInForce) -> DeckSnapshot:
    deck = build_legal_deck(cards, rules)
    label = rules.ruler + (f" + {rules.geas}" if rules.geas else "")
    if deck is None:
        raise SystemExit(f"build_legal_deck found no legal deck for {label} from the practice set.")
    report = validate_deck(deck, rules)
    if not report.legal:
        raise SystemExit(f"The deck built for {label} is not legal: {[v.message for v in report.violations]}")
    return deck


def deck_size(deck: DeckSnapshot) -> int:
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
    cards = card_facts()
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


# --- 2. HTTP: wrk ------------------------------------------------------------------------------

# Every response is checked inside wrk: a status other than 200, or a body without the
# expected text, is counted per thread and the totals printed by done().
# GET, by wrk like the others: the catalog API's ruler (issue 15 compares its throughput with ping's).
RULER_PATH = "/api/v1/rulers/apprentice/"

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
    # CPU time (user + system) gunicorn's processes used per request during the run: steadier than
    # req/s when other work shares the machine (it leaves out wrk's, the kernel's interrupts', PostgreSQL's).
    server_cpu_us: float | None = None

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


def validate_body(deck: DeckSnapshot) -> dict[str, Any]:
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
    deck = legal_deck(card_facts(), rules)
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
        # The catalog API (issue 15): a GET with no body, answered from the catalog memory.
        ruler_script = write_script(workdir / "ruler.lua", {}, '"slug":"apprentice"')
        ruler_script.write_text(
            ruler_script.read_text()
            .replace('wrk.method = "POST"', 'wrk.method = "GET"')
            .replace("wrk.body = ", "local _ = ")
        )
        for config in configs:
            machine = wait_idle(args, f"gunicorn {config.label}")
            code = code_state()  # what gunicorn is about to load: the code may change during a long run
            with Server(config, env, workdir) as server:
                ping_url = server.base + "/api/v1/ping/"
                validate_url = server.base + "/api/v1/decks/validate/"
                ruler_url = server.base + RULER_PATH
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
                    for url, script in (
                        (ping_url, ping_script),
                        (validate_url, validate_script),
                        (ruler_url, ruler_script),
                    ):
                        run_wrk(args, url, script, args.warmup)
                runs: dict[str, list[LoadResult]] = {"ping": [], "validate": [], "ruler": []}
                retried = 0
                round_no = 0
                # PostgreSQL backends show "postgres: <version>/<cluster>: <user> <database> <client> <state>".
                marker = f" {urllib.parse.urlsplit(args.database_url).path.lstrip('/')} "
                while round_no < args.rounds:
                    pair = []
                    for name, url, script in (
                        ("ping", ping_url, ping_script),
                        ("validate", validate_url, validate_script),
                        ("ruler", ruler_url, ruler_script),
                    ):
                        ticks = tree_cpu_ticks(server.pid)
                        with OtherLoad([server.pid], marker) as load:
                            output = run_wrk(args, url, script, args.duration)
                        ticks = tree_cpu_ticks(server.pid) - ticks
                        result = parse_wrk(name, output)
                        result.other_cpu = load.share
                        result.server_cpu_us = ticks / os.sysconf("SC_CLK_TCK") / max(result.requests, 1) * 1e6
                        pair.append(result)
                        other = "?" if load.share is None else f"{load.share:.0%}"
                        print(
                            f"    round {round_no + 1} {name}: {result.rps:.0f} req/s, p50 {result.p50_ms:.2f} ms, "
                            f"p99 {result.p99_ms:.2f} ms, gunicorn CPU {result.server_cpu_us:.0f} µs a request, "
                            f"other processes {other} of the CPUs"
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
                | {"machine_state": machine, "retried_rounds": retried, "code": code}
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
        name: {attr: median(name, attr) for attr in ("rps", "p50_ms", "p75_ms", "p90_ms", "p99_ms", "server_cpu_us")}
        | {"requests": sum(r.requests for r in runs[name])}
        for name in runs
    }
    ratio = figures["validate"]["rps"] / figures["ping"]["rps"]
    for name in runs:  # gunicorn's CPU per request over ping's: what the throughput ratio is made of
        figures[name]["server_cpu_ratio"] = figures[name]["server_cpu_us"] / figures["ping"]["server_cpu_us"]
    clean = all(r.clean for results in runs.values() for r in results)
    return {
        "server": config.label,
        "gunicorn": asdict(config),
        "ping": figures["ping"],
        "validate": figures["validate"],
        "ruler": figures["ruler"],
        "ratio": ratio,
        "ruler_ratio": figures["ruler"]["rps"] / figures["ping"]["rps"],
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


# --- report ----------------------------------------------------------------------------------


def markdown(results: dict[str, Any]) -> str:
    out = []
    states = [results.get("code") or {}] + [c.get("code") or {} for c in results.get("http", {}).get("configs", [])]
    described = list(dict.fromkeys(_describe_code(state) for state in states if state.get("commit")))
    if described:
        out += ["Code: " + "; then ".join(described) + ".", ""]
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
            "| gunicorn | endpoint | req/s | p50 ms | p99 ms | / ping | gunicorn CPU µs/req (× ping) "
            "| all 200 + checks | other CPU | targets met |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |",
        ]
        for cfg in http["configs"]:
            t = cfg["targets"]
            for name in ("ping", "validate", "ruler"):
                f = cfg[name]
                ratio = {"validate": f"{cfg['ratio']:.0%}", "ruler": f"{cfg['ruler_ratio']:.0%}"}.get(name, "")
                met = (
                    f"ratio ≥ {t['ratio_min']:.0%}: {_yes(t['ratio_met'])}; "
                    f"p99 ≤ {t['validate_p99_max_ms']:g} ms: {_yes(t['validate_p99_met'])}"
                    if name == "validate"
                    else ""
                )
                cpu = f"{f['server_cpu_us']:.0f} ({f['server_cpu_ratio']:.2f})" if "server_cpu_us" in f else "?"
                out.append(
                    f"| {cfg['server']} | {name} | {f['rps']:.0f} | {f['p50_ms']:.2f} | {f['p99_ms']:.2f} "
                    f"| {ratio} | {cpu} | {'yes' if cfg['all_checks_passed'] else '**no**'} "
                    f"| {_share(max((r['other_cpu'] or 0 for r in cfg['rounds'][name]), default=None))} | {met} |"
                )
        out += [_machine_note(cfg["machine_state"], cfg["server"]) for cfg in http["configs"]]
        out.append("")
    return "\n".join(out)


# --- main ------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=10, help="seconds of each measured wrk run (10)")
    parser.add_argument("--connections", type=int, default=16, help="concurrent wrk connections (16)")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up per endpoint, not measured (3)")
    parser.add_argument("--rounds", type=int, default=3, help="measured ping+validate rounds per server; medians (3)")
    parser.add_argument(
        "--workers",
        default="3",
        help="gunicorn worker counts, comma-separated: each gets its own server and runs (3, as in the Procfile;\n"
        "on 2 cores sync 3 beat 2 and 5 and gthread, see docs/benchmarks.md)",
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


def code_state() -> dict[str, Any]:
    """The commit measured and the files changed since (read-only git commands; None without git)."""

    def git(*argv: str) -> str | None:
        try:
            result = subprocess.run(["git", *argv], cwd=REPO, capture_output=True, text=True, check=False)
        except OSError:
            return None
        return result.stdout.strip() if result.returncode == 0 else None

    status = git("status", "--porcelain", "--untracked-files=no")
    return {
        "commit": git("rev-parse", "HEAD"),
        "changed_files": [line[3:] for line in status.splitlines()] if status else [],
    }


def _describe_code(state: dict[str, Any]) -> str:
    changed = state["changed_files"]
    return f"commit {state['commit'][:10]}" + (f" with {len(changed)} changed files" if changed else "")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # unwinds the with blocks, so gunicorn is stopped too


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    started = datetime.now(UTC)
    results: dict[str, Any] = {
        "benchmark": "validate",
        "started_utc": started.isoformat(timespec="seconds"),
        "command": " ".join([".venv/bin/python", "bench/validate.py", *(argv if argv is not None else sys.argv[1:])]),
        "machine": machine_info(),
        "code": code_state(),
    }
    if not args.http_only:
        print("Engine…", flush=True)
        results["engine"] = bench_engine(args) | {"code": results["code"]}
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
