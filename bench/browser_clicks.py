"""Click-to-updated time in a real browser: the deck editor, 50 clicks on a saved 50-card deck.

Run from the repository root (after bench/request_cpu.py or bench/editor.py set the database up):

    .venv/bin/python bench/browser_clicks.py [--database-url ...] [--clicks 50] [--runs 3]

gunicorn (sync, 2 workers, production settings) serves the app from bench/editor.py's PostgreSQL
database; Debian's Chromium (/usr/bin/chromium, headless, through Playwright) logs in, opens
the editor of a fresh legal 50-card Apprentice deck and clicks the first deck line's "+" and
"−" in turn (50 clicks: the deck goes 50, 51, 50, …; with --short-by 10 it is first taken down
to 40 cards and goes 40, 41, 40, …: a deck being built, whose results' hints mostly stay as they are). For each click it records, in the page
(performance.now()), the time from the click until its answer is in (htmx is about to swap it:
the request, the server and the network), until the deck list has been swapped ("deck") and
until the draw-odds panel has been swapped too ("deck + odds": before issue 15 the panel asked
again in a second request after the first answer settled), and the requests the click sent.
A warm-up of 6 clicks comes first. Nothing here asserts a time: figures for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.common import Server, ServerConfig, cpu_busy, server_env  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/gatesite_bench_editor"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# In the page: click, then watch (each animation frame and each DOM mutation) for a new #deck-list
# and a new #draw-odds element; resolve with both times once both are new, and nothing is in flight.
_CLICK_JS = """
async (selector) => {
  const list = document.getElementById("deck-list");
  const odds = document.getElementById("draw-odds");
  const button = document.querySelector(selector);
  if (!button) { throw new Error("no " + selector); }
  return await new Promise((resolve, reject) => {
    let deckAt = null;
    let answerAt = null;
    const t0 = performance.now();
    // The answer is in when htmx is about to swap it: the rest is the browser's swapping and settling.
    document.body.addEventListener("htmx:beforeSwap", () => { answerAt = performance.now(); }, {once: true});
    const check = () => {
      const now = performance.now();
      if (deckAt === null && document.getElementById("deck-list") !== list) { deckAt = now; }
      if (deckAt !== null && document.getElementById("draw-odds") !== odds) {
        observer.disconnect();
        resolve({deck: deckAt - t0, odds: now - t0, answer: (answerAt === null ? deckAt : answerAt) - t0});
        return true;
      }
      if (now - t0 > 10000) { observer.disconnect(); reject(new Error("no update within 10 s")); return true; }
      return false;
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, {childList: true, subtree: true});
    const frame = () => { if (!check()) { requestAnimationFrame(frame); } };
    button.click();
    requestAnimationFrame(frame);
  });
}
"""


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": statistics.median(ordered),
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max_ms": ordered[-1],
    }


def clicks_run(
    base: str, username: str, password: str, edit_path: str, clicks: int, short_by: int = 0
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        # The login form's own button (the header's language switch is a form too).
        page.click("form.stacked [type=submit]")
        page.goto(f"{base}{edit_path}")
        page.wait_for_load_state("networkidle")
        for _ in range(short_by):  # a deck being built: short of its size, so most hints stay as they are
            line = page.locator("#deck-list li[data-row]").last
            dom = line.get_attribute("id").removesuffix("-row")  # type: ignore[union-attr]
            page.evaluate(_CLICK_JS, f"#{dom}-remove")
            page.wait_for_load_state("networkidle")
        sent: list[str] = []
        page.on("request", lambda request: sent.append(request.url))
        deck, odds, answer, requests = [], [], [], []
        for i in range(6 + clicks):
            line = page.locator("#deck-list li[data-row]").first
            dom = line.get_attribute("id").removesuffix("-row")  # type: ignore[union-attr]
            before = len(sent)
            times = page.evaluate(_CLICK_JS, f"#{dom}-{'add' if i % 2 == 0 else 'remove'}")
            page.wait_for_load_state("networkidle")
            if i >= 6:
                deck.append(times["deck"])
                odds.append(times["odds"])
                answer.append(times["answer"])
                requests.append(len(sent) - before)
        browser.close()
    return {
        "clicks": clicks,
        "deck": _stats(deck),
        "deck_and_odds": _stats(odds),
        "answer": _stats(answer),
        "requests_per_click": statistics.mean(requests),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--clicks", type=int, default=50, help="measured clicks per run (50)")
    parser.add_argument("--runs", type=int, default=3, help="runs, each in a new browser (3)")
    parser.add_argument(
        "--short-by",
        type=int,
        default=0,
        help="take this many cards out first (0): the clicks then go N short of 50 and N-1 (a deck being built, "
        "whose hints mostly stay as they are), rather than 50 and 51 (every hint says the deck is full)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    env = server_env(args.database_url)
    from bench.editor import PASSWORD, django_setup, editors_prepare

    django_setup(env)
    editor = editors_prepare(1)[0]
    results = []
    print(
        "| run | answer in: median / p95 ms | deck swapped: median / p95 ms | deck + odds swapped: median / p95 ms "
        "| requests per click | machine busy before |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    with (
        tempfile.TemporaryDirectory(prefix="gatesite-clicks-") as tmp,
        Server(ServerConfig(workers=2, worker_class="sync", threads=1), env, Path(tmp)) as server,
    ):
        for run in range(1, args.runs + 1):
            busy = cpu_busy(0.5)
            row = clicks_run(server.base, editor.username, PASSWORD, editor.edit_path, args.clicks, args.short_by)
            row["cpu_busy_before"] = busy
            results.append(row)
            print(
                f"| {run} | {row['answer']['median_ms']:.1f} / {row['answer']['p95_ms']:.1f} "
                f"| {row['deck']['median_ms']:.1f} / {row['deck']['p95_ms']:.1f} "
                f"| {row['deck_and_odds']['median_ms']:.1f} / {row['deck_and_odds']['p95_ms']:.1f} "
                f"| {row['requests_per_click']:.2f} | {busy if busy is None else f'{busy:.0%}'} |",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
