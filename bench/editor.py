"""Deck editor and card search benchmark: editor changes under 16 concurrent editors, card search over
20 000 printings, and the editor's first load, against PostgreSQL and gunicorn (DEBUG off).

Run by hand from the repository root (prerequisites and results in docs/benchmarks.md):

    .venv/bin/python bench/editor.py [--editors 16] [--duration 20] [--workers 2] [--profile] ...

Setup (skipped with --skip-setup): create the database of --database-url (default
gatesite_bench_editor on 127.0.0.1:5432) if missing, migrate it, load the rules, import the practice
set and a bench/gen_cards.py set of --printings (20 000) printings with `manage.py import_cards`
(skipped when the database already holds exactly those), then `VACUUM ANALYZE` the catalog tables
(what autovacuum does shortly after a big import; --no-vacuum to measure without) and
`collectstatic` (WhiteNoise serves the built static files, as in production). Then, in this
process (Django with the production settings): one user per editor (bench-editor-01, …), each
with a fresh saved 50-card Apprentice deck (version 1) made by decks.services.

1. In-process, no HTTP, one request at a time: SQL queries (CaptureQueriesContext) of the
   editor's first load, of one change and of one card-browser search, and the time of a change
   (django.test.Client against the view) and of the search selectors (cards.selectors.card_search,
   and decks.selectors.deck_card_browser = search + hints against the 50-card deck).
   --profile: cProfile of the change and the searches, .prof files in bench/results/.
2. gunicorn serving the app on loopback (--workers, --worker-class, --threads), with an access
   log of the server time of every request (%(D)s: from a worker starting to handle the request to
   its response written, so the time waiting for a free worker is not in it). Each editor logs in
   through /accounts/login/ (its own session and CSRF cookies) and opens its deck.
   a. Editor changes: wrk with one thread and one connection per editor (so each editor has its
      own Lua state: its cookies, its deck, the version it saves on). Every request is one
      change as htmx posts it (the clicked button, the search form, the shown printings, the
      base version; X-CSRFToken and HX-Request headers): add a card from the browser's first
      page, then remove it, and so on, so the deck stays at 50/51 cards. Each response must be
      200 with the deck list, the validation panel, the browser's hints and the new version,
      which the next request is based on (autosave, optimistic locking: a 409 is counted).
   b. Card search: GET /decks/<id>/cards/ (the card browser's htmx endpoint: search plus hints
      against the editor's 50-card deck) for free text and field-syntax queries, at each
      --search-connections level, each editor's session in its own wrk thread.
   c. Editor first load over HTTP: the bytes of the page (GET /decks/<id>/edit/) and of every
      script and stylesheet it links (htmx, editor.js, editor.css), with and without gzip.
3. Prints Markdown tables and writes everything as JSON to bench/results/editor-<UTC time>.json.

Latency is measured twice: by wrk on the client (loopback, so it includes waiting for a free
worker) and from gunicorn's access log (server time). Exit status 1 if a check failed (a response
that was not 200 or lacked what it must hold, a stale save, socket errors); missed targets are
reported but do not fail the run.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import http.client
import io
import json
import os
import pstats
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/editor.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

from bench.common import (  # noqa: E402
    PRACTICE_FILES,
    RESULTS_DIR,
    OtherLoad,
    Server,
    ServerConfig,
    access_log_size,
    ensure_database,
    machine_info,
    machine_note,
    manage,
    percentile,
    postgres_version,
    read_access_log,
    server_env,
    share,
    wait_idle,
    yes,
)
from bench.gen_cards import SET_SUFFIX, GenConfig, write_sets  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench_editor"
RULER = "Apprentice"
RULER_SLUG = "apprentice"
USER_PREFIX = "bench-editor-"
PASSWORD = "bench-editor-password-not-a-secret"

TARGET_CHANGE_P95_MS = 20.0
TARGET_SEARCH_P95_MS = 30.0
TARGET_FIRST_LOAD_QUERIES = 20
TARGET_FIRST_LOAD_BYTES = 150_000  # bytes transferred to a browser (it sends Accept-Encoding: gzip)


@dataclass(frozen=True)
class Search:
    label: str
    kind: str  # "free text", "field syntax" or "browse" (no query: the browser's first page)
    query: str


SEARCHES = (
    Search("EN word in names", "free text", "phoenix"),
    Search("EN word in card text", "free text", "damage"),
    Search("Japanese term", "free text", "ドラゴン"),
    Search("EN two words", "free text", "crimson drake"),
    Search("f:volnar t:unit lv<=2 cnt", "field syntax", "f:volnar t:unit lv<=2 cnt"),
    Search("a:dragon lv>=3 -legend", "field syntax", "a:dragon lv>=3 -legend"),
    Search("t:ev name:blade", "field syntax", "t:ev name:blade"),
    Search("no query (first page)", "browse", ""),
)


# --- setup -------------------------------------------------------------------------------------


def generated_printings(database_url: str) -> int:
    """Printings of bench/gen_cards.py sets already in the database."""
    import psycopg

    with psycopg.connect(_libpq_url(database_url), connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT count(*) FROM cards_printing p JOIN cards_cardset s ON s.id = p.card_set_id WHERE s.name LIKE %s",
            (f"%{SET_SUFFIX}",),
        ).fetchone()
    return int(row[0]) if row else 0


def _libpq_url(database_url: str) -> str:
    return database_url.replace("postgres://", "postgresql://", 1)


def vacuum_analyze(database_url: str) -> float:
    """VACUUM ANALYZE the catalog tables (statistics, visibility map, the GIN index's pending list)."""
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(_libpq_url(database_url), autocommit=True, connect_timeout=5) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'cards\\_%'"
            )
        ]
        for table in tables:
            conn.execute(f'VACUUM ANALYZE "{table}"')
    return time.perf_counter() - started


