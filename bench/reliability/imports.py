"""Imports under stress: malformed set files through the real worker, and a worker killed mid-import.

The jobs are created in `manage.py shell` (what the admin's upload does) and run by the stack's
Celery worker over Redis; their state is read straight from PostgreSQL, so polling costs no
Django start-up.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import psycopg

from .probes import Case
from .stack import DATABASE_URL, Stack

# Bad set files: (name, bytes). None of them may write anything to the catalog.
_GOOD_CARD = {"number": "RX01-001", "name": "Probe", "type": "unit", "faction": "Red", "level": 1}


def _set(*cards: Any, card_set: Any = None) -> bytes:
    return json.dumps({"set": card_set or {"code": "RX01", "name": "Probe set"}, "cards": list(cards)}).encode()


MALFORMED: list[tuple[str, bytes]] = [
    ("empty.json", b""),
    ("binary.json", b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
    ("latin1.json", '{"set": {"code": "RX01", "name": "Caf\u00e9"}, "cards": []}'.encode("latin-1")),
    ("truncated.json", _set(_GOOD_CARD)[:-7]),
    ("array.json", b"[1, 2, 3]"),
    ("no-set.json", json.dumps({"cards": [_GOOD_CARD]}).encode()),
    ("cards-not-list.json", json.dumps({"set": {"code": "RX01", "name": "x"}, "cards": "many"}).encode()),
    ("no-name.json", _set({**_GOOD_CARD, "name": ""})),
    ("bad-type.json", _set({**_GOOD_CARD, "type": "dragon"})),
    ("level-text.json", _set({**_GOOD_CARD, "level": "two"})),
    ("level-huge.json", _set({**_GOOD_CARD, "level": 10**30})),
    ("nul-name.json", _set({**_GOOD_CARD, "name": "Pro\u0000be"})),
    ("long-name.json", _set({**_GOOD_CARD, "name": "N" * 20000})),
    ("duplicate-number.json", _set(_GOOD_CARD, {**_GOOD_CARD, "name": "Other"})),
    ("nested.json", b'{"set": {"code": "RX01", "name": "x"}, "cards": ' + b"[" * 50000 + b"]" * 50000 + b"}"),
    ("number-only.json", _set({"number": "RX01-001"})),
    ("csv-header.csv", b"who,what\n1,2\n"),
    ("csv-quote.csv", b'set_code,set_name,number,name,type\nRX01,"Probe set,RX01-001,Probe,unit\n'),
    ("csv-in-json.json", b"set_code,set_name,number,name,type\nRX01,Probe,RX01-001,Probe,unit\n"),
    ("text.txt", _set(_GOOD_CARD)),
    ("bom-junk.json", b"\xef\xbb\xbf\x00\x00junk"),
    ("bad-bool.json", _set({**_GOOD_CARD, "cnt": "perhaps"})),
    ("unknown-field.json", _set({**_GOOD_CARD, "evil_field": 1})),
    ("bidi-name.json", _set({**_GOOD_CARD, "name": "Pro\u202ebe"})),
    (
        "deep-object.json",
        _set({**_GOOD_CARD, "text": "PLACEHOLDER"}).replace(
            b'"PLACEHOLDER"', b'{"a": ' * 100000 + b"1" + b"}" * 100000
        ),
    ),
    ("header-only.csv", b"set_code,set_name,number,name,type\n"),
    ("utf16.json", _set(_GOOD_CARD).decode().encode("utf-16")),
]

_CREATE = """
import json
from cards.import_jobs import import_job_create
from cards.importers.records import ImportFileError
out = []
for name, path in json.loads({files!r}):
    try:
        job = import_job_create(file=open(path, "rb").read(), file_name=name)
        out.append([name, job.pk, ""])
    except ImportFileError:
        out.append([name, None, "refused at upload"])
    except Exception as exc:
        out.append([name, None, "CRASH " + type(exc).__name__])
