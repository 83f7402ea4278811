"""The revalidation tests' clock (tests/decks/revalidation/verdicts.py has the day it stands on)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
import time_machine


@pytest.fixture
def frozen_clock() -> Iterator[None]:
    """Decks are saved and judged on verdicts.TODAY whatever the calendar says, so the verdicts compared agree."""
    with time_machine.travel(datetime.datetime(2026, 11, 22, 12, tzinfo=datetime.UTC), tick=True):
        yield