def prepare_database(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    created = ensure_database(args.database_url)
    name = urllib.parse.urlsplit(args.database_url).path.lstrip("/")
    print(f"  database {name}: {'created' if created else 'exists'}", flush=True)
    manage(env, "migrate", "--noinput")
    manage(env, "load_rules")
    manage(env, "import_cards", *(str(p) for p in PRACTICE_FILES))
    setup: dict[str, Any] = {"database_created": created}
    have = generated_printings(args.database_url)
    if have == args.printings:
        print(f"  {have} generated printings already imported", flush=True)
        setup["generated_import_s"] = None
    else:
        with tempfile.TemporaryDirectory(prefix="gatesite-editor-cards-") as tmp:
            started = time.perf_counter()
            paths = write_sets(GenConfig(printings=args.printings), Path(tmp), "json")
            print(f"  generated {args.printings} printings in {len(paths)} files", flush=True)
            import_started = time.perf_counter()
            manage(env, "import_cards", *(str(p) for p in paths))
            setup["generated_import_s"] = round(time.perf_counter() - import_started, 1)
            setup["generate_s"] = round(import_started - started, 1)
        if generated_printings(args.database_url) != args.printings:
            raise SystemExit(
                f"The database holds {generated_printings(args.database_url)} generated printings, not "
                f"{args.printings}: another --printings was imported before; drop the database or pick another."
            )
    if args.vacuum:
        setup["vacuum_analyze_s"] = round(vacuum_analyze(args.database_url), 1)
        print(f"  VACUUM ANALYZE cards_*: {setup['vacuum_analyze_s']} s", flush=True)
    manage(env, "collectstatic", "--noinput")
    return setup


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


@dataclass
class Editor:
    username: str
    public_id: str
    deck_cards: int
    # Filled in over HTTP.
    cookies: dict[str, str] = field(default_factory=dict)
    csrf_token: str = ""
    version: int = 1
    shown: list[str] = field(default_factory=list)
    number: str = ""  # the printing this editor adds and removes

    @property
    def edit_path(self) -> str:
        return f"/decks/{self.public_id}/edit/"

    @property
    def change_path(self) -> str:
        return f"/decks/{self.public_id}/change/"

    @property
    def cards_path(self) -> str:
        return f"/decks/{self.public_id}/cards/"

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in sorted(self.cookies.items()))


def legal_main() -> dict[str, int]:
    """A legal 50-card Apprentice deck from the practice set, by collector number."""
    from bench.validate import legal_deck, load_rules_data, ruler_object
    from decks.rules.practice import card_facts
    from decks.rules.ruleset import rules_in_force

    deck = legal_deck(card_facts(), rules_in_force(ruler_object(load_rules_data(), RULER)))
    main: dict[str, int] = {}
    for entry in deck.main:
        number = entry.printing or entry.card.collector_numbers[0]
        main[number] = main.get(number, 0) + entry.count
    if sum(main.values()) != 50:
        raise SystemExit(f"The {RULER} deck has {sum(main.values())} cards, not 50.")
    return main


def editors_prepare(count: int) -> list[Editor]:
    """One user per editor with one fresh saved 50-card deck (its other decks deleted)."""
    from django.contrib.auth import get_user_model

    from decks.models import Deck, DeckDraft
    from decks.services import deck_create_from_draft

    main = legal_main()
    users = get_user_model().objects
    editors = []
    for i in range(1, count + 1):
        username = f"{USER_PREFIX}{i:02d}"
        user = users.filter(username=username).first()
        if user is None:
            user = users.create_user(username, f"{username}@example.invalid", PASSWORD)
        Deck.objects.filter(owner=user).delete()
        deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler=RULER_SLUG, main=main), name=f"Bench {i:02d}")
        if not deck.legal:
            raise SystemExit(f"{username}'s deck is not legal.")
        editors.append(Editor(username, deck.public_id, sum(main.values())))
    return editors


# --- 1. in-process ---------------------------------------------------------------------------


class Samples(list[int]):
    """Wall times (ns) of calls, with the CPU times (ns) of this process for the same calls in `cpu`."""

    def __init__(self) -> None:
        super().__init__()
        self.cpu: list[int] = []


def _ms_stats(samples_ns: Sequence[int]) -> dict[str, float]:
    ms = [s / 1e6 for s in samples_ns]
    stats = {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50) or 0, 3),
        "p95_ms": round(percentile(ms, 95) or 0, 3),
        "mean_ms": round(statistics.fmean(ms), 3),
    }
    cpu = getattr(samples_ns, "cpu", None)
    if cpu:
        # The CPU time of this process (the database server's is not in it): steady on a busy machine.
        stats["cpu_p50_ms"] = round(percentile([c / 1e6 for c in cpu], 50) or 0, 3)
        stats["cpu_mean_ms"] = round(statistics.fmean(cpu) / 1e6, 3)
    return stats


def _timed(fn: Callable[[], object], n: int, warmup: int = 3) -> Samples:
    for _ in range(warmup):
        fn()
    samples = Samples()
    for _ in range(n):
        started, cpu = time.perf_counter_ns(), time.process_time_ns()
        fn()
        samples.cpu.append(time.process_time_ns() - cpu)
        samples.append(time.perf_counter_ns() - started)
    return samples


def _queries(fn: Callable[[], object]) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fn()
    return [q["sql"] for q in captured.captured_queries]


