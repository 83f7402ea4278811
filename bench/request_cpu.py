"""CPU time per request, in-process: a steady figure on a busy machine, to compare code before and after.

Run from the repository root:

    .venv/bin/python bench/request_cpu.py [--database-url ...] [--skip-setup] [-n 300] [--runs 5] [--cache-url ...]
        [--only ping,validate]

Django's test client (production settings: DEBUG off) sends, one at a time, in this process:

- POST /api/v1/ping/, the framework's floor;
- POST /api/v1/decks/validate/ (the body bench/validate.py sends: a legal 50-card Apprentice deck);
- one editor click on a saved 50-card deck (htmx POST .../change/, adding then removing one copy
  of the first card shown, with the card browser's 30 shown printings: the deck, the panels, the
  hints and the draw odds, all in the one answer; code that answers with HX-Trigger deckChanged,
  before issue 15, has the click's second request, GET .../odds/, counted in too);
- the same click where every click makes a deck never seen before ("every deck new"): one copy
  each of printings new to the deck is added, and the oldest of them taken out, in turn (deck +a,
  +a+b, +b, +b+c, +c, …), so no answer can come from what an earlier click drew or judged: a
  player building a deck, rather than the first click's add-and-undo;
- the card browser's htmx search (GET .../cards/?q=…) for each of bench/editor.py's SEARCHES
  over bench/editor.py's 20 000 generated printings; the worst is reported;
- GET /api/v1/rulers/apprentice/ (the catalog API).

against the PostgreSQL database of bench/editor.py (created, migrated and loaded unless
--skip-setup). Each row is the CPU time of this process (time.process_time) per request, best
and median of `--runs` runs of `-n` requests (searches: n // 5), after a warm-up, and its ratio
to ping's (best to best). The database server's CPU is not in it; wall time is shown beside it.
Throughput under load is bench/validate.py's; the browser's click time bench/browser_clicks.py's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.common import server_env  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench_editor"
_SHOWN_RE = re.compile(r'id="browse-shown" name="shown" value="([^"]*)"')
_VERSION_RE = re.compile(r'id="deck-version" value="(\d+)"')


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


def _ok(response: object, what: str) -> None:
    status = getattr(response, "status_code", None)
    if status != 200:
        raise SystemExit(f"{what} answered {status}: {getattr(response, 'content', b'')[:300]!r}")


def calls(client: object, editor_client: object, editor: object) -> dict[str, Callable[[], None]]:
    """The requests measured, by label (searches: one per query of bench/editor.py's SEARCHES)."""
    from bench.editor import SEARCHES
    from bench.validate import HTTP_RULER, legal_deck, load_rules_data, ruler_object, validate_body
    from decks.rules.practice import card_facts
    from decks.rules.ruleset import rules_in_force

    deck = legal_deck(card_facts(), rules_in_force(ruler_object(load_rules_data(), HTTP_RULER)))
    body = json.dumps(validate_body(deck))
    hx = {"HX-Request": "true"}
    page = editor_client.get(editor.edit_path).content.decode()  # type: ignore[attr-defined]
    shown = _SHOWN_RE.search(page).group(1)  # type: ignore[union-attr]
    state = {"version": int(_VERSION_RE.search(page).group(1)), "add": True}  # type: ignore[union-attr]

    def ping() -> None:
        _ok(client.post("/api/v1/ping/", data="{}", content_type="application/json"), "ping")  # type: ignore[attr-defined]

    def validate() -> None:
        response = client.post("/api/v1/decks/validate/", data=body, content_type="application/json")  # type: ignore[attr-defined]
        _ok(response, "validate")
        if not response.json()["legal"]:
            raise SystemExit("validate: the deck is not legal")

    def post_change(op: str, what: str) -> None:
        data = {"op": op, "base_version": state["version"], "browse": "", "offset": 0, "shown": shown}
        # Form-encoded, as htmx posts the editor's forms (the test client's default is multipart).
        response = editor_client.post(  # type: ignore[attr-defined]
            editor.change_path, urlencode(data), content_type="application/x-www-form-urlencoded", headers=hx
        )
        _ok(response, what)
        if "deckChanged" in response.headers.get("HX-Trigger", ""):
            # Code before issue 15: the click's second request, the draw odds asking again.
            _ok(editor_client.get(f"/decks/{editor.public_id}/odds/", headers=hx), "odds")  # type: ignore[attr-defined]
        state["version"] += 1

    def change() -> None:
        post_change(f"{'add' if state['add'] else 'remove'} main {shown.split()[0]}", "change")
        state["add"] = not state["add"]

    # Printings of the bench's game not in the deck, each added once and taken out again (FIFO).
    fresh = _fresh_numbers(editor)
    added: list[str] = []
    taken = [0]

    def change_new() -> None:
        if len(added) < 2:
            added.append(fresh[taken[0] % len(fresh)])
            taken[0] += 1
            post_change(f"add main {added[-1]}", "change (every deck new)")
        else:
            post_change(f"remove main {added.pop(0)}", "change (every deck new)")

    def ruler() -> None:
        _ok(client.get("/api/v1/rulers/apprentice/"), "rulers")  # type: ignore[attr-defined]

    out = {
        "ping": ping,
        "validate": validate,
        "editor click": change,
        "editor click, every deck new": change_new,
        "GET /api/v1/rulers/apprentice/": ruler,
    }
    for search in SEARCHES:

        def search_call(q: str = search.query) -> None:
            _ok(editor_client.get(editor.cards_path, {"q": q}, headers=hx), f"search {q!r}")  # type: ignore[attr-defined]

        out[f"search {search.query or '(first page)'}"] = search_call
    return out


def measured_calls(database_url: str, cache_url: str = "") -> dict[str, Callable[[], None]]:
    """Django set up in this process on the bench's database (and shared cache), one bench editor logged in
    with a fresh deck: the requests measured, by label (calls)."""
    env = server_env(database_url)
    env["ALLOWED_HOSTS"] = "testserver"
    if cache_url:
        env["CACHE_URL"] = cache_url
    os.environ.update(env)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from bench.editor import editors_prepare

    editor = editors_prepare(1)[0]
    editor_client = Client()
    editor_client.force_login(get_user_model().objects.get(username=editor.username))
    return calls(Client(), editor_client, editor)


def _fresh_numbers(editor: object) -> list[str]:
    """Collector numbers of printings not in the editor's deck (in the deck's game), for change_new."""
    from cards.games import default_game_slug
    from cards.models import Printing
    from decks.models import DeckCard

    in_deck = DeckCard.objects.filter(deck__public_id=editor.public_id).values("printing_id")  # type: ignore[attr-defined]
    numbers = list(
        Printing.objects.filter(card__game=default_game_slug())
        .exclude(pk__in=in_deck)
        .order_by("collector_number")
        .values_list("collector_number", flat=True)[:5000]
    )
    if len(numbers) < 100:
        raise SystemExit("too few printings outside the deck for 'every deck new'")
    return numbers


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--skip-setup", action="store_true", help="do not create/migrate/import the database")
    parser.add_argument("--printings", type=int, default=20_000, help="generated printings (20000)")
    parser.add_argument("-n", type=int, default=300, help="requests per run (300; searches n // 5)")
    parser.add_argument("--runs", type=int, default=5, help="runs per request (5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--cache-url",
        default="",
        help="a shared cache (redis://127.0.0.1:6379/11): sessions are then cached_db, as in production with Redis",
    )
    parser.add_argument(
        "--only",
        default="",
        help="measure only the requests whose label has one of these words (comma-separated); ping always",
    )
    args = parser.parse_args(argv)

    if not args.skip_setup:
        from bench.editor import prepare_database

        env = server_env(args.database_url)
        prepare_database(SimpleNamespace(database_url=args.database_url, printings=args.printings, vacuum=True), env)
    measured = measured_calls(args.database_url, args.cache_url)

    print("| request | CPU µs best | CPU µs median | wall µs median | CPU × ping |")
    print("| --- | ---: | ---: | ---: | ---: |")
    results = {}
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    for label, call in measured.items():
        if wanted and label != "ping" and not any(w in label for w in wanted):
            continue
        n = args.n // 5 if label.startswith("search") else args.n
        results[label] = row = measure(call, n, args.runs)
        row["ratio"] = row["cpu_best_us"] / results["ping"]["cpu_best_us"]
        print(
            f"| {label} | {row['cpu_best_us']:.0f} | {row['cpu_median_us']:.0f} | {row['wall_median_us']:.0f} "
            f"| {row['ratio']:.1f} |",
            flush=True,
        )
    searches = [label for label in results if label.startswith("search")]
    if searches:
        worst = max(searches, key=lambda k: results[k]["cpu_best_us"])
        print(f"\nworst search: {worst}, {results[worst]['ratio']:.1f} × ping")
    if "validate" in results:
        print(f"validate: ping CPU / validate CPU = {1 / results['validate']['ratio']:.0%}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
