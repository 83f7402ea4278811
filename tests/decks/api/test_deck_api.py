"""/api/v1/decks/ and /api/v1/decks/<public_id>/: list, create, read, update (optimistic locking), delete."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from decks.api.bodies import GAME_SECTIONS, DeckDetailOutput, DeckOutput, DeckVerdict
from decks.api.outputs import deck_detail_output, deck_output
from decks.models import Deck, DeckCard, DeckDraft, DeckVersion, Section, Visibility
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft
from gatesite.accounts.models import ApiToken, api_token_digest
from gatesite.accounts.services import api_token_create
from tests.decks.factories import DeckFactory, legal_apprentice_main

pytestmark = pytest.mark.django_db

LIST = "/api/v1/decks/"


def detail(deck_or_id) -> str:
    public_id = deck_or_id if isinstance(deck_or_id, str) else deck_or_id.public_id
    return f"/api/v1/decks/{public_id}/"


def body(**overrides):
    """A legal Apprentice deck in the API's shape (12 × 4 + 2 Ember Squires)."""
    main = [{"number": number, "count": count} for number, count in legal_apprentice_main().items()]
    return {"name": "Squires", "description": "Line 1\nLine 2", "ruler": "apprentice", "main": main, **overrides}


def send(client, method, url, data=None, **extra):
    return getattr(client, method)(
        url, json.dumps(data) if data is not None else None, content_type="application/json", **extra
    )


@pytest.fixture
def alice_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def saved(deck_catalog, user):
    """Alice's legal public deck, saved through the service (version 1)."""
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    deck.refresh_from_db()
    return deck


def test_it_creates_a_deck_and_answers_with_its_link_and_verdict(alice_client, deck_catalog, user):
    response = send(
        alice_client, "post", LIST, body(visibility="unlisted", main=[{"name": "Ember Squire 1", "count": 4}])
    )

    assert response.status_code == 201, response.content
    data = response.json()
    deck = Deck.objects.get(public_id=data["public_id"])
    assert deck.owner == user
    assert deck.visibility == Visibility.UNLISTED
    assert deck.version == 1
    assert data["url"] == f"http://testserver/d/{deck.public_id}/"
    assert response["Location"] == data["url"]
    assert data["owner"] == "alice"
    assert data["ruler"] == "apprentice"
    assert data["geas"] is None
    assert data["attribute"] is None  # as in the validate API's body, not ""
    assert data["main"] == [{"number": "TS-001", "name": "Ember Squire 1", "count": 4}]
    assert data["verdict"]["legal"] is False  # 4 cards are not a deck
    assert data["description"] == "Line 1\nLine 2"
    assert DeckVersion.objects.filter(deck=deck, version=1).exists()


def test_it_saves_a_legal_deck_as_legal(alice_client, deck_catalog):
    data = send(alice_client, "post", LIST, body()).json()

    assert data["verdict"]["legal"] is True
    assert data["verdict"]["judged_on"] is not None
    assert sum(line["count"] for line in data["main"]) == 50
    assert data["visibility"] == "private"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"main": [{"number": "XX-999", "count": 1}]}, "main[0]: no card with collector number 'XX-999'."),
        (
            {"resources": [{"number": "TS-300", "count": 1}, {"name": "Nobody", "count": 1}]},
            "resources[1]: no card with name 'Nobody'.",
        ),
        ({"ruler": "no-such-ruler"}, "Unknown ruler 'no-such-ruler'."),
        ({"geas": "no-such-geas"}, "Unknown geas 'no-such-geas'."),
        ({"attribute": "Nonsense"}, "Unknown attribute 'Nonsense'."),
        ({"main": [{"number": "TS-001", "name": "Ember Squire 1", "count": 1}]}, "main[0]: Give exactly one of"),
        ({"main": [{"number": "TS-001", "count": 100}]}, "main[0].count: A deck keeps at most 99 copies"),
        (
            {"main": [{"number": "TS-001", "count": 60}, {"name": "Ember Squire 1", "count": 60}]},
            "main[1]: a deck keeps",
        ),
        ({"visibility": "secret"}, "visibility:"),
    ],
)
def test_it_refuses_bad_input_naming_the_item_and_saves_nothing(alice_client, deck_catalog, change, message):
    response = send(alice_client, "post", LIST, body(**change))

    assert response.status_code == 400
    assert response.json()["error"].startswith(message), response.json()
    assert not Deck.objects.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "Ember\u202eRush"}, "name: Invisible or text-direction control characters are not allowed (U+202E)."),
        ({"name": "Ember\u200bRush"}, "name: Invisible or text-direction control characters are not allowed (U+200B)."),
        ({"description": "a\u2066b"}, "description: Invisible or text-direction control characters are not allowed"),
        ({"name": "\ufeffSquires"}, "name: Invisible or text-direction control characters are not allowed (U+FEFF)."),
    ],
)
@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_it_refuses_names_and_descriptions_that_spoof_their_display(alice_client, saved, change, message, method):
    url = LIST if method == "post" else detail(saved)

    response = send(alice_client, method, url, body(version=1, **change))

    assert response.status_code == 400
    assert response.json()["error"].startswith(message), response.json()
    assert Deck.objects.get().version == 1


