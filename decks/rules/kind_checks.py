"""The rule kinds a game's data can use: for each, its check, its "can I add this?" hint and its meter (pure).

Each function reads its numbers from the rule's parameters and its words (section and type
labels) from the game's data, never a game's name; kinds.py declares each kind once. A hint
tests one card against the deck's tally: it names the rule only when the copy would break it
or make it worse, so a card that fits gets no reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game_tally import Judging
from .games import GameDefinition, GameRule
from .rule_hints import ordinal
from .rule_meters import Meter, names_shown
from .types import CardFacts, Violation
from .wording import Label, Wording, chained, either, gettext_noop, labels_joined, lower_case

# ---------------------------------------------------------------- section_size

# (bound, one card?) -> the sentence; the bound is the rule's parameter the deck misses.
_SIZE_WORDS = {
    ("exactly", True): gettext_noop("The %(section)s has %(size)s card; it must have exactly %(want)s."),
    ("exactly", False): gettext_noop("The %(section)s has %(size)s cards; it must have exactly %(want)s."),
    ("min", True): gettext_noop("The %(section)s has %(size)s card; it must have at least %(want)s."),
    ("min", False): gettext_noop("The %(section)s has %(size)s cards; it must have at least %(want)s."),
    ("max", True): gettext_noop("The %(section)s has %(size)s card; it may have at most %(want)s."),
    ("max", False): gettext_noop("The %(section)s has %(size)s cards; it may have at most %(want)s."),
}


def size_missed(size: int, params: Any) -> tuple[str, int] | None:
    """The bound (exactly, min or max) a section of `size` cards misses, with its number; None if it keeps them."""
    exactly, least, most = params.get("exactly"), params.get("min"), params.get("max")
    if exactly is not None and size != exactly:
        return "exactly", exactly
    if least is not None and size < least:
        return "min", least
    if most is not None and size > most:
        return "max", most
    return None


def size_ceiling(params: Any) -> int | None:
    """The most cards the section may hold (exactly or max); None when it has no ceiling."""
    ceiling = params.get("exactly", params.get("max"))
    return ceiling if isinstance(ceiling, int) else None


def check_section_size(j: Judging, rule: GameRule) -> list[Violation]:
    section = j.game.section(rule.params["section"])
    size = j.tally.size(section.key)
    missed = size_missed(size, rule.params)
    if missed is None:
        return []
    bound, want = missed
    wording = Wording(_SIZE_WORDS[bound, size == 1], {"section": section.called(), "size": size, "want": want})
    return [Violation.worded(_code(rule), wording, (), rule.source)]


def hint_section_size(j: Judging, rule: GameRule, card: CardFacts, section: str) -> Wording | None:
    ceiling = size_ceiling(rule.params)
    if section != rule.params["section"] or ceiling is None:
        return None
    size = j.tally.size(section)
    if size + 1 <= ceiling:
        return None
    words = {"section": j.game.section(section).called(), "size": size, "limit": ceiling}
    return Wording(gettext_noop("the %(section)s is full (%(size)s/%(limit)s)"), words)


def meter_section_size(j: Judging, rule: GameRule) -> list[Meter]:
    section = j.game.section(rule.params["section"])
    size = j.tally.size(section.key)
    params = rule.params
    if params.get("exactly") is not None:
        return [Meter(_code(rule), section.label, size, params["exactly"], exact=True)]
    if params.get("max") is not None:
        return [Meter(_code(rule), section.label, size, params["max"])]
    return [Meter(_code(rule), section.label, size, params.get("min"), at_least=True)]


# ---------------------------------------------------------------- section_types


def _types_words(game: GameDefinition, types: Sequence[str]) -> str:
    return either([game.type_label(t) for t in types])


def check_section_types(j: Judging, rule: GameRule) -> list[Violation]:
    out = []
    allowed: dict[str, list[str]] = rule.params["allowed"]
    for section in j.game.sections:
        if section.key not in allowed:
            continue
        wrong = sorted(n for n in j.tally.names(section.key) if j.tally.cards[n].type not in allowed[section.key])
        if wrong:
            words = {
                "types": _types_words(j.game, allowed[section.key]),
                "section": section.called(),
                "cards": tuple(wrong),
            }
            wording = Wording(gettext_noop("Only %(types)s cards go in the %(section)s: %(cards)s."), words)
            out.append(Violation.worded(_code(rule), wording, tuple(wrong), rule.source))
    return out


def hint_section_types(j: Judging, rule: GameRule, card: CardFacts, section: str) -> Wording | None:
    allowed: dict[str, list[str]] = rule.params["allowed"]
    if section not in allowed or card.type in allowed[section]:
        return None
    words = {"type": j.game.type_label(card.type), "section": j.game.section(section).called()}
    return Wording(gettext_noop("a %(type)s card does not go in the %(section)s"), words)


# ---------------------------------------------------------------- max_copies


def copy_sections(game: GameDefinition, rule: GameRule) -> tuple[str, ...]:
    """The sections whose copies of a card count together (every section when the rule lists none)."""
    listed = rule.params.get("sections")
    return tuple(listed) if listed else game.section_keys()


def check_max_copies(j: Judging, rule: GameRule) -> list[Violation]:
    most: int = rule.params["max"]
    sections = copy_sections(j.game, rule)
    out = []
    for name in sorted(j.tally.cards):
        count = j.tally.copies(name, sections)
        if count > most:
            words = {"count": count, "name": name, "max": most}
            wording = Wording(gettext_noop("%(count)s copies of %(name)s; a deck may have at most %(max)s."), words)
            out.append(Violation.worded(_code(rule), wording, (name,), rule.source))
    return out


def hint_max_copies(j: Judging, rule: GameRule, card: CardFacts, section: str) -> Wording | None:
    sections = copy_sections(j.game, rule)
    if section not in sections:
        return None
    after = j.tally.copies(card.name, sections) + 1
    if after <= rule.params["max"]:
        return None
    words = {"nth": ordinal(after), "n": after, "max": rule.params["max"]}
    return Wording(gettext_noop("would be a %(nth)s copy; at most %(max)s"), words)


def meter_max_copies(j: Judging, rule: GameRule) -> list[Meter]:
    sections = copy_sections(j.game, rule)
    copies = {name: j.tally.copies(name, sections) for name in j.tally.cards}
    most = max(copies.values(), default=0)
    names = sorted(n for n, c in copies.items() if c == most and most)
    label = gettext_noop("Most copies of a card")
    return [Meter(_code(rule), label, most, rule.params["max"], detail=names_shown("cards", names))]


# ---------------------------------------------------------------- identity_choices


def card_values(card: CardFacts, field: str) -> tuple[str, ...]:
    """A card's value(s) of a choices field as a tuple; () for a card with none."""
    value = card.fields.get(field)
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple, frozenset, set)):
        return tuple(str(v) for v in value)
    return (str(value),)


