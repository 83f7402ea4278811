"""Schemathesis against the app's own OpenAPI schema (/api/v1/schema/), through WSGI in-process.

Every operation of every endpoint, as an anonymous client and with a token, with every check
Schemathesis has (its default when no `checks` are named): no server error, every status and
content type and body as the schema documents them, invalid data refused, valid data accepted,
unsupported methods answered 405 ... Deck operations are pointed at real decks half of the time
(with the deck's current version for updates), so the success paths are checked too, not only 404s.

And statefully (issue 24): Schemathesis' state machine follows the links it infers between the
operations (a deck created by POST /api/v1/decks/ is read, replaced, patched and deleted by its
`public_id`; a ruler listed is read by its slug and put in deck bodies), with the same checks.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.config import SchemathesisConfig

from decks.models import Deck, DeckDraft, Visibility
from decks.services import deck_create_from_draft
from tests.cards.factories import AttributeFactory, CardFactory, FactionFactory, PrintingFactory

pytestmark = pytest.mark.slow


# 100 examples per operation (issue 24). The four tests of this file take about 2.5 minutes of CPU
# on 2 cores (5 minutes of wall time on a machine shared with other runs, 2026-11-28).
EXAMPLES = hypothesis_settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def wsgi_keeps_the_connection():
    """The test's database connection stays open across WSGI requests (its transaction holds the data).

    Django closes connections when a request ends; its test Client turns that off the same way.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_data(wsgi_keeps_the_connection, rules, user, other_user) -> dict[str, Any]:
    """A small catalog, and decks of each visibility for Alice (the token's owner) and Charlie."""
    from gatesite.accounts.services import api_token_create

    volnar = FactionFactory(name="Volnar")
    dragon = AttributeFactory(name="Dragon")
    for i in range(1, 14):
        card = CardFactory(name=f"Ember Squire {i}", faction=volnar, level=1, attributes=[dragon])
        PrintingFactory(card=card, collector_number=f"TS-{i:03d}")
    PrintingFactory(card=CardFactory(name="Spark", energy=True), collector_number="TS-300")
    main = {f"TS-{i:03d}": 4 for i in range(1, 13)} | {"TS-013": 2}
    decks = []
    for owner, visibility in itertools.product((user, other_user), Visibility.values):
        deck = deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice", main=main))
        Deck.objects.filter(pk=deck.pk).update(visibility=visibility)
        decks.append(deck.public_id)
    return {"token": api_token_create(user=user)[1], "decks": decks, "user": user, "main": main}


# A body the schema allows may still name a ruler, card or date the catalog does not have: the
# API refuses it with a documented 400 naming the field (no schema can list the catalog's data).
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400", "401", "403", "404", "409"]}}}
)


def _load_schema() -> Any:
    """The schema as the app serves it (no database needed: drf-spectacular only introspects)."""
    from django.core.wsgi import get_wsgi_application

    return schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application(), config=CONFIG)


# Loaded when the module is collected (schemathesis.pytest.from_fixture, which would load it
# inside a test, does not work with pytest 9 yet); gatesite/test_settings.py allows its Host.
schema = _load_schema()


def _seed(case: Any) -> int | None:
    """A number from the case, to steer a share of the cases; None for a case made invalid on purpose."""
    if case.meta is not None and not case.meta.generation.mode.is_positive:
        return None  # a case made invalid on purpose (negative_data_rejection) stays invalid
    return sum(map(ord, repr(case.body) + repr(case.query) + repr(case.path_parameters)))


def _aim_body(case: Any, data: dict[str, Any], seed: int) -> None:
    """A third of the deck bodies name a real ruler and real cards (random ones name none)."""
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and "ruler" in body and seed % 3 == 0:
        _real_deck_body(body, data)


def _real_deck_body(body: dict[str, Any], data: dict[str, Any]) -> None:
    """The body names the Apprentice and a legal deck of the catalog's cards (its name and the rest stay)."""
    lines = [{"number": number, "count": count} for number, count in data["main"].items()]
    body.update(ruler="apprentice", geas=None, attribute=None, main=lines, resources=[])
    body.pop("rules_date", None)
    body.pop("as_of", None)