def test_it_keeps_japanese_and_accented_names(alice_client, deck_catalog):
    response = send(alice_client, "post", LIST, body(name="燃えさしの従騎士 · Élan"))

    assert response.status_code == 201
    assert response.json()["name"] == "燃えさしの従騎士 · Élan"


def test_it_refuses_a_body_that_is_not_json(alice_client, deck_catalog):
    response = alice_client.post(LIST, "{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"].startswith("Malformed JSON")


def test_it_reads_a_deck_with_its_cards_and_no_considering_board(client, saved):
    DeckCard.objects.create(
        deck=saved, printing_id=saved.cards.first().printing_id, section=Section.CONSIDERING, count=1
    )

    data = client.get(detail(saved)).json()

    assert data["public_id"] == saved.public_id
    assert data["version"] == 1
    assert data["verdict"] == {
        "legal": True,
        "judged_on": saved.judged_on.isoformat(),
        "illegal_since": None,
        "verdict_reason": "",
    }
    assert sum(line["count"] for line in data["main"]) == 50
    assert data["resources"] == []
    assert data["copies_count"] == 0
    assert data["forked_from"] is None


def test_it_updates_with_the_version_and_refuses_a_stale_one_with_409(alice_client, saved):
    first = send(alice_client, "patch", detail(saved), {"version": 1, "name": "Renamed", "visibility": "unlisted"})
    stale = send(alice_client, "put", detail(saved), body(version=1, name="Lost change"))

    assert first.status_code == 200, first.content
    assert first.json()["version"] == 2
    assert first.json()["name"] == "Renamed"
    assert first.json()["visibility"] == "unlisted"
    assert stale.status_code == 409
    assert stale.json()["version"] == 2
    assert "changed elsewhere" in stale.json()["error"]
    assert "version 1" in stale.json()["error"]
    saved.refresh_from_db()
    assert (saved.name, saved.version, saved.visibility) == ("Renamed", 2, Visibility.UNLISTED)


def test_a_patch_keeps_the_cards_it_does_not_mention_and_the_considering_board(alice_client, saved):
    DeckCard.objects.create(
        deck=saved,
        printing=DeckCard.objects.get(deck=saved, printing__collector_number="TS-001").printing,
        section=Section.CONSIDERING,
        count=2,
    )

    response = send(alice_client, "patch", detail(saved), {"version": 1, "resources": [{"name": "Spark", "count": 3}]})

    assert response.status_code == 200, response.content
    draft = deck_draft_of(deck=saved)
    assert draft.main == legal_apprentice_main()
    assert draft.resources == {"TS-300": 3}
    assert draft.considering == {"TS-001": 2}


