"""Deck lists as text and as links: the text players paste and export, the JSON body, the share link."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db.models import F, Q
from django.utils.translation import gettext, pgettext

from cards.games import UnknownGameError, default_game, game_get, games
from cards.models import Attribute, Card, Geas, Printing, Ruler
from cards.rules_selectors import rules_choice_get
from decks.card_facts import card_facts_by_number
from decks.deck_view import DeckView, deck_view
from decks.decklists.link import DeckLinkError, LinkedDeck, decode_deck_link, encode_deck_link
from decks.decklists.text import (
    LineError,
    ParsedDeck,
    TextCard,
    TextWords,
    Vocabulary,
    format_deck_text,
    format_game_deck_text,
    line_fixed,
    parse_deck_text,
)
from decks.decklists.text_words import _KEPT, _w
from decks.models import MAX_LINE_COUNT, DeckDraft
from decks.rules.games import GameDefinition
from decks.rules.ruleset import RulesInForce
from decks.wording import game_name, word
from gatesite.clock import site_today
from gatesite.errors import ApplicationError


def _games_vocabulary() -> dict[str, str]:
    """The names (in every language the data gives) and slugs a `Game:` line may use, each for its game's slug."""
    names: dict[str, str] = {}
    for slug, game in games().items():
        for name in (game.name, *game.name.texts.values()):
            names.setdefault(name, slug)
        names.setdefault(slug, slug)
    return names


def deck_text_vocabulary(*, game: str | None = None) -> Vocabulary:
    """Every name a pasted deck list of `game` (default: Gate Ruler) may use (decks.decklists.text): its
    cards (and their Japanese names), the games a `Game:` line may name, and its list form's own words
    (_LIST_FORMS: the rulers, geases and attributes, or the sections' headings)."""
    definition = game_get(game) if game else default_game()
    cards: dict[str, str] = {}
    for name, name_ja in Card.objects.filter(game=definition.slug).order_by().values_list("name", "name_ja"):
        cards[name] = name
        if name_ja:
            cards.setdefault(name_ja, name)
    words = _LIST_FORMS[definition.identity].words(definition)
    return Vocabulary(cards=cards, games=_games_vocabulary(), **words)


def _ruler_words(game: GameDefinition) -> dict[str, Any]:
    """The rulers (by name, Japanese name, slug and code), geases and attributes a list may name (three queries)."""
    rulers: dict[str, str] = {}
    for slug, name, name_ja, code in Ruler.objects.values_list("slug", "name", "name_ja", "code"):
        for alias in (name, name_ja, slug, code, f"{code} {name}" if code else ""):
            if alias:
                rulers.setdefault(alias, name)
    geases: dict[str, str] = {}
    for slug, name in Geas.objects.values_list("slug", "name"):
        geases[name] = name
        geases.setdefault(slug, name)
    return {"rulers": rulers, "geases": geases, "attributes": list(Attribute.objects.values_list("name", flat=True))}


def _section_words(game: GameDefinition) -> dict[str, Any]:
    """The headings (and labels) of the game's sections that lists write under a heading."""
    headings: dict[str, str] = {}
    for section in game.sections:
        if section.heading:
            # Every language's heading and label: a list exported in Japanese reads back in an English session too.
            for word_of in (section.heading, section.label):
                for text in (word_of, *word_of.texts.values()):
                    headings.setdefault(text, section.key)
    return {"sections": headings, "section_headings": tuple(s.heading for s in game.sections if s.heading)}


def deck_draft_text(*, draft: DeckDraft) -> str:
    """A draft (or a saved deck's, see deck_draft_of) as the plain-text list players paste (decks.decklists.text),
    in its game's list form (_LIST_FORMS)."""
    game = game_get(draft.game)
    facts = card_facts_by_number(game, draft.numbers())

    def cards(section: str) -> list[TextCard]:
        # Each card by the name the player reads (Japanese where the card has one): the reader knows both.
        return [
            TextCard(count, game_name(facts[number].name), facts[number].type, facts[number].level)
            for number, count in draft.section(section).items()
            if number in facts
        ]

    return _LIST_FORMS[game.identity].text(draft, game, cards)


