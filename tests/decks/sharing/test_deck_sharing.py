"""Sharing writes: visibility, copies (fork link, copy count), tags, archive."""

from __future__ import annotations

import pytest

from decks.library.services import MAX_TAGS, deck_archive_set, deck_tag_add, deck_tag_remove
from decks.models import Deck, DeckDraft, DeckVersion, Visibility
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft, deck_visibility_set
from decks.sharing.services import deck_copy
from gatesite.errors import ApplicationError
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


@pytest.fixture
def source(deck_catalog, user):
    draft = DeckDraft(
        ruler="apprentice",
        geas="oath-of-the-lone-banner",
        main=legal_apprentice_main(),
        resources={},
        considering={"TS-100": 2},
        description="My notes",
    )
    deck = deck_create_from_draft(owner=user, draft=draft, name="Squire rush")
    return deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)


def test_a_copy_is_a_private_fork_named_copy_of(source, other_user):
    copy = deck_copy(source=source, owner=other_user)

    copy.refresh_from_db()
    assert copy.owner == other_user
    assert copy.name == "Copy of Squire rush"
    assert copy.visibility == Visibility.PRIVATE
    assert copy.forked_from == source
    assert copy.description == "My notes"
    assert copy.geas.slug == "oath-of-the-lone-banner"
    draft = deck_draft_of(deck=copy)
    assert dict(draft.main) == legal_apprentice_main()
    assert dict(draft.considering) == {}  # the source owner's scratch space stays theirs
    assert DeckVersion.objects.filter(deck=copy, version=1).exists()


def test_each_copy_counts_once_on_the_source(source, user, other_user):
    deck_copy(source=source, owner=other_user)
    stale = Deck.objects.get(pk=source.pk)
    deck_copy(source=source, owner=user)
    deck_copy(source=stale, owner=other_user)  # an instance loaded before the last copy still adds one

    source.refresh_from_db()
    assert source.copies_count == 3
    assert source.forks.count() == 3


def test_a_long_name_is_cut_to_fit(source, other_user):
    source.name = "x" * 100
    source.save()

    assert deck_copy(source=source, owner=other_user).name == "Copy of " + "x" * 92


def test_visibility_is_checked_and_does_not_make_a_version(source):
    with pytest.raises(ApplicationError, match="Unknown visibility 'secret'"):
        deck_visibility_set(deck=source, visibility="secret")

    deck_visibility_set(deck=source, visibility=Visibility.UNLISTED)

    source.refresh_from_db()
    assert source.visibility == Visibility.UNLISTED
    assert source.version == 1


def test_tags_are_trimmed_kept_once_and_removed(source):
    deck_tag_add(deck=source, name="  tournament   prep ")
    deck_tag_add(deck=source, name="tournament prep")
    deck_tag_add(deck=source, name="budget")

    assert list(source.tags.values_list("name", flat=True)) == ["budget", "tournament prep"]
    deck_tag_remove(deck=source, name="budget")
    assert list(source.tags.values_list("name", flat=True)) == ["tournament prep"]


@pytest.mark.parametrize(("name", "message"), [("   ", "needs a name"), ("x" * 41, "at most 40 characters")])
def test_a_bad_tag_is_refused(source, name, message):
    with pytest.raises(ApplicationError, match=message):
        deck_tag_add(deck=source, name=name)
    assert not source.tags.exists()


def test_a_deck_has_a_limited_number_of_tags(source):
    for i in range(MAX_TAGS):
        deck_tag_add(deck=source, name=f"t{i}")

    with pytest.raises(ApplicationError, match=f"at most {MAX_TAGS} tags"):
        deck_tag_add(deck=source, name="one more")
    assert deck_tag_add(deck=source, name="t0").name == "t0"  # an existing one is still fine


def test_archive_and_bring_back(source):
    deck_archive_set(deck=source, archived=True)
    assert Deck.objects.get(pk=source.pk).archived
    deck_archive_set(deck=source, archived=False)
    assert not Deck.objects.get(pk=source.pk).archived


def test_a_copy_is_named_in_the_language_of_the_player_who_copies_it(source, other_user):
    from django.utils import translation

    source.name = "x" * 100
    source.save(update_fields=["name"])
    with translation.override("ja"):
        copy = deck_copy(source=source, owner=other_user)

    assert copy.name.endswith("x のコピー")
    assert len(copy.name) == 100
