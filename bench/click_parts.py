"""Where an editor click's CPU goes: the click measured whole, then with parts of its answer left out.

Run from the repository root (after bench/request_cpu.py set the database up):

    .venv/bin/python -m bench.click_parts [--database-url ...] [--cache-url ...] [--rounds 4] [-n 60]

In this process, with Django's test client and production settings (as bench/request_cpu.py),
bench/request_cpu.py's "editor click, every deck new" is measured as it is and with, in turn,
the draw odds, the card browser's hints, the whole HTML, and all three of them replaced by
nothing (patched into decks/editor/views.py for the time of their runs). What is left in the
last row is the click's data path: the session, the user, the deck and its lines, the change,
its judgement and its save. Variants run in turn within each round, after ping; each row is the
best round. A diagnosis, not a benchmark of a page a player sees: the patched answers are empty.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.request_cpu import DEFAULT_DATABASE_URL, measured_calls  # noqa: E402

CLICK = "editor click, every deck new"


def _cpu_per_call(call: Callable[[], None], n: int) -> float:
    started = time.process_time()
    for _ in range(n):
        call()
    return (time.process_time() - started) / n * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help=f"({DEFAULT_DATABASE_URL})")
    parser.add_argument("--cache-url", default="", help="a shared cache (sessions cached_db), as bench/request_cpu.py")
    parser.add_argument("--rounds", type=int, default=4, help="rounds, each variant once per round (4)")
    parser.add_argument("-n", type=int, default=60, help="clicks per variant and round (60)")
    args = parser.parse_args(argv)

    measured = measured_calls(args.database_url, args.cache_url)
    from django.http import HttpResponse

    import decks.editor.views as views

    click, ping = measured[CLICK], measured["ping"]

    def no_render(request: Any, template: str, context: Any, **kwargs: Any) -> HttpResponse:
        return HttpResponse("")

    variants: dict[str, dict[str, Any]] = {
        "the whole click": {},
        "without the draw odds": {"odds_panel_context": lambda **kw: {}},
        "without the hints": {"deck_card_hints": lambda **kw: []},
        "without the HTML": {"render": no_render},
        "without the HTML, hints and odds (the data path)": {
            "render": no_render,
            "deck_card_hints": lambda **kw: [],
            "odds_panel_context": lambda **kw: {},
        },
    }
    original = {name: getattr(views, name) for name in ("odds_panel_context", "deck_card_hints", "render")}
    best: dict[str, float] = {}
    pings: list[float] = []
    for _ in range(max(1, args.n // 3)):
        click()
    try:
        for _ in range(args.rounds):
            pings.append(_cpu_per_call(ping, 100))
            for label, patch in variants.items():
                for name, value in {**original, **patch}.items():
                    setattr(views, name, value)
                for _ in range(5):
                    click()
                best[label] = min(best.get(label, float("inf")), _cpu_per_call(click, args.n))
    finally:
        for name, value in original.items():
            setattr(views, name, value)

    floor = min(pings)
    print(f"ping: {floor:.0f} µs CPU (best of {args.rounds} rounds)\n")
    print("| click | CPU µs | × ping | left out, µs |")
    print("| --- | ---: | ---: | ---: |")
    whole = best["the whole click"]
    for label, cpu in best.items():
        print(f"| {label} | {cpu:.0f} | {cpu / floor:.1f} | {whole - cpu:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