def _ruler_text(draft: DeckDraft, game: GameDefinition, cards: Callable[[str], list[TextCard]]) -> str:
    """Its headings (ruler, geas, attribute, rules date), then the deck by type and its resources."""
    ruler = Ruler.objects.filter(slug=draft.ruler).values_list("name", flat=True).first() or draft.ruler
    ruler = game_name(ruler)
    geas = None
    if draft.geas:
        geas = Geas.objects.filter(slug=draft.geas).values_list("name", flat=True).first() or draft.geas
    return format_deck_text(
        ruler=ruler,
        geas=geas,
        attribute=draft.attribute,
        rules_date=draft.rules_date,
        name=draft.name,
        main=cards("main"),
        resources=cards("resources"),
        words=list_words(),
    )


def _sections_text(draft: DeckDraft, game: GameDefinition, cards: Callable[[str], list[TextCard]]) -> str:
    """`Game:`, the main deck by type and each other section under its heading."""
    return format_game_deck_text(
        game=game_name(game.name),
        name=draft.name,
        main=cards("main"),
        sections=[(word(s.heading), cards(s.key)) for s in game.sections if s.heading],
        type_labels={t.key: word(t.label) for t in game.card_types},
        words=list_words(),
    )


def list_words() -> TextWords:
    """A written list's words in the active language (the reader, decks.decklists.text, knows every language's)."""
    return TextWords(
        ruler=pgettext("deck list", "Ruler"),
        geas=pgettext("deck list", "Geas"),
        attribute=pgettext("deck list", "Attribute"),
        rules_date=pgettext("deck list", "Rules date"),
        resources=pgettext("deck list", "Resources"),
        game=pgettext("deck list", "Game"),
        other=pgettext("deck list", "Other"),
        # Translators: what follows a heading in a deck list ("Ruler: Apprentice"): Japanese, the full-width colon alone.
        colon=pgettext("deck list", ": "),
        type_headings={
            "unit": pgettext("deck list", "Units"),
            "event": pgettext("deck list", "Events"),
            "field": pgettext("deck list", "Fields"),
            "energy": pgettext("deck list", "Energy"),
        },
    )


def _ruler_chosen(draft: DeckDraft) -> dict[str, Any]:
    """The rules chosen as the validate body names them."""
    return {
        "ruler": draft.ruler,
        "geas": draft.geas,
        "as_of": draft.rules_date.isoformat() if draft.rules_date else None,
        "attribute": draft.attribute or None,
    }


def _no_headings(*, parsed: ParsedDeck, draft: DeckDraft) -> tuple[dict[str, Any], list[str]]:
    """A list of a game whose identity is a card names no rules chosen: its identity card is in its sections."""
    return {}, []


def deck_draft_validate_body(*, draft: DeckDraft) -> dict[str, Any]:
    """A draft as the body POST /api/v1/decks/validate/ takes (printings by collector number): its game where
    its form names one, the rules chosen where its list form has them (_LIST_FORMS), and each of its game's
    sections."""
    game = game_get(draft.game)
    body: dict[str, Any] = {} if draft.form_game is None else {"game": draft.form_game}
    body.update(_LIST_FORMS[game.identity].chosen(draft))
    for key in game.section_keys():
        body[key] = [{"number": n, "count": c} for n, c in sorted(draft.section(key).items())]
    return body


@dataclass(frozen=True)
class TextImport:
    """What pasting a deck list would make of a draft, before the player confirms it.

    `draft` is the draft the text makes (None when a blocking line, a ruler or geas that
    cannot be used, leaves nothing to confirm); `errors` every line left out; `kept` what the
    text does not say and the current draft keeps.
    """

    parsed: ParsedDeck
    draft: DeckDraft | None
    # The draft judged, as the preview shows it (decks/deck_view.py).
    state: DeckView | None
    errors: tuple[LineError, ...]
    kept: tuple[str, ...]
    # The text read: the one pasted, or with one line fixed to its suggestion (deck_text_import's `fix`).
    text: str = ""

    @property
    def blocked(self) -> bool:
        return self.draft is None

    @property
    def fingerprint(self) -> str:
        """Names this exact result, so a confirm can tell the result has not changed since the preview."""
        if self.draft is None:
            return ""
        raw = json.dumps(self.draft.to_session(), sort_keys=True).encode()
        return hashlib.sha256(raw).hexdigest()[:32]


