"""`{% load editor_fragments %}`: the editor's repeated fragments, rendered by decks.fragments."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString

from decks import fragments

register = template.Library()


@register.simple_tag
def deck_lines(lines: Iterable[Any]) -> SafeString:
    """`{% deck_lines group.lines %}`: the <li> of each line."""
    return fragments.deck_lines(lines)


@register.simple_tag
def browser_rows(rows: Iterable[Any]) -> SafeString:
    """`{% browser_rows browser.rows %}`: the <li> of each search result, its hint included."""
    return fragments.browser_rows(rows)


@register.simple_tag
def card_hints(hints: Iterable[Any], oob: bool = False) -> SafeString:
    """`{% card_hints hints oob=True %}`: the hints a change redraws, swapped in by id."""
    return fragments.card_hints(hints, oob=bool(oob))
