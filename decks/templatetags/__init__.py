"""Template tags of the deck editor."""

from __future__ import annotations
