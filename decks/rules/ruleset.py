"""Rulers and geases as data: parse the ruler objects of data/rules.json and patch them with a geas.

A ruler object is the whole of what the rules say of a ruler in one revision (stats, zones,
setup, start of turn, abilities and deck construction). A geas is a list of changes to such
an object ("set" a path to a value, "append" values to a list), so the rules in force with a
geas are simply the patched object, and we remember which deck rules the geas changed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any, TypeVar

from .types import FACTION_SCOPES
from .wording import Wording, gettext_noop


class RulesDataError(ValueError):
    """Rules data that does not have the shape the engine needs; the message names the path."""


@dataclass(frozen=True, slots=True)
class CopyException:
    text_contains: str
    max_copies: int


@dataclass(frozen=True, slots=True)
class CardPool:
    factions: frozenset[str] = frozenset()
    attributes: frozenset[str] = frozenset()
    collector_number_prefixes: tuple[str, ...] = ()
    # World Master 2023: a card is also in the pool if another printing of its name is.
    same_name: bool = False

    def describe(self) -> str:
        parts: list[Wording] = []
        if self.factions:
            parts.append(
                Wording(gettext_noop("the %(factions)s faction"), {"factions": " or ".join(sorted(self.factions))})
            )
        if self.attributes:
            attributes = " or ".join(sorted(self.attributes))
            parts.append(Wording(gettext_noop("the %(attributes)s attribute"), {"attributes": attributes}))
        if self.collector_number_prefixes:
            prefixes = " or ".join(f'"{p}"' for p in self.collector_number_prefixes)
            template = (
                gettext_noop("a collector number starting with %(prefixes)s (or the same name as such a card)")
                if self.same_name
                else gettext_noop("a collector number starting with %(prefixes)s")
            )
            parts.append(Wording(template, {"prefixes": prefixes}))
        if not parts:
            return Wording(gettext_noop("no cards"))
        # Up to three parts, each a template of its own so a translation can join them its way.
        return Wording(_POOL_PARTS[len(parts)], dict(zip(("a", "b", "c"), parts, strict=False)))


@dataclass(frozen=True, slots=True)
class DeckRules:
    deck_size: int
    max_factions: Mapping[str, int | None]
    unit_attribute_choice: bool
    max_copies: int
    max_copies_exceptions: tuple[CopyException, ...]
    legend_cap: int | None
    legend_max_copies: int | None
    level_cap: int | None
    cnt_cap: int | None
    allow_negative_levels: bool
    card_pool: CardPool | None
    faction_quota: int | None
    banned_cards: frozenset[str]
    resource_cards: int

    def lowest_copy_limit(self) -> int:
        """The fewest copies of a name any of these limits allows: no name at or under it breaks one."""
        lowest = self.max_copies
        for exception in self.max_copies_exceptions:
            lowest = min(lowest, exception.max_copies)
        return lowest


_sources: dict[tuple[int, str], tuple[RulesInForce, str]] = {}


@dataclass(frozen=True, slots=True)
class RulesInForce:
    """The deck rules a deck is judged by: a ruler's, possibly patched by a geas."""

    ruler: str
    deck: DeckRules
    profile: Mapping[str, Any] = field(repr=False)
    geas: str | None = None
    own_deck: DeckRules | None = None
    changed: frozenset[str] = frozenset()

    def source_of(self, name: str) -> str:
        """Where a deck rule comes from, so a violation can say why the limit is what it is."""
        # Asked of every violation of every judgement (the card browser judges each card shown against
        # the deck): remembered per rules object (held in the value, so its id is not another's).
        key = (id(self), name)
        held = _sources.get(key)
        if held is not None and held[0] is self:
            return held[1]
        if len(_sources) >= 4096:
            _sources.clear()
        source = self._source_of(name)
        _sources[key] = (self, source)
        return source

    def _source_of(self, name: str) -> str:
        if self.geas and name in self.changed and self.own_deck is not None:
            # The registry names the fields; it imports the checks, which import this module.
            from .registry import field_label

            own = getattr(self.own_deck, name)
            template = gettext_noop("set by %(geas)s; %(ruler)s's own %(field)s is %(value)s")
            values = {"geas": self.geas, "ruler": self.ruler, "field": Wording(field_label(name)), "value": _show(own)}
            return Wording(template, values)
        return Wording(gettext_noop("%(ruler)s's rule"), {"ruler": self.ruler})