def test_a_put_replaces_the_deck(alice_client, saved):
    response = send(
        alice_client,
        "put",
        detail(saved),
        body(version=1, main=[{"number": "TS-100", "count": 2}], visibility="public"),
    )

    assert response.status_code == 200, response.content
    data = response.json()
    assert data["main"] == [{"number": "TS-100", "name": "Sky Lancer", "count": 2}]
    assert data["verdict"]["legal"] is False
    assert DeckVersion.objects.filter(deck=saved).count() == 2


def test_an_update_without_version_is_refused(alice_client, saved):
    response = send(alice_client, "patch", detail(saved), {"name": "No version"})

    assert response.status_code == 400
    assert response.json()["error"].startswith("version")


def test_a_refused_update_changes_nothing(alice_client, saved):
    response = send(
        alice_client,
        "patch",
        detail(saved),
        {"version": 1, "visibility": "private", "main": [{"number": "NOPE", "count": 1}]},
    )

    assert response.status_code == 400
    saved.refresh_from_db()
    assert saved.version == 1
    assert saved.visibility == Visibility.PUBLIC


def test_the_owner_deletes_a_deck(alice_client, saved):
    response = alice_client.delete(detail(saved))

    assert response.status_code == 204
    assert not Deck.objects.filter(pk=saved.pk).exists()


def test_a_signed_in_player_lists_their_own_decks_and_public_ones_on_request(alice_client, user, other_user, rules):
    mine_private = DeckFactory(owner=user)
    mine_archived = DeckFactory(owner=user, archived=True, visibility=Visibility.PUBLIC)
    theirs_public = DeckFactory(owner=other_user, visibility=Visibility.PUBLIC)
    DeckFactory(owner=other_user, visibility=Visibility.UNLISTED)
    DeckFactory(owner=other_user, visibility=Visibility.PRIVATE)

    own = alice_client.get(LIST).json()
    public = alice_client.get(LIST, {"public": "true"}).json()

    assert {d["public_id"] for d in own["results"]} == {mine_private.public_id, mine_archived.public_id}
    assert [d["public_id"] for d in public["results"]] == [theirs_public.public_id]
    assert public["count"] == 1
    # ?public= (empty, as a form sends "any") is the default, as the schema's allowEmptyValue says.
    assert alice_client.get(LIST, {"public": ""}).json()["results"] == own["results"]


def test_anonymous_clients_list_public_decks_filtered_sorted_and_paginated(client, deck_catalog, user, other_user):
    from django.utils import timezone

    decks = [
        deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice", main=main))
        for owner, main in [(user, legal_apprentice_main()), (other_user, {"TS-100": 1}), (user, {"TS-150": 1})]
    ]
    for i, deck in enumerate(decks):
        Deck.objects.filter(pk=deck.pk).update(
            visibility=Visibility.PUBLIC, copies_count=i * 2 % 3, created_at=timezone.now() - timezone.timedelta(days=i)
        )

    newest = client.get(LIST).json()
    most_copied = client.get(LIST, {"sort": "most_copied"}).json()
    legal = client.get(LIST, {"legal": "true"}).json()
    with_card = client.get(LIST, {"card": "Sky Lancer"}).json()
    faction = client.get(LIST, {"faction": "Wonderverse"}).json()
    page = client.get(LIST, {"page_size": 2, "page": 2}).json()

    ids = [d.public_id for d in decks]
    assert [d["public_id"] for d in newest["results"]] == ids
    assert [d["public_id"] for d in most_copied["results"]] == [ids[1], ids[2], ids[0]]
    assert [d["public_id"] for d in legal["results"]] == [ids[0]]
    assert [d["public_id"] for d in with_card["results"]] == [ids[1]]
    assert [d["public_id"] for d in faction["results"]] == [ids[2]]
    assert page["count"] == 3
    assert [d["public_id"] for d in page["results"]] == [ids[2]]
    assert page["previous"]
    assert "main" not in newest["results"][0]  # lists carry no card lines