print(json.dumps(out))
"""


def _query(sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(DATABASE_URL.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def _catalog_size() -> tuple[int, int, int]:
    row = _query(
        "SELECT (SELECT count(*) FROM cards_card), (SELECT count(*) FROM cards_printing), "
        "(SELECT count(*) FROM cards_cardset)"
    )[0]
    return int(row[0]), int(row[1]), int(row[2])


def malformed_imports(stack: Stack, workdir: Path, *, timeout: float = 300) -> Case:
    """Every malformed file is refused at upload or fails as a job, naming the problem; the catalog stays as it was."""
    case = Case("malformed imports")
    before = _catalog_size()
    files = []
    for name, content in MALFORMED:
        path = workdir / f"malformed-{name}"
        path.write_bytes(content)
        files.append((name, str(path)))
    created = json.loads(stack.shell(_CREATE.format(files=json.dumps(files))).strip().splitlines()[-1])
    deadline = time.monotonic() + timeout
    for name, job_id, outcome in created:
        case.tried += 1
        if job_id is None:
            if outcome.startswith("CRASH"):
                case.fail(f"{name}: {outcome}")
            continue
        status = _wait_finished(job_id, deadline)
        if status != "failed":
            case.fail(f"{name}: job {job_id} {status}")
    if _catalog_size() != before:
        case.fail(f"the catalog changed: {before} -> {_catalog_size()}")
    return case


def _wait_finished(job_id: int, deadline: float) -> str:
    while True:
        status = str(_query("SELECT status FROM cards_importjob WHERE id = %s", job_id)[0][0])
        if status in ("succeeded", "failed") or time.monotonic() > deadline:
            return status
        time.sleep(0.5)


def big_set(path: Path, *, cards: int) -> Path:
    """A fictional set large enough that its import takes a while: the worker is killed while it plans."""
    rows = [
        {
            "number": f"RK01-{n:05d}",
            "name": f"Reliability Probe {n}",
            "type": "unit",
            "faction": "Probe",
            "attributes": ["Probe"],
            "level": 1 + n % 5,
            "atk": 1,
            "hp": 1,
            "stk": 1,
            "cnt": False,
            "legend": False,
            "rarity": "C",
            "text": f"Probe card {n} of the reliability suite.",
        }
        for n in range(cards)
    ]
    path.write_text(json.dumps({"set": {"code": "RK01", "name": "Reliability kill set"}, "cards": rows}))
    return path


def worker_killed(stack: Stack, workdir: Path, *, cards: int = 40000, bound: float = 300) -> Case:
    """SIGKILL the worker a second into a big import (reading it); a supervisor starts a new one at once.

    Time to recover: from the kill to the job running again (claimed by the new worker after the
    reaper found the heartbeat stale). It must be under 2 minutes, and the import then complete,
    exactly once.
    """
    case = Case("worker killed mid-import", tried=1)
    path = big_set(workdir / "rk01.json", cards=cards)
    out = stack.shell(_CREATE.format(files=json.dumps([["rk01.json", str(path)]])))
    job_id = json.loads(out.strip().splitlines()[-1])[0][1]
    deadline = time.monotonic() + bound
    while _job(job_id)["status"] == "queued" and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # well into the job: parsing, or planning
    assert stack.worker is not None
    if (before := _job(job_id))["status"] != "running":
        case.fail(f"the job was {before['status']} before the kill: make the set larger")
        return case
    at_row = before["rows_done"]
    os.killpg(stack.worker.pid, signal.SIGKILL)  # the worker and its pool child, no goodbye
    stack.worker.wait()
    killed = time.monotonic()
    stack.worker_start()
    while (job := _job(job_id))["attempts"] < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    case.recover_s = round(time.monotonic() - killed, 1) if job["attempts"] >= 2 else None
    status = _wait_finished(job_id, deadline)
    printings = _query("SELECT count(*) FROM cards_printing WHERE collector_number LIKE 'RK01-%%'")[0][0]
    if case.recover_s is None or case.recover_s > 120:
        case.fail(f"picked up again after {case.recover_s} s")
    if status != "succeeded" or printings != cards:
        case.fail(f"job {status}, {printings} of {cards} printings")
    case.note = f"{cards} cards, killed at row {at_row}; {status} after {_job(job_id)['attempts']} attempts"
    return case


def _job(job_id: int) -> dict[str, Any]:
    row = _query("SELECT status, attempts, rows_done, recoveries FROM cards_importjob WHERE id = %s", job_id)[0]
    return {"status": row[0], "attempts": row[1], "rows_done": row[2], "recoveries": row[3]}