# Headings that decide which rules judge the deck, and section headings: with one of them wrong there is
# no deck to confirm.
_BLOCKING_FIELDS = frozenset({"ruler", "geas", "attribute", "rules_date", "heading", "game", "section"})


def _text_parsed(text: str, game: str, fix: int | None) -> tuple[ParsedDeck, str]:
    """The text read with `game`'s names, after the fix the player accepted (if any); and the text read."""
    vocabulary = deck_text_vocabulary(game=game)
    parsed = parse_deck_text(text, vocabulary, max_count=MAX_LINE_COUNT)
    if fix is not None:
        for error in parsed.errors:
            if error.number == fix and error.suggestion:
                text = line_fixed(text, error)
                parsed = parse_deck_text(text, vocabulary, max_count=MAX_LINE_COUNT)
                break
    return parsed, text


def _text_of_its_game(
    text: str, draft: DeckDraft, fix: int | None, game_fixed: bool
) -> tuple[ParsedDeck, str, DeckDraft, TextImport | None]:
    """The text read by its game's names (its `Game:` line, else the draft's game), and the draft it
    goes over: a new one of the text's game when that differs; a refusal when the game is `game_fixed`."""
    parsed, text = _text_parsed(text, draft.game, fix)
    if parsed.game is None or parsed.game == draft.game:
        return parsed, text, draft, None
    if game_fixed:
        line = parsed.heading_lines.get("game", 0)
        message = gettext("This deck is a %(game)s deck; its game does not change.") % {
            "game": game_name(game_get(draft.game).name)
        }
        refused = TextImport(parsed, None, None, (*parsed.errors, LineError(line, "", message, field="game")), (), text)
        return parsed, text, draft, refused
    draft = DeckDraft(name=draft.name, description=draft.description, game=parsed.game)
    parsed, text = _text_parsed(text, parsed.game, None)
    return parsed, text, draft, None


def deck_text_import(
    *, text: str, draft: DeckDraft, today: date | None = None, fix: int | None = None, game_fixed: bool = False
) -> TextImport:
    """Read a pasted deck list against the catalog and make the draft it describes (nothing is saved).

    1. Parse the text with every known name (decks.decklists.text.parse_deck_text).
    2. Headings: a text that names its ruler describes the whole deck, so a missing Geas,
       Attribute or Rules date line means none; a text without a Ruler line keeps the
       draft's ruler, geas, attribute and rules date unless it gives them.
    3. Each card name becomes printings: the draft's own printings of that name in that section
       (keeping their split when the count is unchanged), else the newest printing in the
       ruler's collector-number pool, else the newest printing.
    4. The considering board, name and description stay the draft's.

    `fix`: a line number whose "Did you mean …?" the player accepted: that line takes its
    suggestion first, and the result reads the fixed text (TextImport.text).

    The game: the text's `Game:` line, else the draft's. A text of another game than the draft's
    is read with that game's names and makes a new draft of it, unless `game_fixed` (a saved
    deck, whose game does not change): then the `Game:` line is an error that blocks.
    """
    parsed, text, draft, refused = _text_of_its_game(text, draft, fix, game_fixed)
    if refused is not None:
        return refused
    game = game_get(draft.game)
    errors = list(parsed.errors)
    chosen, kept = _LIST_FORMS[game.identity].headings(parsed=parsed, draft=draft)
    # A heading that decides the rules, or a section heading the game does not have (the cards under it
    # would land in the wrong section), leaves nothing to confirm.
    if any(e.field in _BLOCKING_FIELDS for e in errors):
        return TextImport(parsed, None, None, tuple(errors), tuple(kept), text)
    rules = None
    if "ruler" in chosen:  # the rules chosen, where the list's form names them
        on = chosen["rules_date"] or today or site_today()
        try:
            rules = rules_choice_get(ruler_slug=chosen["ruler"], geas_slug=chosen["geas"], on=on).rules
        except ApplicationError as exc:
            where = "geas" if chosen["geas"] and "geas" in parsed.heading_lines else "ruler"
            number = parsed.heading_lines.get(where, 0)
            errors.append(LineError(number, "", exc.message, field=where))
            return TextImport(parsed, None, None, tuple(errors), tuple(kept), text)
    sections, missing = _text_printings(parsed=parsed, draft=draft, game=game, rules=rules)
    for line in parsed.lines:
        if line.name in missing:
            message = gettext("“%(name)s” has no printing in the catalog.") % {"name": line.name}
            errors.append(LineError(line.number, "", message, field="card"))
    new = replace(
        draft,
        **chosen,
        name=parsed.name if parsed.name is not None else draft.name,
        main=sections.pop("main", {}),
        resources=sections.pop("resources", {}),
        others={key: counts for key, counts in sections.items() if counts},
    )
    state = deck_view(draft=new, today=today)
    return TextImport(parsed, new, state, tuple(sorted(errors, key=lambda e: e.number)), tuple(kept), text)