def identity_allows(j: Judging, rule: GameRule) -> tuple[str, frozenset[str]] | None:
    """The identity card's name and the values it allows (each of its own); None without exactly one."""
    names = j.tally.names(rule.params["identity"])
    if len(names) != 1 or j.tally.size(rule.params["identity"]) != 1:
        # No identity card (or two): the identity section's own size rule says why; nothing to measure by.
        return None
    return names[0], frozenset(card_values(j.tally.cards[names[0]], rule.params["field"]))


def _shown(j: Judging, rule: GameRule, values: Sequence[str]) -> Label:
    """Choice values as players read them ("red/green"): each choice's label, lower-cased in an English sentence."""
    field = j.game.card_field(rule.params["field"])
    labels = {c.key: lower_case(c.label) for c in field.choices} if field is not None else {}
    return labels_joined("/", [labels.get(v, v) for v in values])


def _outside(j: Judging, rule: GameRule, allowed: frozenset[str]) -> list[str]:
    names = j.tally.names(rule.params["section"])
    return sorted(n for n in names if not set(card_values(j.tally.cards[n], rule.params["field"])) <= allowed)


def check_identity_choices(j: Judging, rule: GameRule) -> list[Violation]:
    identity = identity_allows(j, rule)
    if identity is None:
        return []
    name, allowed = identity
    outside = _outside(j, rule, allowed)
    if not outside:
        return []
    field = rule.params["field"]
    words = {
        "field": _field_label(j.game, field),
        "section": j.game.section(rule.params["identity"]).label,
        "identity": name,
        "allowed": _shown(j, rule, card_values(j.tally.cards[name], field)),
        "cards": tuple(
            Wording(
                gettext_noop("%(name)s (%(values)s)"),
                {"name": n, "values": _shown(j, rule, card_values(j.tally.cards[n], field))},
            )
            for n in outside
        ),
    }
    wording = Wording(
        gettext_noop("%(field)s not allowed by the %(section)s %(identity)s (%(allowed)s): %(cards)s."), words
    )
    return [Violation.worded(_code(rule), wording, tuple(outside), rule.source)]


