"""Small helpers over iterables that every app uses (Python 3.11 has no itertools.batched)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")


def chunks(values: Iterable[T], size: int) -> Iterator[list[T]]:
    """`values` in lists of `size` (the last one shorter): bounded batches for bulk writes and locks."""
    iterator = iter(values)
    while batch := list(islice(iterator, size)):
        yield batch