def _text_headings(*, parsed: ParsedDeck, draft: DeckDraft) -> tuple[dict[str, Any], list[str]]:
    """The ruler, geas, attribute and rules date a pasted list gives (deck_text_import, step 2), and
    what it leaves to the draft."""
    if parsed.ruler is not None:
        ruler_slug = Ruler.objects.filter(name=parsed.ruler).values_list("slug", flat=True).get()
        geas_slug = _geas_slug(parsed.geas) if parsed.geas else None
        chosen = {
            "ruler": ruler_slug,
            "geas": geas_slug,
            "attribute": parsed.attribute or "",
            "rules_date": parsed.rules_date,
        }
        return chosen, []
    geas_slug = _geas_slug(parsed.geas) if parsed.geas is not None else draft.geas
    attribute = parsed.attribute if parsed.attribute is not None else draft.attribute
    rules_date = parsed.rules_date if "rules_date" in parsed.heading_lines else draft.rules_date
    # Wordings (the page words them; their English is the key as a sentence says it: "rules date").
    kept = [
        _w(_KEPT[k])
        for k in ("ruler", "geas", "attribute", "rules_date")
        if k == "ruler" or k not in parsed.heading_lines
    ]
    return {"ruler": draft.ruler, "geas": geas_slug, "attribute": attribute, "rules_date": rules_date}, kept


@dataclass(frozen=True)
class _ListForm:
    """How a game's deck lists say what is not a card, by the kind of its identity (GameDefinition.identity)."""

    # The Vocabulary's names besides the cards and games.
    words: Callable[[GameDefinition], dict[str, Any]]
    # The draft as text, given its cards of a section.
    text: Callable[[DeckDraft, GameDefinition, Callable[[str], list[TextCard]]], str]
    # The rules chosen a pasted list gives, and what it leaves to the draft (deck_text_import, step 2).
    headings: Callable[..., tuple[dict[str, Any], list[str]]]
    # The rules chosen as the validate body names them.
    chosen: Callable[[DeckDraft], dict[str, Any]]


# Every kind of identity a game's data may give (decks.rules.games: "ruler" or "card").
_LIST_FORMS = {
    "ruler": _ListForm(words=_ruler_words, text=_ruler_text, headings=_text_headings, chosen=_ruler_chosen),
    "card": _ListForm(words=_section_words, text=_sections_text, headings=_no_headings, chosen=lambda draft: {}),
}


def _geas_slug(name: str) -> str | None:
    return Geas.objects.filter(name=name).values_list("slug", flat=True).first() if name else None


