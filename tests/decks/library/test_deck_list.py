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
    assert "Apprentice with Oath of the Lone Banner" in " ".join(html.split())  # as a browser shows it
    assert html.count('data-testid="legality">Legal') == 1
    assert html.count('data-testid="legality">Not legal') == 1
    assert "Not mine" not in html
    assert "<time datetime=" in html


def test_it_takes_a_fixed_number_of_queries(client, deck_catalog, user, django_assert_max_num_queries):
    for i in range(10):
        deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name=f"D{i}")
    client.force_login(user)

    # Session and user, the decks, their tags, and the trash's count.
    with django_assert_max_num_queries(5):
        client.get("/decks/")


# ---------------------------------------------------------------- search, tags, archive, compare


def names_listed(html: str) -> list[str]:
    import re

    return re.findall(r'<td><a href="/decks/[^"]+/edit/">([^<]+)</a>', html)


@pytest.fixture
def three_decks(deck_catalog, user):
    return [
        deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-100": 2}), name="Lancer pile"),
        deck_create_from_draft(
            owner=user,
            draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}, considering={"TS-150": 1}),
            name="Squires",
        ),
        deck_create_from_draft(
            owner=user, draft=DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner"), name="Banner"
        ),
    ]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("lancer", ["Lancer pile"]),  # deck name or card name
        ("sky lancer", ["Lancer pile"]),  # a card it plays
        ("Ember Squire", ["Squires"]),
        ("Frost Hare", []),  # only on the considering board: not in the deck
        ("lone banner", ["Banner"]),  # the geas
        ("apprentice", ["Banner", "Squires", "Lancer pile"]),  # the ruler
    ],
)
def test_it_searches_by_name_ruler_or_card(client, three_decks, user, query, names):
    client.force_login(user)

    html = client.get("/decks/", {"q": query}).content.decode()

    assert names_listed(html) == names


def test_tags_are_added_filtered_by_and_removed(client, three_decks, user):
    lancers, squires, _ = three_decks
    client.force_login(user)

    response = client.post(f"/d/{lancers.public_id}/tags/", {"name": "<i>budget</i>", "next": "/decks/?q=x"})
    client.post(f"/d/{squires.public_id}/tags/", {"name": "tournament", "next": "/decks/"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/?q=x"
    html = client.get("/decks/").content.decode()
    assert "<i>budget</i>" not in html
    assert '<option value="&lt;i&gt;budget&lt;/i&gt;">&lt;i&gt;budget&lt;/i&gt;</option>' in html
    assert names_listed(client.get("/decks/", {"tag": "tournament"}).content.decode()) == ["Squires"]
    client.post(f"/d/{squires.public_id}/tags/", {"name": "tournament", "remove": "1"})
    assert names_listed(client.get("/decks/", {"tag": "tournament"}).content.decode()) == []


def test_a_refused_tag_says_why(client, three_decks, user):
    client.force_login(user)

    response = client.post(f"/d/{three_decks[0].public_id}/tags/", {"name": "x" * 41}, follow=True)

    assert "Tag not changed" in response.content.decode()
    assert not three_decks[0].tags.exists()


@pytest.mark.parametrize("name", ["tour\u202enament", "\u200bbudget", "a\u2067b", "x\ufeff"])
def test_a_tag_that_spoofs_its_display_is_refused_saying_why(client, three_decks, user, name):
    client.force_login(user)

    response = client.post(f"/d/{three_decks[0].public_id}/tags/", {"name": name}, follow=True)

    assert "Invisible or text-direction control characters are not allowed" in response.content.decode()
    assert not three_decks[0].tags.exists()


def test_archived_decks_are_hidden_unless_asked_for(client, three_decks, user):
    client.force_login(user)

    client.post(f"/d/{three_decks[0].public_id}/archive/", {"archived": "on", "next": "/decks/"})

    assert names_listed(client.get("/decks/").content.decode()) == ["Banner", "Squires"]
    html = client.get("/decks/", {"archived": "1"}).content.decode()
    assert names_listed(html) == ["Banner", "Squires", "Lancer pile"]
    assert html.count('data-testid="archived"') == 1
    client.post(f"/d/{three_decks[0].public_id}/archive/", {"next": "/decks/"})  # unchecked: bring it back
    assert len(names_listed(client.get("/decks/").content.decode())) == 3


def test_it_offers_to_compare_two_decks(client, three_decks, user):
    client.force_login(user)

    html = client.get("/decks/").content.decode()

    assert 'data-testid="compare-form"' in html
    assert 'action="/decks/compare/"' in html


def test_a_search_with_tags_still_takes_a_fixed_number_of_queries(
    client, three_decks, user, django_assert_max_num_queries
):
    from decks.library.services import deck_tag_add

    for deck in three_decks:
        deck_tag_add(deck=deck, name="a")
        deck_tag_add(deck=deck, name="b")
    client.force_login(user)

    with django_assert_max_num_queries(5):
        client.get("/decks/", {"q": "squire", "tag": "a", "archived": "1"})
