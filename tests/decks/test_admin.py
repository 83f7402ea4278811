from __future__ import annotations

import pytest

from tests.decks.factories import DeckCardFactory

pytestmark = pytest.mark.django_db


def test_the_admin_lists_and_shows_decks(admin_client, rules):
    line = DeckCardFactory(count=3)

    assert admin_client.get("/admin/decks/deck/").status_code == 200
    response = admin_client.get(f"/admin/decks/deck/{line.deck.pk}/change/")
    assert response.status_code == 200
    assert line.deck.public_id in response.content.decode()
