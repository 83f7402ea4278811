"""Statistics and revalidation benchmark over the decks bench/gen_decks.py writes, through a real Celery worker.

Run by hand from the repository root (docs/benchmarks.md, "Statistics and revalidation"):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gatesite_bench .venv/bin/python bench/gen_decks.py
    .venv/bin/python bench/deck_statistics.py --database-url postgres://postgres@127.0.0.1:5432/gatesite_bench

1. Full recompute: `decks.statistics_recompute` sent to a freshly started
   `celery -A gatesite worker --pool solo` (consuming a queue private to this run), timed until
   its result arrives; the worker's peak memory is VmHWM of its process (with --pool solo the
   task runs in it). Targets: at most 60 s, at most 300 MB.
2. Incremental update after one deck save: saves of a public deck through
   decks.services.deck_update in this process with tasks eager, so the on-commit hook and its
   task (decks.statistics_deck_changed: the figures are marked stale, see decks.stats.services)
   run inline; the hook's task is timed alone. Target: at most 50 ms.
3. Revalidation: `decks.revalidate` on the worker, (a) after lowering Apprentice's level cap in
   its revision in force (its decks turn illegal), then after restoring it (legal again);
   (b) with every ruler (a new rules document: all 100 000 decks), once as stored and once
   with every `judged_on` cleared first so every verdict is written. Target: at most 120 s.
   The revision is restored and the decks re-judged at the end, whatever happens.

(Not named bench/statistics.py: run as a script, bench/ comes first on sys.path and such a file
would shadow the standard library's statistics module for every benchmark.)

Prints a Markdown table and writes bench/results/statistics-<UTC time>.json. Missed targets
are reported, not failed; exit status 1 if a task failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `python bench/deck_statistics.py` puts bench/, not the repository, on the path
    sys.path.insert(0, str(REPO))

from bench.common import OtherLoad, machine_info, postgres_version  # noqa: E402
from bench.import_cards import Worker, code_state, setup_django  # noqa: E402

RESULTS_DIR = REPO / "bench" / "results"
TARGET_RECOMPUTE_S = 60.0
TARGET_PEAK_MB = 300.0
TARGET_INCREMENTAL_MS = 50.0
TARGET_REVALIDATE_S = 120.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gatesite_bench")
    )
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/14")
    parser.add_argument("--rounds", type=int, default=3, help="full recomputes, each on a fresh worker")
    parser.add_argument("--saves", type=int, default=50, help="deck saves for the incremental figure")
    parser.add_argument("--min-decks", type=int, default=90_000)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        raise SystemExit("The benchmark measures PostgreSQL: pass --database-url postgres://…")
    setup_django(args)

    from decks.models import Deck

    decks = Deck.objects.count()
    if decks < args.min_decks:
        raise SystemExit(f"{decks} decks in {args.database_url}: run bench/gen_decks.py first (see the docstring).")
    from gatesite.celery import app

    queue = f"bench-statistics-{os.getpid()}-{int(time.time())}"
    app.conf.task_default_queue = queue
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    log = RESULTS_DIR / f"statistics-{stamp}-worker.log"
    dbname = args.database_url.rsplit("/", 1)[-1]
    report: dict[str, Any] = {
        "machine": machine_info(),
        "postgres": postgres_version(args.database_url),
        "code": code_state(),
        "decks": decks,
        "deck_cards": _deck_card_rows(),
    }
    print(f"{decks} decks, {report['deck_cards']} deck-card rows; worker log {log}", flush=True)

    report["recompute"] = [_on_worker(args, log, queue, dbname, "decks.statistics_recompute", ["command"])]
    for _ in range(args.rounds - 1):
        report["recompute"].append(_on_worker(args, log, queue, dbname, "decks.statistics_recompute", ["command"]))
    report["incremental"] = _incremental(args.saves)
    report["revalidate"] = _revalidations(args, log, queue, dbname)
    _print(report)
    out = RESULTS_DIR / f"statistics-{stamp}.json"
    out.write_text(json.dumps(report, indent=2, default=str))
    print(f"\nWrote {out}")


def _deck_card_rows() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM decks_deckcard")
        return int(cursor.fetchone()[0])


def _on_worker(
    args: argparse.Namespace, log: Path, queue: str, dbname: str, task: str, task_args: list[Any], **kwargs: Any
) -> dict[str, Any]:
    """Send one task to a freshly started worker; wall time to its result, the worker's peak memory, other load."""
    from gatesite.celery import app

    with Worker(args, log, queue) as worker:
        idle = worker.memory()
        # Our processes: the worker and this one; our PostgreSQL backends carry the database's name.
        with OtherLoad(root_pids=[worker.pid], marker=f" postgres {dbname} ") as load:
            started = time.perf_counter()
            result = app.send_task(task, args=task_args, kwargs=kwargs, queue=queue).get(timeout=args.timeout)
            seconds = time.perf_counter() - started
        memory = worker.memory()
    row = {
        "task": task,
        "kwargs": kwargs,
        "seconds": round(seconds, 2),
        "idle_mb": round(idle["VmRSS"], 1),
        "peak_mb": round(memory["VmHWM"], 1),
        "other_load": None if load.share is None else round(load.share, 2),
        "result": result,
    }
    print(json.dumps(row, default=str), flush=True)
    return row