def test_it_lists_decks_in_a_constant_number_of_queries(client, rules, django_assert_max_num_queries):
    source = DeckFactory(visibility=Visibility.PUBLIC)
    for _ in range(30):
        DeckFactory(visibility=Visibility.PUBLIC, forked_from=source)

    with django_assert_max_num_queries(2):  # the count and the page
        response = client.get(LIST)

    assert response.json()["count"] == 31
    assert response.json()["results"][0]["forked_from"] == source.public_id


def test_it_hides_a_private_source_of_a_copy_from_others(client, rules):
    source = DeckFactory(visibility=Visibility.PRIVATE)
    copy = DeckFactory(visibility=Visibility.PUBLIC, forked_from=source)

    assert client.get(detail(copy)).json()["forked_from"] is None


def test_token_authentication(client, deck_catalog, user):
    token = send(
        client, "post", "/api/v1/auth/token/", {"username": "alice", "password": "correct horse battery"}
    ).json()["token"]

    response = send(client, "post", LIST, body(), HTTP_AUTHORIZATION=f"Token {token}")

    # Stored hashed (gatesite/accounts): the token itself is in no row.
    assert ApiToken.objects.get(user=user).digest == api_token_digest(token) != token
    assert response.status_code == 201
    assert Deck.objects.get().owner == user


def test_session_writes_need_the_csrf_token(user, deck_catalog):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = send(client, "post", LIST, body())

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_public_listing_keeps_its_total_cached_and_an_own_listing_does_not(client, user, rules, settings):
    from django.core.cache import cache

    settings.DECK_LIST_COUNT_CACHE_SECONDS = 60
    cache.clear()
    DeckFactory(owner=user, visibility=Visibility.PUBLIC)
    first = client.get(LIST).json()
    DeckFactory(owner=user, visibility=Visibility.PUBLIC)

    cached = client.get(LIST).json()
    other_query = client.get(LIST, {"sort": "most_copied"}).json()
    client.force_login(user)
    own = client.get(LIST).json()
    cache.clear()

    assert first["count"] == 1
    assert cached["count"] == 1  # the total is a minute late at most …
    assert len(cached["results"]) == 2  # … the page itself is never
    assert other_query["count"] == 2
    assert own["count"] == 2


@pytest.mark.parametrize(("build", "model"), [(deck_output, DeckOutput), (deck_detail_output, DeckDetailOutput)])
def test_the_body_has_exactly_the_declared_fields(build, model, saved):
    from decks.selectors import deck_api_queryset

    deck = deck_api_queryset().get(pk=saved.pk)

    data = build(deck=deck, request=None)

    # Another game's sections (kingdom, hero, gates) are declared too, and shown only in its decks.
    assert set(data) == set(model.model_fields) - set(GAME_SECTIONS)
    assert set(data["verdict"]) == set(DeckVerdict.model_fields)
    assert data["created_at"].endswith("Z")
    assert data["url"] == reverse("deckpages:page", args=[deck.public_id])


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_browsable_api_renders_the_deck_endpoints(client, saved, user, signed_in):
    if signed_in:
        client.force_login(user)

    listing = client.get(LIST, HTTP_ACCEPT="text/html")
    one = client.get(detail(saved), HTTP_ACCEPT="text/html")

    assert listing.status_code == 200
    assert one.status_code == 200
    assert saved.public_id in one.content.decode()


def test_an_own_listing_and_a_deck_read_with_a_token_stay_at_a_few_queries(
    client, user, rules, django_assert_max_num_queries
):
    _, token = api_token_create(user=user)
    for _ in range(30):
        DeckFactory(owner=user)
    deck = Deck.objects.filter(owner=user).first()

    with django_assert_max_num_queries(3):  # the token (with its user), the total, the page
        listing = client.get(LIST, HTTP_AUTHORIZATION=f"Token {token}")
    with django_assert_max_num_queries(3):  # the token, the deck, its cards
        one = client.get(detail(deck), HTTP_AUTHORIZATION=f"Token {token}")

    assert listing.json()["count"] == 30
    assert one.json()["public_id"] == deck.public_id
