"""Load and fuzzing: 16 clients for 60 s on the validate API and the editor (wrk), Schemathesis with every check."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

from bench.common import RESULTS_DIR
from bench.validate import parse_wrk, write_script

from .probes import Case
from .stack import MAIN, RULER, Stack

# The editor page for a new deck, checked inside wrk like bench/validate.py's POST script.
GET_SCRIPT = """\
wrk.method = "GET"
local expect = [==[{expect}]==]
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) bad_status = 0; bad_body = 0 end
function response(status, headers, body)
  if status ~= 200 then bad_status = bad_status + 1
  elseif not string.find(body, expect, 1, true) then bad_body = bad_body + 1 end
end
function done(summary, latency, requests)
  local s, b = 0, 0
  for _, t in ipairs(threads) do s = s + t:get("bad_status"); b = b + t:get("bad_body") end
  io.write(string.format("BENCH_CHECK bad_status=%d bad_body=%d\\n", s, b))
end
"""


def _wrk(url: str, script: Path, *, connections: int, seconds: int) -> str:
    argv = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s", "-s", str(script), url]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"wrk failed: {result.stderr[-500:]}")
    return result.stdout


def load(stack: Stack, workdir: Path, *, connections: int = 16, seconds: int = 60) -> list[Case]:
    """Each endpoint under `connections` clients for `seconds`: any non-200, wrong body or socket error fails."""
    validate = write_script(workdir / "validate.lua", {"ruler": RULER, "main": MAIN}, '"legal":')
    editor = workdir / "editor.lua"
    editor.write_text(GET_SCRIPT.format(expect='id="deck-list"'), encoding="utf-8")
    cases = []
    for label, url, script in (
        ("validate API", f"{stack.base}/api/v1/decks/validate/", validate),
        ("editor", f"{stack.base}/decks/new/?ruler={RULER}", editor),
    ):
        result = parse_wrk(label, _wrk(url, script, connections=connections, seconds=seconds))
        case = Case(f"{connections} clients x {seconds} s: {label}", tried=result.requests)
        case.failures = result.bad_status + result.bad_body + sum(result.socket_errors.values())
        case.note = f"{result.rps:.0f} req/s, p50 {result.p50_ms:.0f} ms, p99 {result.p99_ms:.0f} ms"
        cases.append(case)
    return cases


def schemathesis(stack: Stack, workdir: Path, *, examples: int = 25, timeout: float = 900) -> Case:
    """Schemathesis with all checks against the live API, as the owner (token); failures as it counts them."""
    case = Case("Schemathesis (all checks)", depends_on="item 5")
    report = workdir / "schemathesis"
    argv = [
        str(Path(sys.executable).with_name("st")),
        "run",
        f"{stack.base}/api/v1/schema/",
        "--checks",
        "all",
        "--max-examples",
        str(examples),
        "--generation-deterministic",
        "-H",
        f"Authorization: Token {stack.tokens['rel-owner']}",
        "--report",
        "junit",
        "--report-dir",
        str(report),
        "--request-timeout",
        "30",
        # Revoking the token this run signs in with would turn every later operation into a 401
        # (tests/gatesite/test_api_tokens.py covers revocation).
        "--exclude-path",
        "/api/v1/auth/token/revoke/",
    ]
    # In the run's own folder: Schemathesis keeps its cache (.schemathesis/) in the working directory.
    result = subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=timeout, check=False)
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "reliability-schemathesis.log").write_text(result.stdout + result.stderr, encoding="utf-8")
    junit = next(report.glob("*.xml"), None)
    if junit is None:
        case.fail(f"no report (exit {result.returncode}): {result.stderr[-300:]}")
        return case
    xml = junit.read_text(encoding="utf-8")
    case.tried = len(re.findall(r"<testcase\b", xml))
    case.failures = len(re.findall(r"<failure\b", xml)) + len(re.findall(r"<error\b", xml))
    case.examples = [html.unescape(m)[:160] for m in re.findall(r'<failure[^>]*message="([^"]*)"', xml)[:5]]
    case.note = f"{examples} examples per operation; bench/results/reliability-schemathesis.log"
    return case