def in_process(args: argparse.Namespace, editors: list[Editor], stamp: str) -> dict[str, Any]:
    """Query counts and single-request times without HTTP (Django's test client, the selectors)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from cards.selectors import card_search
    from decks.editor.browser import deck_card_browser
    from decks.editor.state import deck_editor_state
    from decks.models import Deck
    from decks.saved_drafts import deck_draft_of

    editor = editors[0]
    user = get_user_model().objects.get(username=editor.username)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    hx = {"HX-Request": "true"}

    def first_load() -> None:
        response = client.get(editor.edit_path)
        assert response.status_code == 200, response.status_code

    first_load_queries = _queries(first_load)
    page = client.get(editor.edit_path).content.decode()
    shown = _shown(page)
    number = shown[0]
    state = {"version": Deck.objects.get(public_id=editor.public_id).version, "add": True}

    def change() -> None:
        op = f"{'add' if state['add'] else 'remove'} main {number}"
        data = {"op": op, "base_version": state["version"], "browse": "", "offset": 0, "shown": " ".join(shown)}
        response = client.post(editor.change_path, data, headers=hx)
        assert response.status_code == 200, (response.status_code, response.content[:500])
        state["version"] += 1
        state["add"] = not state["add"]

    change_queries = _queries(change)
    if not state["add"]:
        change()  # back to 50 cards
    samples = _timed(change, args.inprocess_n)
    if not state["add"]:
        change()

    def browse() -> None:
        response = client.get(editor.cards_path, {"q": "f:volnar t:unit lv<=2 cnt"}, headers=hx)
        assert response.status_code == 200, response.status_code

    browse_queries = _queries(browse)

    deck = Deck.objects.select_related("ruler", "geas").get(public_id=editor.public_id)
    editor_state = deck_editor_state(draft=deck_draft_of(deck=deck))
    searches = []
    for search in SEARCHES:
        result = card_search(query=search.query)
        if result.error:
            raise SystemExit(f"The search {search.query!r} failed: {result.error}")
        selector = _timed(lambda s=search: card_search(query=s.query), args.inprocess_n)
        browser = _timed(lambda s=search: deck_card_browser(state=editor_state, query=s.query), args.inprocess_n)
        # The whole htmx request of the card browser (session, deck, judgement, search, hints, HTML).
        endpoint = _timed(
            lambda s=search: client.get(editor.cards_path, {"q": s.query}, headers=hx), max(10, args.inprocess_n // 2)
        )
        queries = len(_queries(lambda s=search: card_search(query=s.query)))
        searches.append(
            {
                **asdict(search),
                "total": result.total,
                "shown": len(result.cards),
                "queries": queries,
                "card_search": _ms_stats(selector),
                "deck_card_browser": _ms_stats(browser),
                "endpoint": _ms_stats(endpoint),
            }
        )
        print(
            f"  in-process search {search.label!r}: {result.total} cards; card_search p50 "
            f"{searches[-1]['card_search']['p50_ms']:.1f} ms (CPU {searches[-1]['card_search']['cpu_p50_ms']:.1f}), "
            f"with hints p50 {searches[-1]['deck_card_browser']['p50_ms']:.1f} ms "
            f"(CPU {searches[-1]['deck_card_browser']['cpu_p50_ms']:.1f}); the request p50 "
            f"{searches[-1]['endpoint']['p50_ms']:.1f} ms (CPU {searches[-1]['endpoint']['cpu_p50_ms']:.1f})",
            flush=True,
        )

    profiles = {}
    if args.profile:
        profiles["change"] = _profile(change, args.inprocess_n, RESULTS_DIR / f"editor-{stamp}-change.prof")
        if not state["add"]:
            change()
        for search in SEARCHES:
            key = f"search {search.label}"
            profiles[key] = _profile(
                lambda s=search: deck_card_browser(state=editor_state, query=s.query),
                args.inprocess_n,
                RESULTS_DIR / f"editor-{stamp}-search-{_slug(search.label)}.prof",
            )

    result = {
        "first_load_queries": len(first_load_queries),
        "first_load_sql": first_load_queries,
        "change_queries": len(change_queries),
        "change_sql": change_queries,
        "browse_queries": len(browse_queries),
        "change": _ms_stats(samples),
        "searches": searches,
        "profiles": profiles,
    }
    print(
        f"  in-process: first load {len(first_load_queries)} queries; a change {len(change_queries)} queries, "
        f"p50 {result['change']['p50_ms']:.1f} ms (CPU {result['change']['cpu_p50_ms']:.1f} ms); "
        f"a search {len(browse_queries)} queries",
        flush=True,
    )
    return result


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def _profile(fn: Callable[[], object], n: int, path: Path) -> str:
    profiler = cProfile.Profile()
    fn()
    profiler.enable()
    for _ in range(n):
        fn()
    profiler.disable()
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    profiler.dump_stats(path)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    print(f"  profile: {path.relative_to(REPO)}", flush=True)
    return out.getvalue()


_SHOWN_RE = re.compile(r'id="browse-shown" name="shown" value="([^"]*)"')


def _shown(html: str) -> list[str]:
    match = _SHOWN_RE.search(html)
    if match is None or not match.group(1).split():
        raise SystemExit("The editor page shows no search results (no browse-shown numbers).")
    return match.group(1).split()


# --- 2. HTTP -----------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


def fetch(base: str, method: str, path: str, editor: Editor | None = None, **kw: Any) -> Response:
    """One request with http.client (the cookies are Secure, which http.cookiejar never sends over http)."""
    url = urllib.parse.urlsplit(base)
    headers = dict(kw.get("headers") or {})
    if editor is not None and editor.cookies:
        headers["Cookie"] = editor.cookie_header
    body = kw.get("body")
    if isinstance(body, dict):
        body = urllib.parse.urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        result = Response(response.status, response.getheaders(), response.read())
    finally:
        conn.close()
    if editor is not None:
        for name, value in result.headers:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                editor.cookies[key.strip()] = rest.split(";", 1)[0]
    return result


_CSRF_INPUT_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_VERSION_RE = re.compile(r'id="deck-version" value="(\d+)"')


def login(base: str, editor: Editor) -> None:
    """Log in through the login form, then open the deck: the session, CSRF token, version and shown cards."""
    page = fetch(base, "GET", "/accounts/login/", editor)
    token = _CSRF_INPUT_RE.search(page.text)
    if page.status != 200 or token is None:
        raise SystemExit(f"GET /accounts/login/: {page.status}")
    answer = fetch(
        base,
        "POST",
        "/accounts/login/",
        editor,
        body={"username": editor.username, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1), "next": ""},
    )
    if answer.status != 302 or "sessionid" not in editor.cookies:
        raise SystemExit(f"Logging in {editor.username} failed: {answer.status} {answer.text[:300]}")
    page = fetch(base, "GET", editor.edit_path, editor)
    if page.status != 200:
        raise SystemExit(f"GET {editor.edit_path}: {page.status}")
    html = page.text
    token = re.search(r'"x-csrftoken": "([^"]+)"', html)
    version = _VERSION_RE.search(html)
    if token is None or version is None:
        raise SystemExit(f"{editor.edit_path} has no CSRF token or no deck version.")
    editor.csrf_token = token.group(1)
    editor.version = int(version.group(1))
    editor.shown = _shown(html)


def deck_states(editors: list[Editor]) -> dict[str, tuple[int, int]]:
    """(version, main-deck size) of each editor's deck, from the database."""
    from django.db import connection
    from django.db.models import Q, Sum

    from decks.models import Deck

    rows = Deck.objects.filter(public_id__in=[e.public_id for e in editors]).annotate(
        size=Sum("cards__count", filter=Q(cards__section="main"), default=0)
    )
    states = {d.public_id: (d.version, d.size) for d in rows}
    connection.close()
    return states


