"""The deck API's answers, built through their models (decks.api.bodies) and dumped as JSON values.

Each builder fills the fields its model declares: the model refuses a missing or mistyped
field and drops any other, so the answer cannot drift from its schema. The one exception, the
validation (the API's busiest answer), is written as plain JSON values and tested against its
models instead.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rest_framework.request import Request

from decks.api.bodies import DeckDetailOutput, DeckOutput, DeckVerdict
from decks.drafts import DraftJudgement
from decks.models import Deck, Visibility
from decks.selectors import deck_card_lines, deck_is_owned_by
from decks.wording import word


def validation_output(*, judgement: DraftJudgement) -> dict[str, Any]:
    """POST /api/v1/decks/validate/'s answer for a deck of any game: the verdict, every violation in the
    request's language and the deck's figures.

    Its two shapes are the README's: DeckValidation for a game whose identity is a ruler (the ruler,
    geas and rules dates), GameDeckValidation for one whose identity is a card (the game, and its
    sections' card counts). Written as the JSON values the model dumps (dates as ISO strings, its
    fields in its order) rather than through it, which would validate and dump again what is built
    here on the API's busiest answer (docs/benchmarks.md). tests/decks/api/test_validation_output.py and
    test_game_validation_output.py check that the models read these values and dump them back unchanged.
    """
    report, choice = judgement.report, judgement.choice
    violations = [
        {"rule": v.rule, "message": word(v), "cards": list(v.cards), "source": word(v.source)}
        for v in report.violations
    ]
    if choice is None:
        game, deck = judgement.game, judgement.deck
        return {
            "legal": report.legal,
            "game": game.slug,
            "as_of": judgement.on.isoformat(),
            "violations": violations,
            "summary": {key: sum(entry.count for entry in deck.section(key)) for key in game.section_keys()},
        }
    summary = report.summary
    return {
        "legal": report.legal,
        "ruler": choice.ruler.slug,
        "geas": choice.geas.slug if choice.geas else None,
        "as_of": choice.on.isoformat(),
        "rules_effective_from": choice.ruler_revision.effective_from.isoformat(),
        "rules_note": choice.note or None,
        "violations": violations,
        "summary": {
            "size": summary.size,
            "level": summary.level,
            "cnt": summary.cnt,
            "legends": summary.legends,
            "factions": list(summary.factions),
            "resources": summary.resources,
        },
    }


def deck_output(*, deck: Deck, request: Request | None) -> dict[str, Any]:
    """A saved deck without its cards (expects deck_api_queryset's select_related)."""
    return DeckOutput(**_deck_fields(deck, request)).model_dump(mode="json")


def deck_detail_output(*, deck: Deck, request: Request | None) -> dict[str, Any]:
    """A saved deck with its main deck and resources; one query for the cards."""
    lines = deck_card_lines(deck=deck)
    return DeckDetailOutput(
        **_deck_fields(deck, request),
        **{key: [asdict(line) for line in section] for key, section in lines.items()},
    ).model_dump(mode="json")


def _deck_fields(deck: Deck, request: Request | None) -> dict[str, Any]:
    return {
        "public_id": deck.public_id,
        "url": _url(deck, request),
        "name": deck.name,
        "description": deck.description,
        "visibility": deck.visibility,
        "owner": deck.owner.username,
        "game": deck.game,
        "ruler": deck.ruler.slug if deck.ruler is not None else None,
        "geas": deck.geas.slug if deck.geas is not None else None,
        "attribute": deck.attribute or None,  # null as in the validate API's body, not ""
        "rules_date": deck.rules_date,
        "version": deck.version,
        "verdict": DeckVerdict(
            legal=deck.legal,
            judged_on=deck.judged_on,
            illegal_since=deck.illegal_since,
            verdict_reason=deck.verdict_reason,
        ),
        "created_at": deck.created_at,
        "updated_at": deck.updated_at,
        "copies_count": deck.copies_count,
        "forked_from": _forked_from(deck, request),
        "archived": deck.archived,
    }


def _url(deck: Deck, request: Request | None) -> str:
    path = f"/d/{deck.public_id}/"  # deckpages:page, without a reverse() per deck of a list
    return request.build_absolute_uri(path) if request is not None else path


def _forked_from(deck: Deck, request: Request | None) -> str | None:
    source = deck.forked_from
    if source is None or source.trashed_at is not None:
        return None  # no source, or one in its owner's trash (its link answers 404)
    # A private source stays unknown to anyone but its owner.
    user = request.user if request is not None else None
    if source.visibility == Visibility.PRIVATE and not (user and deck_is_owned_by(deck=source, user=user)):
        return None
    return source.public_id
