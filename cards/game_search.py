"""Card search for the games besides the default one: the query's fields are the game's own, from its data.

A game's `search` (data/games/<slug>.json) maps what a player types to a field: `c` and `colour`
to `colours`, `lv` to `level`, `t` to the card type. Each field searches by its kind, so no game
is named here:

    c:red  t:spell  cost<=2  lv<=2  instant  race:elf  spell:quick  -c:blue  "draw 1"  name:squire

- `int` fields compare with a number (`:`, `=`, `<`, `<=`, `>`, `>=`);
- `choices` fields take a choice by key or label, or their first letters (`spell:quick`);
- `text` fields contain the words; `bool` fields are bare words (`instant`, `-instant`);
- `t:` takes a card type of the game; `name:` and free words search as for Gate Ruler.

A key the game does not have is a QueryError naming it and the game's keys. The parse is pure;
game_search_condition turns the terms into one Q over Card.fields (JSON keys, so SQLite and
PostgreSQL alike).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from decks.rules.games import CardField, GameDefinition
from decks.rules.wording import Label, Wording, gettext_noop

from .folding import fold
from .models import Printing
from .names import active_language, choice_word, label_text
from .search import MAX_LEVEL, MAX_QUERY_LENGTH, HelpEntry, QueryError, too_long_message

# What every game searches besides its own fields.
TYPE, NAME, SET, TEXT = "type", "name", "set", "text"
# Japanese too: a card set is カードセット (セット is a card's own word in the games: Gate Ruler's set zone,
# Ruler's Gambit's Set spells).
_COMMON_KEYS = {"t": TYPE, "type": TYPE, "name": NAME, "set": SET, "名前": NAME, "カード名": NAME, "カードセット": SET}
# A field's key is Latin (c:, cost<=) or Japanese (色:, コスト<=: the game's data names its aliases).
_TOKEN = re.compile(r'(-?)(?:([A-Za-z_\u3040-\u30ff\u3400-\u9fff]+)(<=|>=|:|=|<|>))?("[^"]*"?|\S*)')
_INT = re.compile(r"[+-]?[0-9]+")
_LOOKUPS = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


@dataclass(frozen=True)
class GameTerm:
    """One condition: `key` is a card field's key, or TYPE, NAME, SET or TEXT; `value` as the field compares it."""

    key: str
    value: str | int | bool
    op: str = "="
    negated: bool = False
    token: str = ""


def game_search_keys(game: GameDefinition) -> dict[str, str]:
    """What a player may type before ":" (or a comparison), to the field it searches."""
    keys = dict(_COMMON_KEYS)
    keys.update({f.key: f.key for f in game.card_fields})
    keys.update({alias.casefold(): target for alias, target in game.search.items()})
    return keys


def game_query_parse(game: GameDefinition, query: str) -> tuple[GameTerm, ...]:
    """The terms of a query of this game's search; QueryError naming a token it cannot read."""
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(too_long_message(len(query)))
    text = unicodedata.normalize("NFKC", query)
    keys = game_search_keys(game)
    terms = []
    for match in _TOKEN.finditer(text):
        negated, key, op, value = match.group(1) == "-", match.group(2), match.group(3), match.group(4)
        token = match.group(0)
        value = value[1:].rstrip('"') if value.startswith('"') else value
        if key is None:
            term = _bare_word(game, keys, value, negated, token)
        else:
            term = _field_term(game, keys, key.casefold(), op, value, negated, token)
        if term is not None:
            terms.append(term)
    return tuple(terms)


def _bare_word(game: GameDefinition, keys: dict[str, str], word: str, negated: bool, token: str) -> GameTerm | None:
    target = keys.get(word.casefold())
    field = game.card_field(target) if target else None
    if field is not None and field.kind == "bool":
        return GameTerm(field.key, True, negated=negated, token=token)
    folded = " ".join(fold(word).split())
    return GameTerm(TEXT, folded, negated=negated, token=token) if folded else None


