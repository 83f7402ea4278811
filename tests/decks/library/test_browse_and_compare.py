"""Browse public decks (/decks/browse/) and compare two decks (/decks/compare/)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks.library.selectors import BROWSE_PAGE_SIZE
from decks.library.services import deck_archive_set
from decks.models import Deck, DeckDraft, Visibility
from decks.services import deck_create_from_draft, deck_visibility_set
from tests.decks.factories import DeckFactory, legal_apprentice_main

pytestmark = pytest.mark.django_db

BROWSE = "/decks/browse/"


def make(owner, name, *, visibility=Visibility.PUBLIC, main=None, geas=None, copies=0):
    deck = deck_create_from_draft(
        owner=owner, draft=DeckDraft(ruler="apprentice", geas=geas, main=main or {}), name=name
    )
    deck_visibility_set(deck=deck, visibility=visibility)
    if copies:
        Deck.objects.filter(pk=deck.pk).update(copies_count=copies)
    return deck


def names_in(html: str) -> list[str]:
    return re.findall(r'<td><a href="/d/[^"]+/">([^<]+)</a></td>', html)


def test_it_lists_public_decks_only_and_not_archived_ones(client, deck_catalog, user):
    make(user, "Public one")
    make(user, "Unlisted one", visibility=Visibility.UNLISTED)
    make(user, "Private one", visibility=Visibility.PRIVATE)
    deck_archive_set(deck=make(user, "Archived one"), archived=True)

    html = client.get(BROWSE).content.decode()

    assert names_in(html) == ["Public one"]
    assert 'data-testid="legality"' in html  # the shared verdict partial


def test_it_filters_by_ruler_geas_faction_card_and_legality(client, deck_catalog, user):
    make(user, "Legal squires", main=legal_apprentice_main())
    make(user, "Lancers", main={"TS-100": 2}, geas="oath-of-the-lone-banner")
    sage = DeckFactory(owner=user, name="Other ruler", visibility=Visibility.PUBLIC)
    sage.ruler = type(sage.ruler).objects.exclude(slug="apprentice").first()
    sage.save()

    def names(**query):
        return sorted(names_in(client.get(BROWSE, query).content.decode()))

    assert names(ruler="apprentice") == ["Lancers", "Legal squires"]
    assert names(geas="oath-of-the-lone-banner") == ["Lancers"]
    assert names(faction="atlas") == ["Lancers"]
    assert names(card="Ember Squire 3") == ["Legal squires"]
    assert names(card="TS-100") == ["Lancers"]
    assert names(legal="true") == ["Legal squires"]
    assert names(ruler="apprentice", legal="true", card="Sky Lancer") == []


def test_it_sorts_by_newest_or_most_copied(client, deck_catalog, user):
    make(user, "Old, popular", copies=5)
    make(user, "Middle", copies=1)
    make(user, "New")

    assert names_in(client.get(BROWSE).content.decode()) == ["New", "Middle", "Old, popular"]
    assert names_in(client.get(BROWSE, {"sort": "most_copied"}).content.decode()) == ["Old, popular", "Middle", "New"]


def test_it_pages_and_keeps_the_filters_in_the_page_links(client, deck_catalog, user):
    for i in range(BROWSE_PAGE_SIZE + 3):
        DeckFactory(owner=user, name=f"D{i:02d}", visibility=Visibility.PUBLIC)

    first = client.get(BROWSE, {"ruler": "apprentice"}).content.decode()
    second = client.get(BROWSE, {"ruler": "apprentice", "page": 2}).content.decode()

    assert len(names_in(first)) == BROWSE_PAGE_SIZE
    assert len(names_in(second)) == 3
    assert 'href="?ruler=apprentice&amp;page=2" rel="next"' in first
    assert "Page 2 of 2" in second
    assert set(names_in(first)).isdisjoint(names_in(second))


def test_a_bad_filter_is_reported_not_a_server_error(client, deck_catalog, user):
    make(user, "Public one")

    response = client.get(BROWSE, {"sort": "cheapest", "page": "zz"})

    assert response.status_code == 200
    assert 'class="error">sort:' in response.content.decode()


def test_browse_takes_a_fixed_number_of_queries(client, deck_catalog, user, django_assert_max_num_queries):
    for i in range(15):
        make(user, f"D{i}", main={"TS-001": 1})

    with django_assert_max_num_queries(6):
        client.get(BROWSE, {"card": "Ember Squire 1"})


def test_browse_escapes_deck_names(client, deck_catalog, user):
    make(user, "<b>bold</b>")

    html = client.get(BROWSE).content.decode()

    assert "<b>bold</b>" not in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html


# ---------------------------------------------------------------- compare


def compare(client, a, b):
    return client.get(reverse("deckpages:compare"), {"a": a.public_id, "b": b.public_id})


def rows(html: str, group: str) -> list[tuple[str, ...]]:
    body = html[html.index(f'data-testid="{group}"') :]
    body = body[: body.index("</tbody>")]
    return [
        tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row))
        for row in re.findall(r"<tr>(<td.*?)</tr>", body)
    ]


def test_it_compares_two_decks_side_by_side(client, deck_catalog, user):
    a = make(user, "A", main={"TS-001": 4, "TS-002": 2, "TS-100": 1})
    b = make(user, "B", main={"TS-001": 4, "TS-002": 3, "TS-150": 2})
    client.force_login(user)

    html = compare(client, a, b).content.decode()

    assert rows(html, "only-a") == [("Sky Lancer", "1", "—")]
    assert rows(html, "only-b") == [("Frost Hare", "—", "2")]
    assert rows(html, "different") == [("Ember Squire 2", "2", "3")]
    assert rows(html, "same") == [("Ember Squire 1", "4", "4")]


def test_it_compares_readable_decks_only(client, deck_catalog, user, other_user):
    mine = make(user, "Mine", visibility=Visibility.PRIVATE)
    theirs_public = make(other_user, "Theirs", main={"TS-001": 1})
    theirs_private = make(other_user, "Secret", visibility=Visibility.PRIVATE)
    client.force_login(user)

    assert compare(client, mine, theirs_public).status_code == 200
    assert compare(client, mine, theirs_private).status_code == 404
    client.logout()
    assert compare(client, mine, theirs_public).status_code == 404
    assert compare(client, theirs_public, theirs_public).status_code == 200


def test_without_two_decks_it_offers_the_choice(client, deck_catalog, user):
    make(user, "First")
    make(user, "Second")
    client.force_login(user)

    html = client.get(reverse("deckpages:compare")).content.decode()

    assert 'data-testid="compare"' not in html
    assert html.count("<option") == 4  # both decks, for A and for B