def _aim(case: Any, data: dict[str, Any]) -> None:
    """Steer some generated cases onto the success paths random data would never reach.

    A third of the deck bodies name a real ruler and real cards; half of the deck operations
    go to a real deck (a fresh one for DELETE); a quarter of those updates carry the deck's
    current version (the others, a random and so mostly stale one: 409).
    """
    seed = _seed(case)
    if seed is None:
        return
    _aim_body(case, data, seed)
    body = case.body if isinstance(case.body, dict) else None
    if "public_id" not in (case.path_parameters or {}) or seed % 2:
        return
    if case.method.upper() == "DELETE":
        # A fresh deck to delete, so the others stay for the following cases.
        deck = deck_create_from_draft(owner=data["user"], draft=DeckDraft(ruler="apprentice", main=data["main"]))
        case.path_parameters["public_id"] = deck.public_id
        return
    public_id = data["decks"][seed // 2 % len(data["decks"])]
    case.path_parameters["public_id"] = public_id
    if body is not None and "version" in body and seed % 4 == 0:
        body["version"] = Deck.objects.get(public_id=public_id).version


@schema.parametrize()
@EXAMPLES
def test_the_api_as_an_anonymous_client(case, api_data):
    _aim(case, api_data)
    case.call_and_validate()


@schema.parametrize()
@EXAMPLES
def test_the_api_with_a_token(case, api_data):
    _aim(case, api_data)
    case.call_and_validate(headers={"Authorization": f"Token {api_data['token']}"})


def _run_the_state_machine(data: dict[str, Any], headers: dict[str, str]) -> Counter[str]:
    """Scenarios of linked calls; the deck bodies steered as in _aim, the deck ids left to the links.

    Gives the operations answered 2xx, so a test can see the links were followed to real resources.
    """
    served: Counter[str] = Counter()

    # A schema of its own: Schemathesis keeps what earlier runs of a schema saw (the values it draws
    # from), so a state machine on the module's schema drew differently after other tests had run in
    # the process, and Hypothesis, replaying a scenario, called it flaky (FlakyStrategyDefinition).
    class Workflow(_load_schema().as_state_machine()):  # type: ignore[misc]
        # Each scenario starts from the same database (a savepoint rolled back after it): Hypothesis
        # replays scenarios, and one that found other decks would take other steps.
        def setup(self) -> None:
            self.savepoint = transaction.savepoint()
            # What a rollback does not bring back: the cache, and the decks' random public ids (a link
            # carries them into later calls). Hypothesis replays a scenario's first steps and must meet
            # the same answers, or it calls the run flaky (FlakyStrategyDefinition).
            cache.clear()
            ids = (f"deck{n:07d}" for n in itertools.count(1))
            public_id.default = lambda: next(ids)
            public_id.__dict__.pop("_get_default", None)  # Field caches the callable it calls

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def before_call(self, case: Any) -> None:
            seed = _seed(case)
            if seed is None:
                return
            body = case.body if isinstance(case.body, dict) else None
            if body is not None and case.method.upper() == "POST" and case.path == "/api/v1/decks/":
                _real_deck_body(body, data)  # every new deck a real one: the scenario goes on from it
            else:
                _aim_body(case, data, seed)
            public_id = (case.path_parameters or {}).get("public_id")
            deck = Deck.objects.filter(public_id=public_id).first() if public_id else None
            if deck is not None and body is not None and "version" in body and seed % 4:
                # Three updates in four of a deck the links found are ones it takes: its current version, and
                # a real deck (PUT) or only the fields that name nothing in the catalog (PATCH).
                if case.method.upper() == "PUT":
                    _real_deck_body(body, data)
                else:
                    for key in set(body) - {"name", "description", "visibility"}:
                        del body[key]
                body["version"] = deck.version

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": headers}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            if 200 <= response.status_code < 300:
                served[f"{case.method.upper()} {case.path}"] += 1

    public_id = Deck._meta.get_field("public_id")
    random_ids = public_id.default
    try:
        Workflow.run(settings=STATEFUL)
    finally:
        public_id.default = random_ids
        public_id.__dict__.pop("_get_default", None)
    return served


# Scenarios of up to 6 linked calls; 100 of them, as many as the examples of each operation above.
STATEFUL = hypothesis_settings(
    max_examples=100,
    stateful_step_count=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def test_the_api_statefully_as_an_anonymous_client(api_data):
    served = _run_the_state_machine(api_data, {})

    assert served["GET /api/v1/rulers/{slug}/"] > 0  # a slug from the list, followed
    assert served["POST /api/v1/decks/"] == 0  # saving a deck needs a player


def test_the_api_statefully_with_a_token(api_data):
    served = _run_the_state_machine(api_data, {"Authorization": f"Token {api_data['token']}"})

    # A deck created by POST, then read by the public_id its answer gave ...
    assert served["POST /api/v1/decks/"] > 0
    assert served["GET /api/v1/decks/{public_id}/"] > 0
    # ... and changed or deleted through that id (which of them, the search's path decides).
    changed = ("PATCH", "PUT", "DELETE")
    assert sum(served[f"{method} /api/v1/decks/{{public_id}}/"] for method in changed) > 0