def _field_term(
    game: GameDefinition, keys: dict[str, str], key: str, op: str, value: str, negated: bool, token: str
) -> GameTerm:
    target = keys.get(key)
    if target is None:
        # The keys in the player's script (色, 種類 … in Japanese; c, t … in English), and in Japanese the Latin keys
        # of the fields with no Japanese one (a:, d:), joined as the player's language joins a list.
        short = {k for k in keys if len(k) <= 8}
        if active_language() == "ja":
            named = {keys[k] for k in short if not k.isascii()}
            shown = {k for k in short if not k.isascii() or keys[k] not in named}
        else:
            shown = {k for k in short if k.isascii()}
        known = pgettext("list separator", ", ").join(sorted(shown))
        raise QueryError(
            _('Unknown field "%(field)s" in "%(token)s"; %(game)s searches %(known)s')
            % {"field": key + op, "token": token, "game": label_text(game.name), "known": known},
            token=token,
        )
    value = " ".join(value.split())
    if not value:
        raise QueryError(
            _('Nothing after "%(field)s" in "%(token)s"') % {"field": key + op, "token": token}, token=token
        )
    field = game.card_field(target)
    if field is not None and field.kind == "int":
        return _int_term(field, op, value, negated, token)
    if op != ":" and op != "=":
        raise QueryError(
            _('"%(key)s" is not compared in "%(token)s"; write %(key)s:value') % {"key": key, "token": token},
            token=token,
        )
    if target == TYPE:
        labels = [(t.key, t.label) for t in game.card_types]
        return GameTerm(TYPE, _choice(labels, value, _("type"), token), negated=negated, token=token)
    if field is not None and field.kind == "choices":
        # A choice by its key or its label in any language of the data ("red", "Red", "赤").
        labels = [(c.key, c.label) for c in field.choices]
        what = label_text(field.label).lower()
        return GameTerm(field.key, _choice(labels, value, what, token), negated=negated, token=token)
    if field is not None and field.kind == "bool":
        return GameTerm(field.key, fold(value) in ("yes", "true", "1"), negated=negated, token=token)
    return GameTerm(target, fold(value), negated=negated, token=token)


def _int_term(field: CardField, op: str, value: str, negated: bool, token: str) -> GameTerm:
    if not _INT.fullmatch(value) or abs(int(value)) > MAX_LEVEL:
        raise QueryError(
            _('%(field)s must be a whole number in "%(token)s"; write %(key)s<=2')
            % {"field": label_text(field.label), "token": token, "key": token.split(op)[0]},
            token=token,
        )
    return GameTerm(field.key, int(value), op="=" if op == ":" else op, negated=negated, token=token)


def _choice(candidates: list[tuple[str, Label]], value: str, what: str, token: str) -> str:
    """The key of the choice named by its key or its label in any language, in full or by its first letters."""
    folded = fold(value)
    names = {key: {fold(key), *(fold(text) for text in label.texts.values())} for key, label in candidates}
    exact = [key for key, _label in candidates if folded in names[key]]
    found = exact or [key for key, _label in candidates if any(n.startswith(folded) for n in names[key])]
    if len(found) == 1:
        return found[0]
    # Each by the word the player may type: its key, or its label in the player's language.
    shown = {key: choice_word(key, label) for key, label in candidates}
    if found:
        raise QueryError(
            _('"%(value)s" in "%(token)s" could be %(choices)s; type more letters')
            % {"value": value, "token": token, "choices": _(" or ").join(shown[key] for key in found)},
            token=token,
        )
    raise QueryError(
        _('No %(what)s "%(value)s" in "%(token)s"; they are %(keys)s')
        % {"what": what, "value": value, "token": token, "keys": pgettext("list separator", ", ").join(shown.values())},
        token=token,
    )


