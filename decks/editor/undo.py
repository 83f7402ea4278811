"""Undo and redo in the editor: a deck's state as a short code, and the change that restores one.

Where the history lives: in the page (static/decks/undo.js keeps, per saved deck or per game's
draft, the codes of the states the player went through in sessionStorage), not in the server's
session. Each change's answer says the deck's new state in one response header (STATE_HEADER,
a few dozen microseconds to encode); the server keeps nothing more per click. A history in the
session would cost a saved deck's every click a session write (a query), which its clicks do
not make today, and would be shared by every tab of the browser, while one tab's Ctrl+Z should
undo that tab's changes. An undo or redo then posts the code of the state to go back to as one
more change, the kind RESTORE, through the same change service as any other: judged, autosaved
and versioned, refused like any other when the deck changed elsewhere (the version check).

The code says what a change can move: the game, the rules chosen (ruler, geas, attribute,
rules date) and every section's copies, the considering board included. The name and the
description are left out (an undo never renames a deck) and so is everything else a deck row
holds (visibility, tags). Version "1": the JSON array ``[game, ruler, geas, attribute, rules
date, {section: [number, count, …]}]``, raw-deflated and base64url-encoded without padding, as
the share link's (decks/decklists/link.py, which leaves out the considering board).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import replace
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from cards.games import game_get
from decks.card_facts import card_facts_by_number
from decks.limits import MAX_LINE_COUNT, MAX_LINES
from decks.models import DeckDraft
from gatesite.errors import ApplicationError

# The change kind of an undo or a redo (decks/editor/services.py applies it).
RESTORE = "restore"
# The response header that carries the deck's state after a change (read by static/decks/undo.js).
STATE_HEADER = "X-Deck-State"
VERSION = "1"
# Bounds that keep a restored state as small as a draft: a code of the largest deck a draft keeps is
# well under this; the payload bound stops a small code inflating to a large one.
MAX_CODE_LENGTH = 12_000
_MAX_PAYLOAD_BYTES = 64_000
_CODE = re.compile(r"^[A-Za-z0-9_-]+$")
_OWN_SECTIONS = ("main", "resources", "considering")


def draft_state_code(draft: DeckDraft) -> str:
    """The code of what an undo can bring back of `draft`: the same state always gives the same code."""
    sections = {key: _flat(draft.section(key)) for key in (*_OWN_SECTIONS, *sorted(draft.others))}
    payload = [
        draft.game,
        draft.ruler,
        draft.geas or "",
        draft.attribute,
        draft.rules_date.isoformat() if draft.rules_date else "",
        {key: flat for key, flat in sections.items() if flat},
    ]
    raw = json.dumps(payload, separators=(",", ":")).encode()
    # A deck's JSON is a few hundred bytes: a 512-byte window and the least memory compress it as well as the
    # defaults do, and setting up the defaults' 256 KB of state costs ten times the rest of the encoding.
    compressor = zlib.compressobj(1, zlib.DEFLATED, -9, 1)
    packed = compressor.compress(raw) + compressor.flush()
    return VERSION + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _flat(counts: Any) -> list[Any]:
    return [item for number in sorted(counts) if counts[number] > 0 for item in (number, counts[number])]


def draft_restored(*, draft: DeckDraft, code: str) -> DeckDraft:
    """`draft` as it was when its state's code was `code` (its name and description kept).

    ApplicationError, in words for the player, for a code this site did not write, a state of a
    deck of another game, or one naming a card the catalog no longer has. (Whether its rules can
    still judge a deck is the caller's to check, as for any other change of the rules.)
    """
    restored = _decoded(code)
    if restored.game != draft.game:
        raise ApplicationError(_("That undo step belongs to a deck of another game: nothing was changed."))
    added = restored.numbers() - draft.numbers()
    if added:
        # Only the printings the deck does not hold now are looked up (a query at most, as an add's).
        known = card_facts_by_number(game_get(draft.game), added).keys()
        if missing := sorted(added - set(known)):
            raise ApplicationError(
                _("That undo step holds cards the catalog no longer has (%(numbers)s): nothing was changed.")
                % {"numbers": ", ".join(missing)},
                field="state",
            )
    return replace(restored, name=draft.name, description=draft.description)


def _unreadable() -> ApplicationError:
    return ApplicationError(_("That undo step could not be read: nothing was changed."), field="state")


def _decoded(code: str) -> DeckDraft:
    if not code or len(code) > MAX_CODE_LENGTH or not _CODE.match(code) or code[0] != VERSION:
        raise _unreadable()
    body = code[1:]
    try:
        decompressor = zlib.decompressobj(-15)
        raw = decompressor.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), _MAX_PAYLOAD_BYTES)
        if decompressor.unconsumed_tail or not decompressor.eof:
            raise _unreadable()
        data = json.loads(raw.decode())
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _unreadable() from exc
    if not isinstance(data, list) or len(data) != 6:
        raise _unreadable()
    game, ruler, geas, attribute, rules_date, sections = data
    if not all(isinstance(text, str) and len(text) <= 100 for text in (game, ruler, geas, attribute, rules_date)):
        raise _unreadable()
    if not isinstance(sections, dict):
        raise _unreadable()
    try:
        definition = game_get(game)
        when = date.fromisoformat(rules_date) if rules_date else None
    except (LookupError, ValueError) as exc:
        raise _unreadable() from exc
    allowed = {"considering", *definition.section_keys()}
    draft = DeckDraft(ruler=ruler, geas=geas or None, attribute=attribute, rules_date=when, game=definition.slug)
    for key, flat in sections.items():
        if key not in allowed:
            raise _unreadable()
        draft = draft.with_section(key, _counts(flat))
    if len(draft.numbers()) > MAX_LINES:
        raise _unreadable()
    return draft


def _counts(flat: Any) -> dict[str, int]:
    if not isinstance(flat, list) or len(flat) % 2 or len(flat) > 2 * MAX_LINES:
        raise _unreadable()
    counts: dict[str, int] = {}
    for number, count in zip(flat[::2], flat[1::2], strict=True):
        valid_number = isinstance(number, str) and 0 < len(number) <= 40 and number not in counts
        valid_count = isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= MAX_LINE_COUNT
        if not (valid_number and valid_count):
            raise _unreadable()
        counts[number] = count
    return counts
