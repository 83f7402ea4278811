"""What-if app for bench/validate.py: the validate API stopped after one stage, to see what each stage costs.

    GATESITE_VALIDATE_STAGE=judge .venv/bin/python bench/validate.py --http-only --skip-setup --workers 2 \
        --app bench.validate_stages:application --database-url …

The stages, each doing what the one before did and one thing more, then answering a fixed legal
body (what bench/validate.py's checks look for) instead of the judgement:
  none   no work at all: the view answers at once (the cost of being another URL and view than ping)
  body   Django reads the request body
  parse  the body is read as the validate API reads it (decks.api.parsing.validate_body_parse)
  judge  and the deck is judged (decks.api.apis.validate_body_judge)
  answer and the answer is built (decks.api.outputs.validation_output), but not sent
  full   the real view (also what an unset or unknown stage gives)
The difference between two stages' throughput over ping's is what the later stage costs on the real
server, cache misses included; bench/request_instructions.py counts instructions, which leave those out.
For measuring only: never served.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from gatesite.wsgi import application  # Django set up: the app's modules are imported in _stage_view

__all__ = ["application"]

STAGES = ("none", "body", "parse", "judge", "answer", "full")
# What bench/validate.py checks of a validate answer before and during its runs.
_LEGAL = {"legal": True, "summary": {"size": 50}, "rules_effective_from": "(stage)"}


def _stage_view(stage: str) -> Callable[[Any, Any], Any]:
    from rest_framework.response import Response

    from decks.api.apis import validate_body_judge
    from decks.api.outputs import validation_output
    from decks.api.parsing import validate_body_parse

    upto = STAGES.index(stage)

    def post(self: Any, request: Any) -> Response:
        if upto >= STAGES.index("body"):
            request._request.body  # noqa: B018  (read, as validate_body_parse reads it)
        if upto >= STAGES.index("parse"):
            body = validate_body_parse(request)
        if upto >= STAGES.index("judge"):
            judgement = validate_body_judge(body)
        if upto >= STAGES.index("answer"):
            validation_output(judgement=judgement)
        return Response(_LEGAL)

    return post


def _install(stage: str) -> None:
    from decks.api.apis import DeckValidateApi

    if stage in STAGES[:-1]:
        DeckValidateApi.post = _stage_view(stage)  # type: ignore[method-assign]


_install(os.environ.get("GATESITE_VALIDATE_STAGE", "full"))
