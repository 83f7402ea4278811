"""The shared deck page /d/<id>/ and past versions /d/<id>/v/<n>/: content, verdict, history, escaping, queries."""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import replace

import pytest
from django.urls import reverse

from decks.models import DeckDraft, Visibility
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft, deck_update, deck_visibility_set
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


def page_url(deck, version=None):
    if version is None:
        return reverse("deckpages:page", args=[deck.public_id])
    return reverse("deckpages:version", args=[deck.public_id, version])


@pytest.fixture
def legal_deck(deck_catalog, user):
    draft = DeckDraft(
        ruler="apprentice", main=legal_apprentice_main(), description="Line one\nLine two", considering={"TS-100": 1}
    )
    deck = deck_create_from_draft(owner=user, draft=draft, name="Squire rush")
    return deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)


def save(deck, **changes):
    draft = replace(deck_draft_of(deck=deck), **changes)
    return deck_update(deck=deck, draft=draft, base_version=deck.version)


def test_it_shows_the_deck_with_its_rules_cards_verdict_and_owner(client, legal_deck):
    response = client.get(page_url(legal_deck))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 data-testid="deck-name">Squire rush</h1>' in html
    assert '<dd data-testid="ruler">Apprentice</dd>' in html
    assert 'data-testid="owner">alice<' in html
    assert '<h3 data-group="unit">Units (50)</h3>' in html
    assert re.search(
        r'data-number="TS-001"><span class="count">4×</span> '
        r'<span class="name"><a href="/cards/TS-001/">Ember Squire 1</a></span>',
        html,
    )
    # Hovering, tapping or tabbing to a line shows the card's face and its full text (CSS, no script).
    assert '<li tabindex="0" aria-describedby="peek-main-TS-001" data-number="TS-001">' in html
    assert re.search(r'<div class="card-peek" id="peek-main-TS-001" role="tooltip">\s*<article class="card-face"', html)
    assert 'data-testid="verdict">Legal<' in html
    assert re.search(r'data-testid="judged-by">Apprentice, rules in force on <time datetime="\d{4}-\d\d-\d\d">', html)
    assert 'data-testid="curve"' in html
    # The considering board is the owner's scratch space, not part of the shared deck.
    assert "Sky Lancer" not in html
    assert f'href="/d/{legal_deck.public_id}/export.txt"' in html
    assert f'href="/d/{legal_deck.public_id}/sheet/"' in html
    assert f'hx-get="/decks/{legal_deck.public_id}/odds/"' in html  # the draw odds load for this deck


def test_it_lists_every_violation_of_an_illegal_deck(client, deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 5}), name="Bad")

    html = client.get(page_url(deck), follow=True).content.decode()  # the owner is not logged in: 404
    assert "Bad" not in html
    client.force_login(user)
    html = client.get(page_url(deck)).content.decode()

    rules = re.findall(r'<li data-rule="([^"]+)"><span class="violation-message">', html)
    assert "deck_size" in rules
    assert len(rules) >= 2  # too small, and five copies of one card
    assert re.search(r'data-testid="verdict">Not legal: \d+ problems<', html)


def test_it_judges_under_the_decks_rules_date(client, deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="Dated")
    deck = save(deck, rules_date=deck.created_at.date().replace(year=2026, month=1, day=1))
    client.force_login(user)

    html = client.get(page_url(deck)).content.decode()

    assert 'rules in force on <time datetime="2026-01-01">' in html
    assert 'class="rules-note"' not in html


def test_a_date_before_the_earliest_recorded_rules_says_they_are_judged_by(client, deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="Old")
    deck = save(deck, rules_date=deck.created_at.date().replace(year=2019, month=1, day=1))
    client.force_login(user)

    html = htmllib.unescape(client.get(page_url(deck)).content.decode())

    assert re.search(
        r'<p class="rules-note" role="note">Apprentice.s rules on 2019-01-01 are not recorded: the earliest recorded '
        r"are from 2020-11-26 \(.+\), and this deck is judged by them.</p>",
        html,
    )