# wrk: one thread per editor, one connection per thread, so each Lua state is one editor's.
_LUA_COMMON = """\
local threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("idx", counter)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local s, b, st = 0, 0, 0
  for _, t in ipairs(threads) do
    s = s + t:get("bad_status")
    b = b + t:get("bad_body")
    st = st + t:get("stale")
  end
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%.0f p50=%.0f p95=%.0f p99=%.0f max=%.0f bad_status=%d bad_body=%d stale=%d"
    .. " socket_errors=%d non_2xx=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    latency.max, s, b, st, e.connect + e.read + e.write + e.timeout, e.status))
end
"""

_LUA_CHANGE = """\
-- {editors} editors: cookie, csrf token, change path, printing, shown printings, version, add first?
local editors = {{
{rows}
}}
local filters = "&q=&faction=&type=&level_min=&level_max=&attribute=&cnt=&legend=&set=&offset=0&browse="
local think_ms = {think_ms}

function init(args)
  local e = editors[idx]
  me = e
  version = e[6]
  adding = e[7]
  math.randomseed(idx)
  bad_status, bad_body, stale = 0, 0, 0
  headers = {{
    ["Cookie"] = e[1],
    ["X-CSRFToken"] = e[2],
    ["HX-Request"] = "true",
    ["HX-Target"] = "deck-list",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }}
end

-- An editor thinks between two changes: think_ms on average (half to one and a half of it).
function delay()
  if think_ms == 0 then return 0 end
  return think_ms * (0.5 + math.random())
end

function request()
  local action = adding and "add" or "remove"
  local body = "csrfmiddlewaretoken=" .. me[2] .. "&op=" .. action .. "+main+" .. me[4]
    .. "&base_version=" .. version .. filters .. "&shown=" .. me[5]
  return wrk.format("POST", me[3] .. "?bench=" .. action, headers, body)
end

function response(status, hdrs, body)
  if status ~= 200 then
    bad_status = bad_status + 1
    if status == 409 then stale = stale + 1 end
    return
  end
  local v = string.match(body, 'id="deck%-version" value="(%d+)"')
  if v == nil or not string.find(body, 'id="validation-panel"', 1, true)
     or not string.find(body, 'id="why-', 1, true) or not string.find(body, 'id="deck-list"', 1, true) then
    bad_body = bad_body + 1
    return
  end
  version = tonumber(v)
  adding = not adding
end
"""

_LUA_SEARCH = """\
local editors = {{
{rows}
}}

function init(args)
  local e = editors[(idx - 1) % #editors + 1]
  path = e[2]
  bad_status, bad_body, stale = 0, 0, 0
  headers = {{["Cookie"] = e[1], ["HX-Request"] = "true", ["HX-Target"] = "card-results"}}
end

function request()
  return wrk.format("GET", path, headers)
end

function response(status, hdrs, body)
  if status ~= 200 then
    bad_status = bad_status + 1
  elseif not string.find(body, 'data-testid="result-count"', 1, true)
      or string.find(body, 'data-testid="search-error"', 1, true) then
    bad_body = bad_body + 1
  end
end
"""


def _lua_str(value: str) -> str:
    if "]==]" in value or "\n" in value:
        raise SystemExit(f"Cannot quote {value!r} for Lua.")
    return f"[==[{value}]==]"