def game_type_term(game: GameDefinition, card_type: str) -> GameTerm:
    """The browser's type filter (?type=) as a term; QueryError for a type the game lacks."""
    labels = [(t.key, t.label) for t in game.card_types]
    token = f"type={card_type}"
    return GameTerm(TYPE, _choice(labels, card_type, _("type"), token), token=token)


def game_search_help(game: GameDefinition) -> tuple[HelpEntry, ...]:
    """The search box's help for a game (like cards.search.SEARCH_HELP), made from its data; each meaning a Wording
    (worded in the player's language by the template), its labels the data's."""
    aliases: dict[str, list[str]] = {}
    for alias, target in game.search.items():
        aliases.setdefault(target, []).append(alias)
    entries = [
        HelpEntry("word", Wording(gettext_noop("Name or card text contains the word")), "draw"),
        HelpEntry("name:word", Wording(gettext_noop("Name contains it")), "name:squire"),
    ]
    type_keys = aliases.get(TYPE, ["t"])
    example_type = game.card_types[0].key
    types = Wording(gettext_noop("Type: %(types)s"), {"types": tuple(t.label for t in game.card_types)})
    entries.append(HelpEntry(f"{type_keys[0]}:type", types, f"{type_keys[0]}:{example_type}"))
    for field in game.card_fields:
        keys = aliases.get(field.key, [field.key])
        entries.append(_help_entry(field, keys))
    entries.append(HelpEntry("set:code", Wording(gettext_noop("Printed in the set")), "set:RG01"))
    entries.append(
        HelpEntry("-term", Wording(gettext_noop("Not: negates any term")), f"-{type_keys[0]}:{example_type}")
    )
    return tuple(entries)


def _help_entry(field: CardField, keys: list[str]) -> HelpEntry:
    key = keys[0]
    words = {"field": field.label}
    if field.kind == "int":
        meaning = Wording(gettext_noop("%(field)s compared with a number"), words)
        return HelpEntry(f"{key}<=2  {key}>=1  {key}=3", meaning, f"{key}<=2")
    if field.kind == "bool":
        return HelpEntry(key, Wording(gettext_noop("%(field)s cards"), words), key)
    if field.kind == "choices":
        meaning = Wording(
            gettext_noop("%(field)s: %(value)s"), {**words, "value": tuple(c.label for c in field.choices)}
        )
        return HelpEntry(f"{key}:{field.label.lower()}", meaning, f"{key}:{field.choices[0].key}")
    return HelpEntry(
        f"{key}:word", Wording(gettext_noop("%(field)s contains it"), words), f"{key}:{field.label.lower()}"
    )


def game_search_condition(game: GameDefinition, terms: tuple[GameTerm, ...]) -> Q:
    """One Q for the terms (AND) over the game's cards."""
    condition = Q(game=game.slug)
    for term in terms:
        q = _term_condition(game, term)
        condition &= ~q if term.negated else q
    return condition


def _term_condition(game: GameDefinition, term: GameTerm) -> Q:
    if term.key == TEXT:
        return Q(search_text__contains=term.value)
    if term.key == NAME:
        return Q(name__icontains=term.value)
    if term.key == TYPE:
        return Q(type=term.value)
    if term.key == SET:
        return Q(Exists(Printing.objects.filter(card_id=OuterRef("pk"), card_set__code__iexact=term.value)))
    field = game.card_field(term.key)
    assert field is not None, term.key
    lookup = f"fields__{field.key}"
    if field.kind == "int":
        # A null value (a free card's COST) is no number: it matches no comparison (SQLite would compare it).
        return Q(**{f"{lookup}__{_LOOKUPS[term.op]}": term.value}) & ~Q(**{lookup: None})
    if field.kind == "text":
        return Q(**{f"{lookup}__icontains": term.value})
    if field.kind == "choices" and field.many:
        # A list's members by position: JSON `contains` is not there on SQLite.
        return Q(*(Q(**{f"{lookup}__{i}": term.value}) for i in range(len(field.choices))), _connector=Q.OR)
    return Q(**{lookup: term.value})
