"""gatesite/filters.py (and the cards API's whole-number levels): a query value the schema calls invalid is a 400."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "query"),
    [
        ("/api/v1/cards/", {"legend": "null"}),
        ("/api/v1/cards/", {"cnt": "maybe"}),
        ("/api/v1/cards/", {"level_min": "0.5"}),
        ("/api/v1/decks/", {"legal": "null"}),
        ("/api/v1/decks/", {"public": "null"}),
        ("/api/v1/decks/", {"page_size": "null"}),
        ("/api/v1/decks/", {"page_size": "0"}),
        # An empty sort is none of the schema's choices (Schemathesis found it answered 200).
        ("/api/v1/decks/", {"sort": ""}),
        ("/api/v1/decks/", {"sort": "oldest"}),
    ],
)
def test_it_refuses_a_query_value_the_schema_calls_invalid(client, rules, url, query):
    # Each was read as "no filter" (or the default) and answered 200.
    response = client.get(url, query)

    assert response.status_code == 400
    assert list(response.json()) == list(query)


@pytest.mark.parametrize(
    ("url", "query"),
    [
        ("/api/v1/cards/", {"legend": "true", "cnt": "0", "level_min": "1"}),
        ("/api/v1/cards/", {"legend": ""}),
        ("/api/v1/decks/", {"legal": "false", "public": "1", "page_size": "500"}),
        ("/api/v1/decks/", {"legal": "", "page_size": ""}),
        ("/api/v1/decks/", {"sort": "-most_copied"}),
        ("/decks/browse/", {"sort": "most_copied"}),
    ],
)
def test_it_reads_booleans_numbers_and_empty_values(client, rules, url, query):
    assert client.get(url, query).status_code == 200