def _incremental(saves: int) -> dict[str, Any]:
    """Save a public deck `saves` times (a copy more, then back), hook included; then time the hook's task alone."""
    from django.db import transaction

    from decks.models import Deck, Visibility
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_update
    from decks.stats.models import StatisticsChange
    from decks.stats.tasks import statistics_deck_changed
    from gatesite.celery import app

    deck = Deck.objects.select_related("ruler", "geas").filter(visibility=Visibility.PUBLIC, archived=False).first()
    original = deck_draft_of(deck=deck)
    number, count = next(iter(original.main.items()))
    changes_before = StatisticsChange.objects.count()
    app.conf.task_always_eager = True  # the on-commit task runs inline, as part of the save's time
    save_ms, hook_ms = [], []
    try:
        for i in range(saves):
            main = {**original.main, number: count + (1 if i % 2 == 0 else 0)}
            draft = original.with_section("main", main)
            started = time.perf_counter()
            with transaction.atomic():  # commits at the end of the block: the hook runs then, as in a request
                deck = deck_update(deck=deck, draft=draft, base_version=deck.version)
            save_ms.append((time.perf_counter() - started) * 1000)
        for _ in range(saves):
            started = time.perf_counter()
            statistics_deck_changed.apply(args=[deck.pk]).get()
            hook_ms.append((time.perf_counter() - started) * 1000)
    finally:
        app.conf.task_always_eager = False
        if dict(deck_draft_of(deck=deck).main) != dict(original.main):  # leave the deck's list as it was
            deck_update(deck=deck, draft=original, base_version=deck.version)
        changes = StatisticsChange.objects.filter(deck_id=deck.pk).order_by("-id")
        StatisticsChange.objects.filter(pk__in=list(changes.values_list("pk", flat=True)[: 2 * saves + 1])).delete()
    row = {
        "saves": saves,
        "changes_before": changes_before,
        "hook_ms_median": round(_median(hook_ms), 2),
        "hook_ms_p95": round(sorted(hook_ms)[int(0.95 * (len(hook_ms) - 1))], 2),
        "save_ms_median": round(_median(save_ms), 2),
        "save_ms_p95": round(sorted(save_ms)[int(0.95 * (len(save_ms) - 1))], 2),
    }
    print(json.dumps(row), flush=True)
    return row


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _revalidations(args: argparse.Namespace, log: Path, queue: str, dbname: str) -> list[dict[str, Any]]:
    from cards.models import Ruler, RulerRevision
    from decks.models import Deck

    apprentice = Ruler.objects.get(slug="apprentice")
    revision = RulerRevision.objects.filter(ruler=apprentice).order_by("-effective_from").first()
    saved = json.loads(json.dumps(revision.data))
    everyone = sorted(Ruler.objects.values_list("pk", flat=True))
    rows = []
    try:
        revision.data["deck_construction"]["level_cap"] = 30
        revision.save()
        row = _on_worker(args, log, queue, dbname, "decks.revalidate", [], ruler_ids=[apprentice.pk])
        rows.append({"case": "one ruler changed (Apprentice level cap 50 -> 30)", **row})
        revision.data = saved
        revision.save()
        row = _on_worker(args, log, queue, dbname, "decks.revalidate", [], ruler_ids=[apprentice.pk])
        rows.append({"case": "one ruler restored (its decks legal again)", **row})
        row = _on_worker(args, log, queue, dbname, "decks.revalidate", [], ruler_ids=everyone)
        rows.append({"case": "every ruler (all decks), verdicts as stored", **row})
        Deck.objects.update(judged_on=None)
        row = _on_worker(args, log, queue, dbname, "decks.revalidate", [], ruler_ids=everyone)
        rows.append({"case": "every ruler (all decks), every verdict rewritten", **row})
    finally:
        revision.refresh_from_db()
        if revision.data != saved:
            revision.data = saved
            revision.save()
            from decks.revalidation.services import decks_revalidate

            decks_revalidate(ruler_ids=[apprentice.pk])
    return rows


def _print(report: dict[str, Any]) -> None:
    def met(ok: bool) -> str:
        return "yes" if ok else "**no**"

    print("\n| Measure | Time | Worker peak | Other load | Target met |")
    print("|---|---|---|---|---|")
    for row in report["recompute"]:
        ok = row["seconds"] <= TARGET_RECOMPUTE_S and row["peak_mb"] <= TARGET_PEAK_MB
        print(
            f"| Full recompute ({row['result']} = run id) | {row['seconds']} s | {row['peak_mb']} MB "
            f"| {row['other_load']} | {met(ok)} |"
        )
    inc = report["incremental"]
    print(
        f"| Incremental (stale mark) after a save, median / p95 | {inc['hook_ms_median']} / {inc['hook_ms_p95']} ms "
        f"(save itself {inc['save_ms_median']} ms) | – | – | {met(inc['hook_ms_p95'] <= TARGET_INCREMENTAL_MS)} |"
    )
    for row in report["revalidate"]:
        result = row["result"]
        print(
            f"| Revalidation: {row['case']}: {result['checked']} decks, {result['changed']} written "
            f"| {row['seconds']} s | {row['peak_mb']} MB | {row['other_load']} "
            f"| {met(row['seconds'] <= TARGET_REVALIDATE_S and row['peak_mb'] <= TARGET_PEAK_MB)} |"
        )


if __name__ == "__main__":
    main()
