"""The API throttles anonymous clients per address and signed-in ones per user (rates from settings)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
        cache.clear()

    yield set_rates
    cache.clear()


def test_it_throttles_anonymous_clients(client, rates, rules):
    rates(anon="3/minute", user="100/minute")

    statuses = [client.get("/api/v1/decks/").status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]
    response = client.get("/api/v1/rulers/")
    assert response.status_code == 429  # per client, across endpoints
    assert "Request was throttled" in response.json()["detail"]
    assert int(response["Retry-After"]) > 0


def test_it_throttles_signed_in_clients_per_user(client, rates, user, other_user, rules):
    rates(anon="1/minute", user="2/minute")
    client.force_login(user)

    mine = [client.get("/api/v1/decks/").status_code for _ in range(3)]
    client.force_login(other_user)
    theirs = client.get("/api/v1/decks/").status_code

    assert mine == [200, 200, 429]
    assert theirs == 200


def test_it_limits_password_guesses_on_the_token_endpoint(client, rates, user):
    rates(anon="100/minute", user="100/minute", token="2/minute")
    guess = {"username": "alice", "password": "wrong"}

    statuses = [
        client.post("/api/v1/auth/token/", guess, content_type="application/json").status_code for _ in range(3)
    ]

    assert statuses == [400, 400, 429]


def test_an_off_rate_does_not_throttle(client, rates, rules):
    rates(anon="off", user="off")

    assert {client.get("/api/v1/decks/").status_code for _ in range(20)} == {200}
