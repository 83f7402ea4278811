from __future__ import annotations

import pytest

from decks.models import DeckDraft
from decks.services import deck_create_from_draft
from tests.decks.factories import DeckFactory, legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_it_asks_for_a_login(client):
    response = client.get("/decks/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/decks/"


def test_it_lists_the_owners_decks_with_ruler_legality_and_last_change(client, deck_catalog, user, other_user):
    deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()), name="Legal one"
    )
    deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner"), name="Empty"
    )
    DeckFactory(owner=other_user, name="Not mine")
    client.force_login(user)

    html = client.get("/decks/").content.decode()

    assert "Legal one" in html
    assert "Apprentice with Oath of the Lone Banner" in html
    assert html.count('data-testid="legality">Legal') == 1
    assert html.count('data-testid="legality">Not legal') == 1
    assert "Not mine" not in html
    assert "<time datetime=" in html


def test_it_takes_a_fixed_number_of_queries(client, deck_catalog, user, django_assert_max_num_queries):
    for i in range(10):
        deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name=f"D{i}")
    client.force_login(user)

    with django_assert_max_num_queries(4):
        client.get("/decks/")