def change_script(editors: list[Editor], states: dict[str, tuple[int, int]], think_ms: float = 0) -> str:
    rows = []
    for e in editors:
        version, size = states[e.public_id]
        adding = size <= e.deck_cards  # 50 cards: add; 51 (the last run ended after an add): remove
        shown = urllib.parse.quote_plus(" ".join(e.shown))
        fields = [e.cookie_header, e.csrf_token, e.change_path, e.number, shown]
        rows.append("  {" + ", ".join(_lua_str(f) for f in fields) + f", {version}, {'true' if adding else 'false'}}},")
    return _LUA_CHANGE.format(editors=len(editors), rows="\n".join(rows), think_ms=round(think_ms)) + _LUA_COMMON


def search_script(editors: list[Editor], search: Search) -> str:
    query = urllib.parse.urlencode({"q": search.query, "bench": _slug(search.label)})
    rows = [f"  {{{_lua_str(e.cookie_header)}, {_lua_str(e.cards_path + '?' + query)}}}," for e in editors]
    return _LUA_SEARCH.format(rows="\n".join(rows)) + _LUA_COMMON


@dataclass
class WrkResult:
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    bad_status: int
    bad_body: int
    stale: int
    socket_errors: int
    non_2xx: int
    server: dict[str, Any] = field(default_factory=dict)
    other_cpu: float | None = None

    @property
    def clean(self) -> bool:
        return not (self.bad_status or self.bad_body or self.stale or self.socket_errors or self.non_2xx)


def wait_server_quiet(access_log: Path | None, quiet: float = 0.5, timeout: float = 60.0) -> None:
    """Wait until the access log has not grown for `quiet` seconds: the server has answered everything."""
    deadline = time.monotonic() + timeout
    size = access_log_size(access_log)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = access_log_size(access_log)
        if now == size:
            return
        size = now


def run_wrk(
    args: argparse.Namespace, url: str, script: Path, connections: int, seconds: float, access_log: Path | None
) -> WrkResult:
    argv = [
        args.wrk,
        f"-t{connections}",
        f"-c{connections}",
        f"-d{max(round(seconds), 1)}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        url,
    ]
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    # wrk stops with requests still queued for a worker: let the server finish them, so the next
    # run starts from the versions they leave (and does not share the CPUs with them).
    wait_server_quiet(access_log)
    match = re.search(r"BENCH_RESULT (.*)", result.stdout)
    if result.returncode != 0 or match is None:
        raise SystemExit(f"wrk failed ({' '.join(argv)}):\n{result.stdout}\n{result.stderr}")
    values = {k: float(v) for k, v in (kv.split("=") for kv in match.group(1).split())}
    seconds = values["duration_us"] / 1e6
    return WrkResult(
        requests=int(values["requests"]),
        seconds=seconds,
        rps=values["requests"] / seconds if seconds else 0.0,
        p50_ms=values["p50"] / 1e3,
        p95_ms=values["p95"] / 1e3,
        p99_ms=values["p99"] / 1e3,
        max_ms=values["max"] / 1e3,
        bad_status=int(values["bad_status"]),
        bad_body=int(values["bad_body"]),
        stale=int(values["stale"]),
        socket_errors=int(values["socket_errors"]),
        non_2xx=int(values["non_2xx"]),
    )


def server_times(server: Server, since: int, path_part: str) -> dict[str, Any]:
    """Server time (gunicorn's %(D)s) percentiles of the requests logged since an offset, per query tag."""
    assert server.access_log is not None
    lines = [ln for ln in read_access_log(server.access_log, since) if path_part in ln.path]

    def stats(selected: list[Any]) -> dict[str, Any]:
        ms = [ln.server_us / 1e3 for ln in selected]
        return {
            "requests": len(ms),
            "p50_ms": percentile(ms, 50),
            "p95_ms": percentile(ms, 95),
            "p99_ms": percentile(ms, 99),
            "mean_bytes": round(statistics.fmean(ln.bytes for ln in selected)) if selected else None,
        }

    out = {"all": stats(lines)}
    for tag in sorted({ln.query for ln in lines}):
        out[tag] = stats([ln for ln in lines if ln.query == tag])
    return out


def measured(
    args: argparse.Namespace,
    server: Server,
    marker: str,
    what: str,
    run: Callable[[float], WrkResult],
    path_part: str,
) -> WrkResult:
    """A warm-up run, then the measured run (again if other work used more than --max-other of the CPUs)."""
    if args.warmup > 0:
        run(args.warmup)
    for attempt in range(args.retries + 1):
        since = access_log_size(server.access_log)
        with OtherLoad([server.pid], marker) as load:
            result = run(args.duration if what.startswith("changes") else args.search_duration)
        result.server = server_times(server, since, path_part)
        result.other_cpu = load.share
        if load.share is None or load.share <= args.max_other or attempt == args.retries:
            return result
        print(f"    {what}: other processes used {load.share:.0%} of the CPUs; again", flush=True)
        wait_idle(args, f"{what} again")
        if args.warmup > 0:
            run(args.warmup)
    raise AssertionError("unreachable")


