"""gatesite/throttling.py: the client's address (client_ip) for the throttles and the sign-in lockout."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from gatesite.throttling import client_ip

TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
        cache.clear()

    yield set_rates
    cache.clear()


@pytest.mark.parametrize(
    ("num_proxies", "forwarded", "expected"),
    [
        (0, None, "192.0.2.9"),
        (0, "203.0.113.5", "192.0.2.9"),  # no proxy declared: whatever the client wrote is ignored
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the forged entry is left of the one our proxy added
        (2, "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (3, "203.0.113.5", "203.0.113.5"),  # fewer entries than proxies: the first
        (1, None, "192.0.2.9"),
    ],
)
def test_it_reads_only_the_entries_the_trusted_proxies_wrote(settings, num_proxies, forwarded, expected):
    settings.NUM_PROXIES = num_proxies
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.9", **extra)

    assert client_ip(request) == expected


@pytest.mark.django_db
def test_a_forged_x_forwarded_for_does_not_reset_the_token_endpoints_limit(client, rates, user):
    rates(anon="100/minute", user="100/minute", token="2/minute")
    guess = {"username": "alice", "password": "wrong"}

    statuses = [
        client.post(
            TOKEN_URL, guess, content_type="application/json", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"
        ).status_code
        for i in range(3)
    ]

    assert statuses == [400, 400, 429]


@pytest.mark.django_db
def test_behind_a_declared_proxy_each_client_has_its_own_count(client, rates, settings, rules):
    settings.NUM_PROXIES = 1
    rates(anon="2/minute", user="100/minute")

    def get(forwarded):
        return client.get("/api/v1/rulers/", HTTP_X_FORWARDED_FOR=forwarded).status_code

    first = [get(f"6.6.6.{i}, 198.51.100.1") for i in range(3)]  # the left entries forged, the last the proxy's
    other = get("198.51.100.2")

    assert first == [200, 200, 429]
    assert other == 200
