from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from decks.selectors import deck_get_for_owner, deck_list_for_owner
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.django_db


def test_it_gives_the_owner_their_deck(rules, user):
    deck = DeckFactory(owner=user)

    assert deck_get_for_owner(public_id=deck.public_id, user=user) == deck
    assert deck_get_for_owner(public_id=deck.public_id, user=user, write=True) == deck


def test_it_hides_a_private_deck_from_others_even_when_they_write(rules, user, other_user):
    deck = DeckFactory(owner=user)

    for someone in (other_user, AnonymousUser()):
        for write in (False, True):
            with pytest.raises(Http404):
                deck_get_for_owner(public_id=deck.public_id, user=someone, write=write)


@pytest.mark.parametrize("visibility", ["unlisted", "public"])
def test_it_refuses_others_changes_to_a_deck_they_can_read(rules, user, other_user, visibility):
    deck = DeckFactory(owner=user, visibility=visibility)

    with pytest.raises(Http404):
        deck_get_for_owner(public_id=deck.public_id, user=other_user)
    for someone in (other_user, AnonymousUser()):
        with pytest.raises(PermissionDenied):
            deck_get_for_owner(public_id=deck.public_id, user=someone, write=True)


def test_it_is_404_for_an_unknown_id_or_a_primary_key(rules, user):
    deck = DeckFactory(owner=user)

    with pytest.raises(Http404):
        deck_get_for_owner(public_id="nope", user=user, write=True)
    with pytest.raises(Http404):
        deck_get_for_owner(public_id=str(deck.pk), user=user)


def test_it_lists_only_the_owners_decks_with_their_size(rules, user, other_user):
    mine = DeckFactory(owner=user, name="Mine")
    DeckCardFactory(deck=mine, count=3)
    DeckCardFactory(deck=mine, count=2, section="considering")
    empty = DeckFactory(owner=user, name="Empty")
    DeckFactory(owner=other_user)

    decks = list(deck_list_for_owner(user=user))

    assert {d.name for d in decks} == {"Mine", "Empty"}
    assert {d.name: d.size for d in decks} == {"Mine": 3, "Empty": 0}
    assert decks[0] == empty  # last changed first


def test_its_ruler_and_geas_are_the_catalogs_as_they_are_now(rules, user):
    # The deck's ruler and geas come from the catalog memory, not a join (decks.selectors._deck_with_rules):
    # the same as the database says, and an edit to a ruler is seen on the next read.
    from cards.models import Geas, Ruler

    geas = Geas.objects.select_related("ruler").first()
    deck = DeckFactory(owner=user, ruler=geas.ruler, geas=geas)

    got = deck_get_for_owner(public_id=deck.public_id, user=user)
    assert (got.ruler.slug, got.geas.slug, got.geas.ruler.slug) == (geas.ruler.slug, geas.slug, geas.ruler.slug)

    Ruler.objects.filter(pk=geas.ruler.pk).update(name_ja="新しい名前")  # no signal: as a raw write would be
    Ruler.objects.get(pk=geas.ruler.pk).save()  # an edit through the ORM (the admin) tells the catalog
    assert deck_get_for_owner(public_id=deck.public_id, user=user).ruler.name_ja == "新しい名前"

    plain = DeckFactory(owner=user, geas=None)
    assert deck_get_for_owner(public_id=plain.public_id, user=user).geas is None