def test_it_escapes_the_name_and_description_and_keeps_line_breaks(client, deck_catalog, user):
    deck = deck_create_from_draft(
        owner=user,
        draft=DeckDraft(ruler="apprentice", description="<script>alert(1)</script>\nsecond <b>line</b>"),
        name='<img src=x onerror="alert(1)">',
    )
    deck_visibility_set(deck=deck, visibility=Visibility.UNLISTED)

    html = client.get(page_url(deck)).content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;<br>second &lt;b&gt;line&lt;/b&gt;" in html
    assert '<meta property="og:title" content="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;">' in html


def test_it_has_open_graph_and_twitter_tags_with_an_absolute_url(client, legal_deck):
    html = client.get(page_url(legal_deck)).content.decode()

    def meta(attr, key):
        match = re.search(rf'<meta {attr}="{re.escape(key)}" content="([^"]*)">', html)
        assert match, key
        return htmllib.unescape(match.group(1))

    assert meta("property", "og:title") == "Squire rush"
    assert meta("property", "og:url") == f"http://testserver/d/{legal_deck.public_id}/"
    description = meta("property", "og:description")
    assert description.startswith("Apprentice · 50 cards · Legal under the rules of ")
    assert meta("name", "twitter:card") == "summary"
    assert meta("name", "twitter:title") == "Squire rush"
    assert meta("name", "twitter:description") == description


def test_it_shows_the_changelog_of_each_save(client, legal_deck):
    deck = save(legal_deck, main={**legal_apprentice_main(), "TS-013": 4, "TS-001": 2})
    deck = save(deck, geas="oath-of-the-lone-banner")

    html = client.get(page_url(deck)).content.decode()

    history = html[html.index('data-testid="history"') :]
    assert re.search(r'data-version="3">.*?<li>Geas: none → Oath of the Lone Banner</li>', history, re.S)
    assert re.search(r'data-version="2">.*?<li>\+2 Ember Squire 13</li><li>\u22122 Ember Squire 1</li>', history, re.S)
    assert re.search(r'data-version="1">.*?Created', history, re.S)
    assert history.index('data-version="3"') < history.index('data-version="1"')


def test_a_past_version_shows_the_deck_as_it_was_with_its_changes(client, legal_deck):
    deck = save(legal_deck, main={"TS-001": 4})

    old = client.get(page_url(deck, 1)).content.decode()
    new = client.get(page_url(deck, 2)).content.decode()

    assert 'data-testid="past-version"' in old
    assert "Version 1 of 2" in old
    assert 'data-testid="verdict">Legal<' in old
    assert "Ember Squire 13" in old
    assert "Version 2 of 2" in new
    assert 'data-testid="verdict">Not legal' in new
    assert "\u221212 Ember Squire 13" not in old
    assert re.search(r"<li>\u22122 Ember Squire 13</li>", new)
    assert f'href="/d/{deck.public_id}/v/1/"' in new


def test_an_unknown_version_is_not_found(client, legal_deck):
    assert client.get(page_url(legal_deck, 7)).status_code == 404


def test_a_copy_links_to_its_readable_source_and_the_source_counts_copies(client, legal_deck, other_user):
    client.force_login(other_user)
    response = client.post(reverse("deckpages:copy", args=[legal_deck.public_id]))
    copy = other_user.decks.get()

    source_html = client.get(page_url(legal_deck)).content.decode()
    copy_html = client.get(page_url(copy)).content.decode()

    assert response.status_code == 302
    assert 'data-testid="copies">Copied 1 time.' in source_html
    assert f'Copied from <a href="/d/{legal_deck.public_id}/">Squire rush</a>' in copy_html
    deck_visibility_set(deck=legal_deck, visibility=Visibility.PRIVATE)
    assert 'data-testid="source"' not in client.get(page_url(copy)).content.decode()


def test_only_the_owner_sees_the_owner_tools(client, legal_deck, user, other_user):
    client.force_login(other_user)
    other = client.get(page_url(legal_deck)).content.decode()
    client.force_login(user)
    owner = client.get(page_url(legal_deck)).content.decode()

    assert 'data-testid="visibility-form"' in owner
    assert 'data-testid="visibility-form"' not in other
    assert 'data-testid="copy-deck"' in other
    assert 'data-testid="archive"' not in other


