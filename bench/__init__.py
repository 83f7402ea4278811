"""Benchmarks, run by hand (see docs/benchmarks.md); results go to bench/results/ (git-ignored)."""

from __future__ import annotations