def bench_changes(
    args: argparse.Namespace, server: Server, editors: list[Editor], workdir: Path, think_ms: float
) -> dict[str, Any]:
    """The editors' changes, each editor waiting think_ms (on average) between two (0: none, saturating)."""
    marker = f" {urllib.parse.urlsplit(args.database_url).path.lstrip('/')} "
    script = workdir / "change.lua"
    mode = f"paced, {think_ms:g} ms think time" if think_ms else "saturated, no think time"

    def run(seconds: float) -> WrkResult:
        # The versions and sizes where the last run (cut off mid-request by wrk) left each deck.
        script.write_text(change_script(editors, deck_states(editors), think_ms), encoding="utf-8")
        return run_wrk(args, server.base + "/", script, len(editors), seconds, server.access_log)

    result = measured(args, server, marker, f"changes ({mode})", run, "/change/")
    states = deck_states(editors)
    print(
        f"  changes ({mode}): {result.rps:.0f} req/s, client p50 {result.p50_ms:.1f} / p95 {result.p95_ms:.1f} / p99 "
        f"{result.p99_ms:.1f} ms; server p50 {_f(result.server['all']['p50_ms'])} / p95 "
        f"{_f(result.server['all']['p95_ms'])} ms; other processes {share(result.other_cpu)} of the CPUs"
        f"{'' if result.clean else ' (ERRORS)'}",
        flush=True,
    )
    return asdict(result) | {
        "mode": mode,
        "think_ms": think_ms,
        "clean": result.clean,
        "editors": len(editors),
        "deck_sizes_after": sorted({size for _, size in states.values()}),
        "versions_after": sorted(v for v, _ in states.values()),
    }


def bench_searches(args: argparse.Namespace, server: Server, editors: list[Editor], workdir: Path) -> list[dict]:
    marker = f" {urllib.parse.urlsplit(args.database_url).path.lstrip('/')} "
    rows = []
    for search in SEARCHES:
        script = workdir / f"search-{_slug(search.label)}.lua"
        script.write_text(search_script(editors, search), encoding="utf-8")
        for connections in args.search_connections:

            def run(seconds: float, script: Path = script, connections: int = connections) -> WrkResult:
                return run_wrk(args, server.base + "/", script, connections, seconds, server.access_log)

            result = measured(args, server, marker, f"search {search.label}", run, "/cards/")
            print(
                f"  search {search.label!r} x{connections}: {result.rps:.0f} req/s, client p50 {result.p50_ms:.1f} / "
                f"p95 {result.p95_ms:.1f} ms; server p50 {_f(result.server['all']['p50_ms'])} / p95 "
                f"{_f(result.server['all']['p95_ms'])} ms; other {share(result.other_cpu)}"
                f"{'' if result.clean else ' (ERRORS)'}",
                flush=True,
            )
            rows.append({**asdict(search), "connections": connections, **asdict(result), "clean": result.clean})
    return rows


def bench_first_load(server: Server, editor: Editor) -> dict[str, Any]:
    """The page and every script and stylesheet it links, as fetched without and with gzip."""
    page = fetch(server.base, "GET", editor.edit_path, editor)
    if page.status != 200:
        raise SystemExit(f"GET {editor.edit_path}: {page.status}")
    html = page.text
    assets = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)
    for tag in re.findall(r"<link\b[^>]*>", html):
        href = re.search(r'href="([^"]+)"', tag)
        if 'rel="stylesheet"' in tag and href:
            assets.append(href.group(1))
    gz_page = fetch(server.base, "GET", editor.edit_path, editor, headers={"Accept-Encoding": "gzip"})
    items = [
        {
            "url": editor.edit_path,
            "bytes": len(page.body),
            "gzip_bytes_served": len(gz_page.body),
            "served_encoding": gz_page.header("Content-Encoding") or "identity",
            "gzip_bytes_possible": len(gzip.compress(page.body, 6)),
        }
    ]
    for url in assets:
        plain = fetch(server.base, "GET", url)
        packed = fetch(server.base, "GET", url, headers={"Accept-Encoding": "gzip"})
        if plain.status != 200 or packed.status != 200:
            raise SystemExit(f"GET {url}: {plain.status}/{packed.status} (collectstatic run?)")
        items.append(
            {
                "url": url,
                "bytes": len(plain.body),
                "gzip_bytes_served": len(packed.body),
                "served_encoding": packed.header("Content-Encoding") or "identity",
                "gzip_bytes_possible": len(gzip.compress(plain.body, 6)),
            }
        )
    totals = {key: sum(item[key] for item in items) for key in ("bytes", "gzip_bytes_served", "gzip_bytes_possible")}
    return {"items": items, **totals, "images": len(re.findall(r"<img\b", html))}


# --- report --------------------------------------------------------------------------------------


def _f(value: float | None, digits: int = 1) -> str:
    return "?" if value is None else f"{value:.{digits}f}"