_POOL_PARTS = {
    1: gettext_noop("cards with %(a)s"),
    2: gettext_noop("cards with %(a)s, or %(b)s"),
    3: gettext_noop("cards with %(a)s, or %(b)s, or %(c)s"),
}


def _show(value: object) -> str:
    if value is None:
        return Wording(gettext_noop("unlimited"))
    if isinstance(value, Mapping):
        if set(value) == {"all"}:
            return _show(value["all"])
        return ", ".join(f"{_show(v)} for {k.replace('_', '-')}" for k, v in value.items())
    if isinstance(value, frozenset):
        return ", ".join(sorted(value)) or Wording(gettext_noop("empty"))
    return str(value)


def _get(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise RulesDataError(f"{path}: missing field '{key}'")
    return obj[key]


def _int_or_none(value: Any, path: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesDataError(f"{path}: expected an integer or null, got {value!r}")
    return value


def _int(value: Any, path: str) -> int:
    result = _int_or_none(value, path)
    if result is None:
        raise RulesDataError(f"{path}: expected an integer, got null")
    return result


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise RulesDataError(f"{path}: expected true or false, got {value!r}")
    return value


def _str_list(value: Any, path: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesDataError(f"{path}: expected a list of strings")
    return value


def parse_deck_rules(data: Mapping[str, Any], path: str = "deck_construction") -> DeckRules:
    factions = _get(data, "max_factions", path)
    if not isinstance(factions, Mapping) or not factions or set(factions) - set(FACTION_SCOPES):
        raise RulesDataError(f"{path}.max_factions: expected keys among {', '.join(FACTION_SCOPES)}")
    pool_data = _get(data, "card_pool", path)
    pool = None
    if pool_data is not None:
        pp = f"{path}.card_pool"
        pool = CardPool(
            factions=frozenset(_str_list(_get(pool_data, "factions", pp), pp + ".factions")),
            attributes=frozenset(_str_list(_get(pool_data, "attributes", pp), pp + ".attributes")),
            collector_number_prefixes=tuple(
                _str_list(
                    _get(pool_data, "collector_number_prefixes", pp),
                    pp + ".collector_number_prefixes",
                )
            ),
            same_name=_bool(_get(pool_data, "same_name", pp), pp + ".same_name"),
        )
    exceptions = []
    for i, exc in enumerate(_get(data, "max_copies_exceptions", path)):
        ep = f"{path}.max_copies_exceptions[{i}]"
        exceptions.append(
            CopyException(
                text_contains=str(_get(exc, "text_contains", ep)),
                max_copies=_int(_get(exc, "max_copies", ep), ep + ".max_copies"),
            )
        )
    return DeckRules(
        deck_size=_int(_get(data, "deck_size", path), path + ".deck_size"),
        max_factions={k: _int_or_none(v, f"{path}.max_factions.{k}") for k, v in factions.items()},
        unit_attribute_choice=_bool(_get(data, "unit_attribute_choice", path), path + ".unit_attribute_choice"),
        max_copies=_int(_get(data, "max_copies", path), path + ".max_copies"),
        max_copies_exceptions=tuple(exceptions),
        legend_cap=_int_or_none(_get(data, "legend_cap", path), path + ".legend_cap"),
        legend_max_copies=_int_or_none(_get(data, "legend_max_copies", path), path + ".legend_max_copies"),
        level_cap=_int_or_none(_get(data, "level_cap", path), path + ".level_cap"),
        cnt_cap=_int_or_none(_get(data, "cnt_cap", path), path + ".cnt_cap"),
        allow_negative_levels=_bool(_get(data, "allow_negative_levels", path), path + ".allow_negative_levels"),
        card_pool=pool,
        faction_quota=_int_or_none(_get(data, "faction_quota", path), path + ".faction_quota"),
        banned_cards=frozenset(_str_list(_get(data, "banned_cards", path), path + ".banned_cards")),
        resource_cards=_int(_get(data, "resource_cards", path), path + ".resource_cards"),
    )


def parse_ruler(data: Mapping[str, Any]) -> DeckRules:
    """Check a ruler object's shape and return its deck rules; raises RulesDataError naming the field."""
    if not isinstance(data, Mapping):
        raise RulesDataError("ruler: expected an object")
    for key in (
        "name",
        "life",
        "atk",
        "stk",
        "zones",
        "setup",
        "start_of_turn",
        "abilities",
    ):
        _get(data, key, "ruler")
    return parse_deck_rules(_get(data, "deck_construction", "ruler"))


def parse_geas(data: Mapping[str, Any]) -> None:
    """Check a geas object's shape; raises RulesDataError naming the entry."""
    if not isinstance(data, Mapping):
        raise RulesDataError("geas: expected an object")
    _get(data, "name", "geas")
    _get(data, "target_ruler", "geas")
    for section in ("modifications", "additions"):
        entries = _get(data, section, "geas")
        if not isinstance(entries, list):
            raise RulesDataError(f"geas.{section}: expected a list")
        for i, entry in enumerate(entries):
            ops = {k for k in ("set", "append") if k in entry}
            if len(ops) != 1 or not isinstance(entry[ops.pop()], Mapping):
                raise RulesDataError(f"geas.{section}[{i}]: expected exactly one of 'set' or 'append' objects")


def apply_geas(ruler: Mapping[str, Any], geas: Mapping[str, Any]) -> dict[str, Any]:
    """The ruler object with the geas's modifications and additions applied (a new object)."""
    parse_geas(geas)
    patched = copy.deepcopy(dict(ruler))
    for section in ("modifications", "additions"):
        for i, entry in enumerate(geas[section]):
            where = f"{geas['name']}: {section}[{i}]"
            for dotted, value in entry.get("set", {}).items():
                parent, key = _walk(patched, dotted, where)
                parent[key] = copy.deepcopy(value)
            for dotted, values in entry.get("append", {}).items():
                parent, key = _walk(patched, dotted, where)
                if not isinstance(parent[key], list):
                    raise RulesDataError(f"{where}: '{dotted}' is not a list")
                parent[key] = [*parent[key], *copy.deepcopy(values)]
    return patched


def _walk(obj: dict[str, Any], dotted: str, where: str) -> tuple[dict[str, Any], str]:
    *parents, last = dotted.split(".")
    for part in parents:
        if not isinstance(obj.get(part), dict):
            raise RulesDataError(f"{where}: '{dotted}' does not name a field of the ruler")
        obj = obj[part]
    if last not in obj:
        raise RulesDataError(f"{where}: '{dotted}' does not name a field of the ruler")
    return obj, last


def rules_in_force(ruler: Mapping[str, Any], geas: Mapping[str, Any] | None = None) -> RulesInForce:
    """The rules a deck is judged by, for a ruler object and an optional geas object."""
    own = parse_ruler(ruler)
    if geas is None:
        return RulesInForce(ruler=ruler["name"], deck=own, profile=ruler, own_deck=own)
    if geas["target_ruler"] != ruler["name"]:
        raise RulesDataError(f"{geas['name']} is an oath for {geas['target_ruler']}, not for {ruler['name']}")
    patched = apply_geas(ruler, geas)
    deck = parse_ruler(patched)
    changed = frozenset(f.name for f in fields(DeckRules) if getattr(deck, f.name) != getattr(own, f.name))
    return RulesInForce(
        ruler=ruler["name"],
        deck=deck,
        profile=patched,
        geas=geas["name"],
        own_deck=own,
        changed=changed,
    )


T = TypeVar("T")


def in_force_on(revisions: Sequence[tuple[date, T]], on: date) -> T | None:
    """The revision in force on a date: the latest that took effect on or before it."""
    best: tuple[date, T] | None = None
    for effective_from, revision in revisions:
        if effective_from <= on and (best is None or effective_from > best[0]):
            best = (effective_from, revision)
    return best[1] if best else None
