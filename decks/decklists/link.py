"""A whole deck in a URL-safe string, for sharing without an account (pure, no Django).

A code is a version character followed by the payload. Version "1": the deck as a compact
JSON array ``[ruler, geas, attribute, rules date, main, resources, name]`` where main and
resources are flat ``[number, count, number, count, …]`` lists, raw-deflated (zlib, no
header) and base64url-encoded without padding. A 50-card deck is about 100–200 characters.
A deck of another game than Gate Ruler adds two items, ``[..., name, game, sections]``: the
game's slug and its other sections (``{"kingdom": [number, count, …]}``), with ruler, geas,
attribute, rules date and resources empty (the decoder reads no rules chosen from them). Without
them (every older link) the deck is Gate Ruler's, so Gate Ruler's codes are the same as ever.

decode_deck_link refuses anything it did not write: bad characters, bad compression, a wrong
shape, counts out of range, unknown versions, each with a clear DeckLinkError.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from decks.limits import MAX_LINE_COUNT, MAX_LINES, spoofing_refusal
from decks.rules.wording import Wording, gettext_noop

VERSION = "1"
# Bounds that keep a decoded link as small as an editor draft (the deck's own from decks.limits).
MAX_CODE_LENGTH = 6000
MAX_PAYLOAD_BYTES = 64_000
MAX_COUNT = MAX_LINE_COUNT
MAX_TEXT = 100

_CODE = re.compile(r"^[A-Za-z0-9_-]+$")
# A game's slug and its section keys, as data/games/<slug>.json spells them.
_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_SECTIONS = 8


class DeckLinkError(ValueError):
    """A share code that is not a deck this version of the site can read; the message (a Wording) says why."""


def _w(template: str, **values: object) -> Wording:
    return Wording(template, values)


@dataclass(frozen=True)
class LinkedDeck:
    """A deck as a share link carries it: the rules chosen and copies per collector number."""

    ruler: str
    geas: str | None = None
    attribute: str = ""
    rules_date: date | None = None
    main: Mapping[str, int] = field(default_factory=dict)
    resources: Mapping[str, int] = field(default_factory=dict)
    name: str = ""
    # The game's slug; None for Gate Ruler (the game of every link without one).
    game: str | None = None
    # Copies per collector number in the game's other sections ("kingdom", "hero", "gates").
    sections: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def encode_deck_link(deck: LinkedDeck) -> str:
    """The share code of a deck: the same deck always gives the same code (lines are sorted)."""
    payload: list[Any] = [
        deck.ruler,
        deck.geas or "",
        deck.attribute,
        deck.rules_date.isoformat() if deck.rules_date else "",
        _flat(deck.main),
        _flat(deck.resources),
    ]
    if deck.name or deck.game is not None:
        payload.append(deck.name[:MAX_TEXT])
    if deck.game is not None:
        payload += [deck.game, {key: _flat(counts) for key, counts in sorted(deck.sections.items()) if counts}]
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(raw) + compressor.flush()
    return VERSION + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _flat(counts: Mapping[str, int]) -> list[Any]:
    return [item for number in sorted(counts) if counts[number] > 0 for item in (number, counts[number])]


def decode_deck_link(code: str) -> LinkedDeck:
    """The deck a share code carries; DeckLinkError if it is not a code this site wrote."""
    if not code:
        raise DeckLinkError(Wording(gettext_noop("The link has no deck in it.")))
    if len(code) > MAX_CODE_LENGTH:
        raise DeckLinkError(_w(gettext_noop("The link is too long to be a deck (%(n)s characters)."), n=len(code)))
    if not _CODE.match(code):
        raise DeckLinkError(Wording(gettext_noop("The link is damaged: it has characters a deck link never has.")))
    version, body = code[0], code[1:]
    if version != VERSION:
        raise DeckLinkError(
            _w(
                gettext_noop(
                    "This deck link is in format “%(version)s”, which this site cannot read (it reads format “%(ours)s”)."
                ),
                version=version,
                ours=VERSION,
            )
        )
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        decompressor = zlib.decompressobj(-15)
        raw = decompressor.decompress(packed, MAX_PAYLOAD_BYTES)
        if decompressor.unconsumed_tail or not decompressor.eof:
            raise DeckLinkError(
                Wording(gettext_noop("The link is damaged or incomplete (was it cut off when copied?)."))
            )
        data = json.loads(raw.decode())
    except RecursionError:
        # A few dozen characters inflate to thousands of nested brackets; a deck is nested two deep.
        raise DeckLinkError(
            Wording(gettext_noop("The link does not hold a deck (its data is nested too deeply)."))
        ) from None
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, DeckLinkError):
            raise
        raise DeckLinkError(
            Wording(gettext_noop("The link is damaged or incomplete (was it cut off when copied?)."))
        ) from exc
    return _linked_deck(data)


def _linked_deck(data: Any) -> LinkedDeck:
    if not isinstance(data, list) or len(data) not in (6, 7, 9):
        raise DeckLinkError(Wording(gettext_noop("The link does not hold a deck.")))
    ruler, geas, attribute, rules_date, main, resources, *rest = data
    game, sections = _game(rest[1:]) if len(rest) == 3 else (None, {})
    for what, value in (
        (gettext_noop("The link's ruler is not valid."), ruler),
        (gettext_noop("The link's geas is not valid."), geas),
        (gettext_noop("The link's attribute is not valid."), attribute),
        (gettext_noop("The link's rules date is not valid."), rules_date),
    ):
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise DeckLinkError(Wording(what))
    if not ruler and game is None:
        raise DeckLinkError(Wording(gettext_noop("The link's deck has no ruler.")))
    try:
        when = date.fromisoformat(rules_date) if rules_date else None
    except ValueError as exc:
        raise DeckLinkError(
            _w(gettext_noop("The link's rules date “%(date)s” is not a date."), date=rules_date)
        ) from exc
    name = rest[0] if rest else ""
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise DeckLinkError(Wording(gettext_noop("The link's deck name is not valid.")))
    if (refusal := spoofing_refusal(name)) is not None:
        raise DeckLinkError(_w(gettext_noop("The link's deck name is not valid: %(refusal)s"), refusal=refusal))
    main_counts, resource_counts = _counts("deck", main), _counts("resources", resources)
    if len(main_counts) + len(resource_counts) + sum(len(c) for c in sections.values()) > MAX_LINES:
        raise DeckLinkError(_w(gettext_noop("The link's deck has more than %(n)s different printings."), n=MAX_LINES))
    if game is not None:
        # The form that names its game is written with no rules chosen: what stands there is not read.
        ruler, geas, attribute, when = "", "", "", None
    return LinkedDeck(ruler, geas or None, attribute, when, main_counts, resource_counts, name, game, sections)


def _game(items: list[Any]) -> tuple[str, dict[str, dict[str, int]]]:
    """The game's slug and other sections of a link that names a game."""
    game, sections = items
    if not isinstance(game, str) or not _KEY.match(game):
        raise DeckLinkError(Wording(gettext_noop("The link's game is not valid.")))
    if not isinstance(sections, dict) or len(sections) > MAX_SECTIONS:
        raise DeckLinkError(Wording(gettext_noop("The link's deck sections are not valid.")))
    for key in sections:
        if not _KEY.match(key):
            raise DeckLinkError(
                _w(gettext_noop("The link's deck has a section that is not valid (%(key)s)."), key=repr(key[:40]))
            )
    return game, {key: _counts(key, flat) for key, flat in sections.items()}