def targets(results: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    http_part = results.get("http")
    if http_part:
        # Judged on the first run (paced editors by default); every run is in the table.
        judged = http_part["changes"][0]
        p95 = judged["server"]["all"]["p95_ms"]
        out["change_server_p95"] = {
            "max_ms": TARGET_CHANGE_P95_MS,
            "value": p95,
            "met": p95 <= TARGET_CHANGE_P95_MS,
            "run": judged["mode"],
        }
        # Judged at the first --search-connections level (1 by default: one player searching).
        level = http_part["searches"][0]["connections"]
        for kind in ("free text", "field syntax"):
            rows = [r for r in http_part["searches"] if r["kind"] == kind and r["connections"] == level]
            worst = max(r["server"]["all"]["p95_ms"] for r in rows)
            out[f"search_{kind.replace(' ', '_')}_server_p95"] = {
                "max_ms": TARGET_SEARCH_P95_MS,
                "value": worst,
                "met": worst <= TARGET_SEARCH_P95_MS,
                "connections": level,
            }
        load = http_part["first_load"]
        out["first_load_bytes"] = {
            "max": TARGET_FIRST_LOAD_BYTES,
            "value": load["gzip_bytes_served"],
            "uncompressed": load["bytes"],
            "met": load["gzip_bytes_served"] <= TARGET_FIRST_LOAD_BYTES,
        }
    inproc = results.get("in_process")
    if inproc:
        q = inproc["first_load_queries"]
        out["first_load_queries"] = {
            "max": TARGET_FIRST_LOAD_QUERIES,
            "value": q,
            "met": q <= TARGET_FIRST_LOAD_QUERIES,
        }
    return out


def markdown(results: dict[str, Any]) -> str:
    out: list[str] = []
    setup = results.get("setup") or {}
    inproc = results.get("in_process")
    http_part = results.get("http")
    t = results["targets"]
    if http_part:
        runs = http_part["changes"]
        out += [
            f"Editor changes: {runs[0]['editors']} editors, one wrk thread and connection each, "
            f"{http_part['duration_s']:g} s per run after {http_part['warmup_s']:g} s warm-up, gunicorn "
            f"{http_part['server']}; each request adds a card to a saved 50-card deck or removes it again "
            "(autosave on the version the last response gave); paced: each editor waits 0.5-1.5x the think time "
            "between two changes; saturated: none. Server = gunicorn's request time; client = wrk on loopback "
            "(includes waiting for a free worker):",
            "",
            "| run | requests | req/s | server p50 ms | server p95 ms | server p99 ms | client p50 ms | client p95 ms "
            "| client p99 ms | all checks | other CPU |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
        ]
        for c in runs:
            s = c["server"]["all"]
            out.append(
                f"| {c['mode']} | {c['requests']} | {c['rps']:.0f} | {_f(s['p50_ms'])} | **{_f(s['p95_ms'])}** "
                f"| {_f(s['p99_ms'])} | {c['p50_ms']:.1f} | {c['p95_ms']:.1f} | {c['p99_ms']:.1f} "
                f"| {yes(c['clean'])} | {share(c['other_cpu'])} |"
            )
        out.append("")
        out += [
            f"Card search over {setup.get('printings', '?')} generated printings + the practice set "
            f"(GET /decks/<id>/cards/: search + hints against the 50-card deck; wrk {http_part['search_duration_s']:g} s "
            "per row after warm-up; in-process: one call at a time, no HTTP):",
            "",
            "| query | kind | cards | conns | req/s | server p50 ms | server p95 ms | client p50 ms | client p95 ms "
            "| card_search p50/p95 ms | + hints p50/p95 ms | checks |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        by_label = {r["label"]: r for r in (inproc or {}).get("searches", [])}
        for r in http_part["searches"]:
            ip = by_label.get(r["label"])
            sel = f"{ip['card_search']['p50_ms']:.1f} / {ip['card_search']['p95_ms']:.1f}" if ip else ""
            hints = f"{ip['deck_card_browser']['p50_ms']:.1f} / {ip['deck_card_browser']['p95_ms']:.1f}" if ip else ""
            out.append(
                f"| `{r['query'] or '(empty)'}` | {r['kind']} | {ip['total'] if ip else '?'} | {r['connections']} "
                f"| {r['rps']:.0f} | {_f(r['server']['all']['p50_ms'])} | **{_f(r['server']['all']['p95_ms'])}** "
                f"| {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {sel} | {hints} | {yes(r['clean'])} |"
            )
        load = http_part["first_load"]
        out += [
            "",
            "Editor first load (saved 50-card deck, logged in; bodies only, no card images on the page: "
            f"{load['images']} `<img>`):",
            "",
            "| resource | bytes | as served with Accept-Encoding: gzip | gzip -6 |",
            "| --- | ---: | ---: | ---: |",
        ]
        for item in load["items"]:
            out.append(
                f"| `{item['url']}` | {item['bytes']:,} | {item['gzip_bytes_served']:,} ({item['served_encoding']}) "
                f"| {item['gzip_bytes_possible']:,} |"
            )
        out += [
            f"| **total** | **{load['bytes']:,}** | **{load['gzip_bytes_served']:,}** | {load['gzip_bytes_possible']:,} |",
            "",
        ]
    if inproc:
        out += [
            f"In-process (Django test client, one request at a time): first load "
            f"**{inproc['first_load_queries']} SQL queries**; one change {inproc['change_queries']} queries, "
            f"p50 {inproc['change']['p50_ms']:.1f} ms / p95 {inproc['change']['p95_ms']:.1f} ms; "
            f"one card-browser search {inproc['browse_queries']} queries.",
            "",
        ]
    labels = {
        "change_server_p95": "change: server p95 ≤ 20 ms",
        "search_free_text_server_p95": "search, free text: worst server p95 ≤ 30 ms",
        "search_field_syntax_server_p95": "search, field syntax: worst server p95 ≤ 30 ms",
        "first_load_queries": "first load ≤ 20 queries",
        "first_load_bytes": "first load ≤ 150 KB transferred",
    }
    if "change_server_p95" in t:
        labels["change_server_p95"] = f"change ({t['change_server_p95']['run']}): server p95 ≤ 20 ms"
    for key in ("search_free_text_server_p95", "search_field_syntax_server_p95"):
        if key in t:
            labels[key] += f" at {t[key]['connections']} connection(s)"
    met = [
        f"{labels[k]}: {yes(v['met'])} ({_f(v['value']) + ' ms' if 'p95' in k else format(v['value'], ',')})"
        for k, v in t.items()
    ]
    out += ["Targets: " + "; ".join(met) + ".", ""]
    if http_part:
        out.append(machine_note(http_part["machine_state"]))
    return "\n".join(out)


# --- main ----------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument(
        "--skip-setup", action="store_true", help="do not create/migrate/import (decks are still reset)"
    )
    parser.add_argument("--printings", type=int, default=20_000, help="generated printings to import (20000)")
    parser.add_argument(
        "--no-vacuum", dest="vacuum", action="store_false", help="skip VACUUM ANALYZE of cards_* after the setup"
    )
    parser.add_argument("--editors", type=int, default=16, help="concurrent editors, each a wrk thread (16)")
    parser.add_argument("--duration", type=float, default=30, help="seconds of each measured change run (30)")
    parser.add_argument(
        "--think-ms",
        default="1000,0",
        help="average think time of an editor between two changes, ms, comma-separated: one change run each; "
        "0 = none, the editors saturate the server (1000,0)",
    )
    parser.add_argument("--search-duration", type=float, default=6, help="seconds of each measured search run (6)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of warm-up before each run (3)")
    parser.add_argument(
        "--search-connections",
        default="1,16",
        help="concurrent searchers, comma-separated: each query is run at each level (1,16)",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument("--worker-class", default="sync", choices=("sync", "gthread"), help="gunicorn worker class")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker for gthread (1)")
    parser.add_argument("--inprocess-n", type=int, default=40, help="timed calls per in-process measurement (40)")
    parser.add_argument("--profile", action="store_true", help="cProfile the in-process change and searches")
    parser.add_argument("--in-process-only", action="store_true", help="no gunicorn, no wrk")
    parser.add_argument("--wrk", default="wrk", help="the wrk binary (wrk)")
    parser.add_argument("--wait-idle", type=float, default=120, help="seconds to wait for other work to stop (120)")
    parser.add_argument("--idle-below", type=float, default=0.15, help="CPU share counted as idle (0.15)")
    parser.add_argument(
        "--max-other", type=float, default=0.10, help="CPU share other processes may use during a run (0.10)"
    )
    parser.add_argument("--retries", type=int, default=4, help="retries of contended runs (4)")
    args = parser.parse_args(argv)
    try:
        args.search_connections = [int(c) for c in args.search_connections.split(",") if c.strip()]
        args.think_ms = [float(t) for t in args.think_ms.split(",") if t.strip()]
    except ValueError:
        parser.error("--search-connections and --think-ms take comma-separated numbers")
    if not args.think_ms or min(args.think_ms) < 0:
        parser.error("--think-ms takes one or more numbers, 0 or more")
    if args.editors < 1 or args.workers < 1 or not args.search_connections or min(args.search_connections) < 1:
        parser.error("--editors, --workers and --search-connections must be positive")
    return args


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # unwinds the with blocks, so gunicorn is stopped too


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    started = datetime.now(UTC)
    stamp = started.strftime("%Y%m%dT%H%M%SZ")
    results: dict[str, Any] = {
        "benchmark": "editor",
        "started_utc": started.isoformat(timespec="seconds"),
        "command": " ".join([".venv/bin/python", "bench/editor.py", *(argv if argv is not None else sys.argv[1:])]),
        "machine": machine_info(),
    }
    if not args.in_process_only and shutil.which(args.wrk) is None:
        raise SystemExit(f"{args.wrk} not found: install it (apt-get install wrk) or pass --wrk PATH.")
    env = server_env(args.database_url)
    print("Setup…", flush=True)
    setup: dict[str, Any] = {"printings": args.printings, "vacuum_analyze": args.vacuum}
    if args.skip_setup:
        print("  database setup skipped (--skip-setup)")
    else:
        setup |= prepare_database(args, env)
    results["setup"] = setup
    results["machine"]["postgres"] = postgres_version(args.database_url)
    django_setup(env)
    editors = editors_prepare(args.editors)
    print(f"  {len(editors)} editors, each with a saved {editors[0].deck_cards}-card {RULER} deck", flush=True)

    print("In-process…", flush=True)
    results["in_process"] = in_process(args, editors, stamp)
    from django.db import connections

    connections.close_all()

    if not args.in_process_only:
        print("HTTP…", flush=True)
        config = ServerConfig(args.workers, args.worker_class, args.threads)
        with tempfile.TemporaryDirectory(prefix="gatesite-bench-editor-") as tmp:
            workdir = Path(tmp)
            with Server(config, env, workdir, access_log=True) as server:
                print(f"  gunicorn {config.label} on port {server.port}", flush=True)
                for i, editor in enumerate(editors):
                    login(server.base, editor)
                    editor.number = editor.shown[i % len(editor.shown)]
                print(f"  {len(editors)} editors logged in; each adds and removes one printing", flush=True)
                first_load = bench_first_load(server, editors[0])
                machine = wait_idle(args, "the HTTP runs")
                changes = [bench_changes(args, server, editors, workdir, think) for think in args.think_ms]
                searches = bench_searches(args, server, editors, workdir)
                log_tail = server.log_tail()
        results["http"] = {
            "server": config.label,
            "gunicorn": asdict(config),
            "duration_s": args.duration,
            "search_duration_s": args.search_duration,
            "warmup_s": args.warmup,
            "machine_state": machine,
            "changes": changes,
            "searches": searches,
            "first_load": first_load,
            "gunicorn_log_tail": log_tail,
        }
    results["targets"] = targets(results)
    table = markdown(results)
    results["markdown"] = table
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"editor-{stamp}.json"
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print()
    print(table)
    print(f"Results: {path.relative_to(REPO)}")
    http_part = results.get("http")
    failed = bool(http_part) and not (
        all(c["clean"] for c in http_part["changes"]) and all(r["clean"] for r in http_part["searches"])
    )
    if failed:
        print(
            "Some responses failed their checks (not 200, missing parts, stale saves or socket errors): see the JSON."
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