def test_the_deck_page_takes_at_most_ten_queries(client, legal_deck, user, django_assert_max_num_queries):
    deck = save(legal_deck, geas="oath-of-the-lone-banner", main={"TS-100": 1})  # a geas, and removed cards
    copy = deck_create_from_draft(owner=user, draft=deck_draft_of(deck=deck), name="Copy")
    copy.forked_from = deck
    copy.save()
    client.force_login(user)
    client.get(page_url(copy))  # the rules cache warms up, as on a running server

    with django_assert_max_num_queries(10):
        response = client.get(page_url(deck))
    with django_assert_max_num_queries(10):
        client.get(page_url(copy))
    assert response.status_code == 200


def test_an_anonymous_visit_takes_fewer_queries(client, legal_deck, django_assert_max_num_queries):
    client.get(page_url(legal_deck))

    with django_assert_max_num_queries(6):
        client.get(page_url(legal_deck))


def test_a_deck_the_rules_cannot_judge_says_why(client, legal_deck, monkeypatch):
    import decks.selectors
    from gatesite.errors import ApplicationError

    def refuse(**kwargs):
        raise ApplicationError("Geas 'x' is not in force on 2026-01-01.")

    monkeypatch.setattr(decks.sharing.selectors, "deck_view", refuse)

    response = client.get(page_url(legal_deck))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="verdict">Cannot be judged<' in html
    assert "Geas &#x27;x&#x27; is not in force on 2026-01-01." in html


def test_a_past_version_shows_its_own_description(client, legal_deck):
    deck = save(legal_deck, description="Now <different>")

    old = client.get(page_url(deck, 1)).content.decode()
    new = client.get(page_url(deck)).content.decode()

    assert "<p>Line one<br>Line two</p>" in old
    assert "<p>Now &lt;different&gt;</p>" in new
    assert "<li>Description changed</li>" in new


def test_only_public_decks_are_offered_to_search_engines(client, legal_deck):
    public = client.get(page_url(legal_deck)).content.decode()
    deck_visibility_set(deck=legal_deck, visibility=Visibility.UNLISTED)
    unlisted = client.get(page_url(legal_deck)).content.decode()

    assert '<meta name="robots" content="noindex">' not in public
    assert '<meta name="robots" content="noindex">' in unlisted


def test_it_also_shows_the_stored_verdict_with_its_reason(client, legal_deck):
    from decks.models import Deck

    Deck.objects.filter(pk=legal_deck.pk).update(
        legal=False, illegal_since="2026-03-01", verdict_reason="Ember Squire 1 is banned."
    )

    html = client.get(page_url(legal_deck)).content.decode()
    past = client.get(page_url(legal_deck, 1)).content.decode()

    assert 'data-testid="stored-verdict"' in html
    assert "Not legal since 2026-03-01: Ember Squire 1 is banned." in html
    assert 'data-testid="stored-verdict"' not in past


def test_the_main_actions_come_first_with_a_copy_link_button(client, legal_deck, user):
    client.force_login(user)
    html = client.get(page_url(legal_deck)).content.decode()

    actions = html.index('data-testid="deck-actions"')
    # Edit, share, export come before the cards and the verdict, not after them.
    assert actions < html.index('data-testid="verdict"')
    assert actions < html.index('<h3 data-group="unit">')
    for testid in ("edit-deck", "copy-link", "export-links"):
        assert actions < html.index(f'data-testid="{testid}"') < html.index('data-testid="verdict"'), testid
    assert re.search(r'data-copy-link="http://testserver/d/[\w-]+/"', html)
    assert "/static/decks/copy_link.js" in html


def test_no_template_comment_shows_on_the_page(client, legal_deck):
    # {# … #} spans one line only: a comment over two lines is printed as text.
    assert "{#" not in client.get(page_url(legal_deck)).content.decode()