# The link's two sections, as its errors name them (a template each, so translations need not assemble them).
_SECTION_ERRORS = {
    "deck": {
        "list": gettext_noop("The link's deck is not a list of cards."),
        "number": gettext_noop("The link's deck has a collector number that is not valid."),
        "count": gettext_noop("The link's deck has %(count)s copies of %(number)s; a count is 1 to %(max)s."),
        "twice": gettext_noop("The link's deck names %(number)s twice."),
    },
    "resources": {
        "list": gettext_noop("The link's resources is not a list of cards."),
        "number": gettext_noop("The link's resources has a collector number that is not valid."),
        "count": gettext_noop("The link's resources has %(count)s copies of %(number)s; a count is 1 to %(max)s."),
        "twice": gettext_noop("The link's resources names %(number)s twice."),
    },
}


# Another game's sections (kingdom, hero, gates …), named by their key.
_OTHER_SECTION_ERRORS = {
    "list": gettext_noop("The link's %(section)s section is not a list of cards."),
    "number": gettext_noop("The link's %(section)s section has a collector number that is not valid."),
    "count": gettext_noop(
        "The link's %(section)s section has %(count)s copies of %(number)s; a count is 1 to %(max)s."
    ),
    "twice": gettext_noop("The link's %(section)s section names %(number)s twice."),
}


def _counts(section: str, flat: Any) -> dict[str, int]:
    words = _SECTION_ERRORS.get(section, _OTHER_SECTION_ERRORS)
    if not isinstance(flat, list) or len(flat) % 2:
        raise DeckLinkError(_w(words["list"], section=section))
    counts: dict[str, int] = {}
    for number, count in zip(flat[::2], flat[1::2], strict=True):
        if not isinstance(number, str) or not number or len(number) > 40:
            raise DeckLinkError(_w(words["number"], section=section))
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise DeckLinkError(_w(words["count"], count=repr(count), number=number, max=MAX_COUNT, section=section))
        if number in counts:
            raise DeckLinkError(_w(words["twice"], number=number, section=section))
        counts[number] = count
    return counts