def hint_identity_choices(j: Judging, rule: GameRule, card: CardFacts, section: str) -> Wording | None:
    if section == rule.params["identity"]:
        return _hint_new_identity(j, rule, card)
    if section != rule.params["section"]:
        return None
    identity = identity_allows(j, rule)
    if identity is None:
        return None
    refused = [v for v in card_values(card, rule.params["field"]) if v not in identity[1]]
    if not refused:
        return None
    words = {"section": j.game.section(rule.params["identity"]).label, "values": _shown(j, rule, refused)}
    return Wording(gettext_noop("the %(section)s does not allow %(values)s"), words)


def _hint_new_identity(j: Judging, rule: GameRule, card: CardFacts) -> Wording | None:
    """An identity card into an empty identity section: the cards it would not allow (a second one
    silences the rule, and the identity section's own size rule says why)."""
    if j.tally.size(rule.params["identity"]):
        return None
    outside = _outside(j, rule, frozenset(card_values(card, rule.params["field"])))
    if not outside:
        return None
    words = {"section": j.game.section(rule.params["section"]).called(), "cards": tuple(outside)}
    return Wording(gettext_noop("would not allow %(cards)s in the %(section)s"), words)


def meter_identity_choices(j: Judging, rule: GameRule) -> list[Meter]:
    identity = identity_allows(j, rule)
    outside = _outside(j, rule, identity[1]) if identity is not None else []
    section = j.game.section(rule.params["identity"]).label
    label = Wording(gettext_noop("Cards the %(section)s does not allow"), {"section": section})
    limit = 0 if identity is not None else None
    return [Meter(_code(rule), label, len(outside), limit, detail=names_shown("cards", outside))]


def line_label_identity_choices(game: GameDefinition, rule: GameRule) -> Wording:
    return Wording(
        gettext_noop("Not allowed by the %(section)s"), {"section": game.section(rule.params["identity"]).label}
    )


# ---------------------------------------------------------------- the rules panel's words


_RULE_WORDS = {
    ("exactly", True): gettext_noop("The %(section)s has exactly %(want)s card."),
    ("exactly", False): gettext_noop("The %(section)s has exactly %(want)s cards."),
    ("min", True): gettext_noop("The %(section)s has at least %(want)s card."),
    ("min", False): gettext_noop("The %(section)s has at least %(want)s cards."),
    ("max", True): gettext_noop("The %(section)s has at most %(want)s card."),
    ("max", False): gettext_noop("The %(section)s has at most %(want)s cards."),
}


def describe_section_size(game: GameDefinition, rule: GameRule) -> Wording:
    p, section = rule.params, game.section(rule.params["section"]).called()
    if p.get("exactly") is None and p.get("min") is not None and p.get("max") is not None:
        words = {"section": section, "least": p["min"], "most": p["max"]}
        return Wording(gettext_noop("The %(section)s has from %(least)s to %(most)s cards."), words)
    bound = next(key for key in ("exactly", "min", "max") if p.get(key) is not None)
    return Wording(_RULE_WORDS[bound, p[bound] == 1], {"section": section, "want": p[bound]})


def describe_section_types(game: GameDefinition, rule: GameRule) -> Wording:
    allowed: dict[str, list[str]] = rule.params["allowed"]
    parts = [
        Wording(
            gettext_noop("%(section)s: %(types)s"), {"section": s.called(), "types": _types_words(game, allowed[s.key])}
        )
        for s in game.sections
        if s.key in allowed
    ]
    sections = chained(gettext_noop("%(first)s; %(rest)s"), parts)
    return Wording(gettext_noop("Each section takes only its card types (%(sections)s)."), {"sections": sections})


def describe_max_copies(game: GameDefinition, rule: GameRule) -> Wording:
    called = [game.section(key).called() for key in copy_sections(game, rule)]
    sections = chained(gettext_noop("%(first)s and the %(rest)s"), called)
    words = {"max": rule.params["max"], "sections": sections}
    return Wording(gettext_noop("At most %(max)s copies of a card, counted over the %(sections)s."), words)


def describe_identity_choices(game: GameDefinition, rule: GameRule) -> Wording:
    words = {
        "section": game.section(rule.params["section"]).called(),
        "field": lower_case(_field_label(game, rule.params["field"])),
        "identity": game.section(rule.params["identity"]).label,
    }
    return Wording(gettext_noop("Every card in the %(section)s must be of a %(field)s its %(identity)s allows."), words)


def _field_label(game: GameDefinition, key: str) -> str:
    field = game.card_field(key)
    return field.label if field is not None else key


def _code(rule: GameRule) -> str:
    # Every kind but ruler_rules needs a code (kinds.check_rules refuses a rule without one).
    return rule.code or rule.kind
