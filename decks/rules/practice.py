"""The engine's card facts straight from set files in the import format (pure: no Django, no database).

For the deck builder's tests and the benchmarks, which build legal decks from the practice set
(data/practice/*.json) without importing it into a database first.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .types import CardFacts

PRACTICE_DIR = Path(__file__).resolve().parents[2] / "data" / "practice"
PRACTICE_FILES = tuple(sorted(PRACTICE_DIR.glob("*.json")))


def card_facts(paths: Iterable[Path] = PRACTICE_FILES) -> list[CardFacts]:
    """One CardFacts per name, sorted by name, with the sorted collector numbers of all its printings.

    The rules fields come from the name's first printing (the importer refuses files whose
    printings of a name disagree, and tests/cards/test_practice_set.py checks the practice set).
    """
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for card in json.loads(Path(path).read_text(encoding="utf-8"))["cards"]:
            by_name[card["name"]].append(card)
    return [
        CardFacts(
            name=name,
            type=entries[0]["type"],
            faction=entries[0]["faction"],
            attributes=frozenset(entries[0]["attributes"]),
            level=entries[0]["level"],
            cnt=entries[0]["cnt"],
            legend=entries[0]["legend"],
            text=entries[0]["text"],
            collector_numbers=tuple(sorted(e["number"] for e in entries)),
        )
        for name, entries in sorted(by_name.items())
    ]
