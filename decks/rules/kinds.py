"""Every rule kind a game's data may use, declared once (pure, no Django).

A game's rule is {"code", "kind", ...parameters, "source"}; its kind names one entry here: the
parameters it takes (checked when the game file is read, so a typo names the file and rule),
its check, its "can I add this?" hint and its meter (kind_checks.py). `ruler_rules` is Gate
Ruler's whole registry (registry.RULES) judged by validate_deck, so Gate Ruler is a
game like the others. A fourth game needs only a data file; a new kind is one entry here plus
its small functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from . import kind_checks as k
from .game_tally import Blocker, Judging
from .games import GameDataError, GameDefinition, GameRule
from .hints import addition_blockers
from .meters import deck_meters
from .rule_meters import Meter
from .types import CardFacts, Violation
from .wording import Wording, gettext_noop

Check = Callable[[Judging, GameRule], list[Violation]]
# (judging, rule, card, section it would go in, printing) -> why one more copy breaks the rule.
Hint = Callable[[Judging, GameRule, CardFacts, str, str | None], list[Blocker]]
MeterReading = Callable[[Judging, GameRule], list[Meter]]
# (game, rule, where in the file) -> None, or GameDataError naming the parameter.
ParamCheck = Callable[[GameDefinition, GameRule, str], None]
# (game, rule) -> the rule in plain words with its numbers, for the rules panel.
Describe = Callable[[GameDefinition, GameRule], Wording]

RULER_RULES = "ruler_rules"


@dataclass(frozen=True, slots=True)
class Kind:
    key: str
    check: Check
    hint: Hint
    meter: MeterReading
    params: ParamCheck
    describe: Describe
    # What a deck line the rule flags says of it ("Too many copies"); None for a rule that flags no line.
    line_label: Callable[[GameDefinition, GameRule], Wording | None] = lambda game, rule: None


def _one(hint: Callable[[Judging, GameRule, CardFacts, str], Wording | None]) -> Hint:
    """A kind's hint as a list of blockers: its few words, if any, under the rule's code."""

    def blockers(j: Judging, rule: GameRule, card: CardFacts, section: str, printing: str | None) -> list[Blocker]:
        wording = hint(j, rule, card, section)
        return [] if wording is None else [Blocker(rule.code or rule.kind, wording)]

    return blockers


# ---------------------------------------------------------------- ruler_rules


def _ruler_check(j: Judging, rule: GameRule) -> list[Violation]:
    return list(j.ruler_report().violations)


def _ruler_hint(j: Judging, rule: GameRule, card: CardFacts, section: str, printing: str | None) -> list[Blocker]:
    rules = j.rules_in_force()
    reasons = addition_blockers(j.deck, rules, card, printing, section=section, report=j.ruler_report())
    # The ruler registry words its hints itself; its reasons carry no rule code.
    return [Blocker("", Wording(reason)) for reason in reasons]


def _ruler_meters(j: Judging, rule: GameRule) -> list[Meter]:
    return deck_meters(j.deck, j.rules_in_force())


def _ruler_words(game: GameDefinition, rule: GameRule) -> Wording:
    return Wording(gettext_noop("The deck-construction rules of the ruler in force (and of its geas, if any)."))


# ---------------------------------------------------------------- parameters


def _int(rule: GameRule, key: str, where: str, *, least: int = 0, required: bool = False) -> int | None:
    value = rule.params.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise GameDataError(f"{where}.{key}: expected a whole number of at least {least}, got {value!r}")
    return value


def _section(game: GameDefinition, rule: GameRule, key: str, where: str) -> str:
    value = rule.params.get(key)
    if value not in game.section_keys():
        raise GameDataError(
            f"{where}.{key}: {value!r} is not one of the game's sections ({', '.join(game.section_keys())})"
        )
    return str(value)


def _size_params(game: GameDefinition, rule: GameRule, where: str) -> None:
    _section(game, rule, "section", where)
    bounds = {key: _int(rule, key, where) for key in ("exactly", "min", "max")}
    if all(v is None for v in bounds.values()):
        raise GameDataError(f"{where}: a section_size rule needs exactly, min or max")
    if bounds["exactly"] is not None and (bounds["min"] is not None or bounds["max"] is not None):
        raise GameDataError(f"{where}: exactly cannot go with min or max")


def _types_params(game: GameDefinition, rule: GameRule, where: str) -> None:
    allowed = rule.params.get("allowed")
    if not isinstance(allowed, Mapping) or not allowed:
        raise GameDataError(f"{where}.allowed: expected an object of section -> card types")
    for section, types in allowed.items():
        if section not in game.section_keys():
            raise GameDataError(f"{where}.allowed: {section!r} is not one of the game's sections")
        if not isinstance(types, list) or any(t not in game.type_keys() for t in types):
            raise GameDataError(f"{where}.allowed.{section}: expected a list of the game's card types, got {types!r}")


def _copies_params(game: GameDefinition, rule: GameRule, where: str) -> None:
    _int(rule, "max", where, least=1, required=True)
    sections = rule.params.get("sections", [])
    if not isinstance(sections, list) or any(s not in game.section_keys() for s in sections):
        raise GameDataError(f"{where}.sections: expected a list of the game's sections, got {sections!r}")


def _identity_params(game: GameDefinition, rule: GameRule, where: str) -> None:
    identity = _section(game, rule, "identity", where)
    _section(game, rule, "section", where)
    if not game.section(identity).identity:
        raise GameDataError(f'{where}.identity: the section {identity!r} is not marked "identity": true')
    field = game.card_field(str(rule.params.get("field")))
    if field is None or field.kind != "choices":
        raise GameDataError(f"{where}.field: {rule.params.get('field')!r} is not a card field of kind 'choices'")


def _no_params(game: GameDefinition, rule: GameRule, where: str) -> None:
    extra = sorted(rule.params)
    if extra:
        raise GameDataError(f"{where}: a {rule.kind} rule takes no parameters, got {', '.join(extra)}")


KINDS: tuple[Kind, ...] = (
    Kind(
        "section_size",
        k.check_section_size,
        _one(k.hint_section_size),
        k.meter_section_size,
        _size_params,
        k.describe_section_size,
    ),
    Kind(
        "section_types",
        k.check_section_types,
        _one(k.hint_section_types),
        # No meter: a card in the wrong section is listed by its violation.
        lambda j, r: [],
        _types_params,
        k.describe_section_types,
        lambda game, rule: Wording(gettext_noop("Wrong section for its type")),
    ),
    Kind(
        "max_copies",
        k.check_max_copies,
        _one(k.hint_max_copies),
        k.meter_max_copies,
        _copies_params,
        k.describe_max_copies,
        lambda game, rule: Wording(gettext_noop("Too many copies")),
    ),
    Kind(
        "identity_choices",
        k.check_identity_choices,
        _one(k.hint_identity_choices),
        k.meter_identity_choices,
        _identity_params,
        k.describe_identity_choices,
        k.line_label_identity_choices,
    ),
    Kind(RULER_RULES, _ruler_check, _ruler_hint, _ruler_meters, _no_params, _ruler_words),
)

_BY_KEY = {kind.key: kind for kind in KINDS}


def rule_line_labels(game: GameDefinition) -> dict[str, Wording]:
    """What a deck line says of each of the game's rules that flags lines, by the rule's code."""
    labels = {}
    for rule in game.rules:
        label = _BY_KEY[rule.kind].line_label(game, rule)
        if rule.code and label is not None:
            labels[rule.code] = label
    return labels


def kind_get(key: str) -> Kind:
    """The kind with this key; KeyError for one no entry declares (check_rules refuses such data first)."""
    return _BY_KEY[key]


def check_rules(game: GameDefinition) -> None:
    """Refuse a game whose rules name an unknown kind, lack a code or give bad parameters (GameDataError)."""
    codes: set[str] = set()
    for i, rule in enumerate(game.rules):
        where = f"{game.slug}: rules[{i}]"
        kind = _BY_KEY.get(rule.kind)
        if kind is None:
            raise GameDataError(f"{where}.kind: {rule.kind!r} is not a rule kind ({', '.join(_BY_KEY)})")
        if rule.kind != RULER_RULES and not rule.code:
            raise GameDataError(f"{where}.code: a {rule.kind} rule needs a code (its violations carry it)")
        kind.params(game, rule, where)
        if rule.code is not None and rule.code in codes and rule.kind != _kind_of(game, rule.code):
            raise GameDataError(f"{where}.code: {rule.code!r} is used by a rule of another kind")
        codes.add(rule.code or "")


def _kind_of(game: GameDefinition, code: str) -> str:
    return next(r.kind for r in game.rules if r.code == code)