def _text_printings(
    *, parsed: ParsedDeck, draft: DeckDraft, game: GameDefinition, rules: RulesInForce | None
) -> tuple[dict[str, dict[str, int]], set[str]]:
    """Copies per collector number for each of the game's sections of a parsed text (see deck_text_import,
    step 3), and the names it gives that have no printing. One query."""
    keys = game.section_keys()
    names = {name for key in keys for name in parsed.section(key)}
    rows = (
        Printing.objects.filter(Q(card__name__in=names) | Q(collector_number__in=draft.numbers()), card__game=game.slug)
        .order_by(F("card_set__release_date").desc(nulls_last=True), "-collector_number")
        .values_list("card__name", "collector_number")
    )
    newest: dict[str, list[str]] = {}
    name_of: dict[str, str] = {}
    for name, number in rows:
        newest.setdefault(name, []).append(number)
        name_of[number] = name
    pool = rules.deck.card_pool if rules is not None else None
    prefixes = pool.collector_number_prefixes if pool is not None and pool.collector_number_prefixes else None
    out: dict[str, dict[str, int]] = {}
    for section in keys:
        have: dict[str, dict[str, int]] = {}
        for number, count in draft.section(section).items():
            if number in name_of:
                have.setdefault(name_of[number], {})[number] = count
        counts: dict[str, int] = {}
        for name, total in parsed.section(section).items():
            printings = newest.get(name)
            if not printings:
                continue
            own = have.get(name)
            if own:
                counts.update(_split(own, total))
                continue
            in_pool = [n for n in printings if prefixes and n.startswith(prefixes)]
            number = (in_pool or printings)[0]
            counts[number] = counts.get(number, 0) + total
        out[section] = counts
    return out, names - newest.keys()


def _split(own: dict[str, int], total: int) -> dict[str, int]:
    """`total` copies over the printings a deck already has: the same split if the count is unchanged,
    else more or fewer of its most-used printing first."""
    ordered = sorted(own.items(), key=lambda kv: (-kv[1], kv[0]))
    have = sum(own.values())
    if total >= have:
        first, count = ordered[0]
        return {**own, first: count + total - have}
    out: dict[str, int] = {}
    left = total
    for number, count in ordered:
        if left <= 0:
            break
        out[number] = min(count, left)
        left -= out[number]
    return out


def deck_draft_link(*, draft: DeckDraft) -> str:
    """The share code of a draft (decks.decklists.link): the whole deck, no account or database row needed.

    The rules chosen where the draft has a ruler, its game where its form names one (the default game's
    links name none: the form links had before there were other games), its sections."""
    # The rules chosen go with a ruler: a deck without one (another game's) links none of them.
    chosen = (draft.ruler, draft.geas, draft.attribute, draft.rules_date) if draft.ruler else ("", None, "", None)
    ruler, geas, attribute, rules_date = chosen
    others = {key: counts for key, counts in draft.others.items() if counts}
    return encode_deck_link(
        LinkedDeck(
            ruler=ruler,
            geas=geas,
            attribute=attribute,
            rules_date=rules_date,
            main=draft.main,
            resources=draft.resources,
            name=draft.name,
            game=draft.form_game,
            sections=others,
        )
    )


def deck_draft_from_link(*, code: str) -> DeckDraft:
    """The draft a share code carries; ApplicationError (the DeckLinkError's message) if it is not one, or
    naming a game or section this site does not serve (a link without a game is the default game's)."""
    try:
        linked = decode_deck_link(code)
    except DeckLinkError as exc:
        # Worded here, in the player's language: the pure link module keeps the template and values.
        raise ApplicationError(word(exc.args[0])) from exc
    try:
        game = game_get(linked.game) if linked.game is not None else default_game()
    except UnknownGameError as exc:
        raise ApplicationError(
            gettext("The link's deck is of a game this site does not serve (%(game)s).") % {"game": linked.game}
        ) from exc
    sections = {"main": linked.main, "resources": linked.resources, **linked.sections}
    keys = game.section_keys()
    for key, counts in sections.items():
        if counts and key not in keys:
            raise ApplicationError(
                gettext("The link's deck has a section %(game)s decks do not have (%(section)s).")
                % {"game": game_name(game.name), "section": key}
            )
    # A link that names its game carries no rules chosen (decode_deck_link reads none of them).
    return DeckDraft.of_sections(
        {key: dict(counts) for key, counts in sections.items() if key in keys},
        game=game.slug,
        name=linked.name,
        ruler=linked.ruler,
        geas=linked.geas,
        attribute=linked.attribute,
        rules_date=linked.rules_date,
    )
