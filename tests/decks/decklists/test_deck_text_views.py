"""Export (text, JSON, registration sheet), import by pasting, and share links: permissions, preview, escaping."""

from __future__ import annotations

import base64
import json
import re
import zlib

import pytest
from django.test import Client
from django.urls import reverse

from decks.decklists.selectors import deck_draft_link
from decks.models import Deck, DeckDraft, DeckVersion, Visibility
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft, deck_update
from tests.cards.factories import CardFactory, PrintingFactory
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

SESSION_DRAFT = "deck_draft"


@pytest.fixture
def saved(deck_catalog, user):
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main(), considering={"TS-100": 1})
    return deck_create_from_draft(owner=user, draft=draft, name="Squires & <Co>")


def url(name: str, deck: Deck) -> str:
    return reverse(name, args=[deck.public_id])


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ---------------------------------------------------------------- export


def test_it_exports_the_deck_as_a_text_file(saved, user):
    response = logged_in(user).get(url("deck-export-text", saved))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="squires-co.txt"'
    text = response.content.decode()
    assert text.startswith("# Squires & <Co>\nRuler: Apprentice\n")
    assert "4 Ember Squire 1\n" in text
    assert "2 Ember Squire 13\n" in text
    assert "Sky Lancer" not in text  # the considering board is not part of the deck


def test_it_exports_the_validate_api_body_which_the_api_accepts(saved, user, client):
    response = logged_in(user).get(url("deck-export-json", saved))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert body["ruler"] == "apprentice"
    assert {line["number"]: line["count"] for line in body["main"]} == legal_apprentice_main()
    judged = client.post("/api/v1/decks/validate/", body, content_type="application/json")
    assert judged.status_code == 200, judged.content
    assert judged.json()["legal"] is True
    assert judged.json()["summary"]["size"] == 50


def test_it_prints_a_registration_sheet(saved, user):
    response = logged_in(user).get(url("deck-sheet", saved))

    html = response.content.decode()
    assert response.status_code == 200
    assert "@media print" in html
    for blank in ("Player name", "Player ID", "Event", "Date"):
        assert f'<span class="label">{blank}</span><span class="value"></span>' in html
    assert re.search(r'data-testid="sheet-main-total">50<', html)
    assert (
        '<tr data-number="TS-013"><td class="num">2</td><td>Ember Squire 13</td><td class="type">Unit</td><td class="level">1</td>'
        in html
    )
    assert "Squires &amp; &lt;Co&gt;" in html
    assert "<Co>" not in html


@pytest.mark.parametrize("name", ["deck-export-text", "deck-export-json", "deck-sheet", "decks:share"])
def test_a_private_deck_is_not_found_for_anyone_else(saved, other_user, client, name):
    assert logged_in(other_user).get(url(name, saved)).status_code == 404
    assert client.get(url(name, saved)).status_code == 404


@pytest.mark.parametrize("visibility", [Visibility.UNLISTED, Visibility.PUBLIC])
@pytest.mark.parametrize("name", ["deck-export-text", "deck-export-json", "deck-sheet"])
def test_an_unlisted_or_public_deck_exports_for_anyone(saved, client, name, visibility):
    Deck.objects.filter(pk=saved.pk).update(visibility=visibility)

    assert client.get(url(name, saved)).status_code == 200


def test_an_unknown_deck_is_not_found(client, db):
    assert client.get("/d/nope/export.txt").status_code == 404


def test_the_editor_offers_exports_sharing_and_import_for_a_saved_deck(saved, user):
    html = logged_in(user).get(url("decks:edit", saved)).content.decode()

    assert f'href="/d/{saved.public_id}/export.txt"' in html
    assert f'href="/d/{saved.public_id}/sheet/"' in html
    assert f'href="/decks/{saved.public_id}/share/"' in html
    assert f'action="/decks/{saved.public_id}/import/"' in html


def test_the_draft_editor_offers_sharing_and_import_but_no_exports(client, deck_catalog):
    html = client.get("/decks/new/").content.decode()

    assert 'href="/decks/new/share/"' in html
    assert 'action="/decks/new/import/"' in html
    assert "export.txt" not in html


# ---------------------------------------------------------------- import into the session's draft


def test_the_preview_lists_the_deck_and_every_bad_line_and_changes_nothing(client, deck_catalog):
    client.post("/decks/new/change/", {"op": "add main TS-100"})
    before = client.session[SESSION_DRAFT]

    response = client.post(
        "/decks/new/import/",
        {"text": "Ruler: Apprentice\n4 Ember Squire 1\n3 Ember Squre 2\n\n# note\n2 <b>Nope</b>\n"},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert client.session[SESSION_DRAFT] == before
    assert 'data-line="3"' in html
    assert 'Did you mean “<strong data-testid="suggestion">Ember Squire 2</strong>”?' in html
    assert 'data-line="6"' in html
    assert "&lt;b&gt;Nope&lt;/b&gt;" in html
    assert "<b>Nope</b>" not in html
    row = re.search(
        r'<tr data-number="TS-901"><td>4</td><td class="peek-holder"[^>]*><a href="/cards/TS-901/">Ember Squire 1</a>(.*?)</td>',
        html,
        re.S,
    )
    assert row, "the line links the card and shows its face and text on hover or focus"
    assert 'role="tooltip"' in row.group(1)
    assert 'data-testid="card-face"' in row.group(1)
    assert 'data-testid="confirm"' in html


def test_did_you_mean_is_a_button_that_fixes_the_line_and_previews_again(client, deck_catalog):
    text = "Rulr: Apprentice\n4 Ember Squire 1\n3 Ember Squre 2\n2 Nope\n"
    html = client.post("/decks/new/import/", {"text": text}).content.decode()
    assert re.search(r'<button type="submit" form="import-form" name="fix" value="3" data-testid="fix-line">', html)

    html = client.post("/decks/new/import/", {"text": text, "fix": "3"}).content.decode()

    # Only line 3 took its suggestion: the misspelt heading and the unknown card are still listed.
    assert "Rulr: Apprentice\n4 Ember Squire 1\n3 Ember Squire 2\n2 Nope\n</textarea>" in html
    assert 'data-line="3"' not in html
    assert 'data-line="1"' in html
    assert 'data-line="4"' in html
    html = client.post("/decks/new/import/", {"text": text, "fix": "1"}).content.decode()
    assert "Ruler: Apprentice\n4 Ember Squire 1\n3 Ember Squre 2" in html


def test_confirming_replaces_the_drafts_deck(client, deck_catalog):
    text = "Ruler: Apprentice\n4 Ember Squire 1\n1 Frost Hare\nbad line here\n"
    preview = client.post("/decks/new/import/", {"text": text}).content.decode()
    fingerprint = re.search(r'name="fingerprint" value="([0-9a-f]+)"', preview).group(1)

    response = client.post("/decks/new/import/", {"text": text, "fingerprint": fingerprint, "confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"
    draft = DeckDraft.from_session(client.session[SESSION_DRAFT])
    assert draft.main == {"TS-901": 4, "TS-150": 1}  # the newest printing of Ember Squire 1
    assert "1 left out" in client.get("/decks/new/").content.decode()


def test_a_confirm_of_a_different_result_shows_the_preview_again(client, deck_catalog):
    text = "4 Ember Squire 1\n"
    preview = client.post("/decks/new/import/", {"text": text}).content.decode()
    fingerprint = re.search(r'name="fingerprint" value="([0-9a-f]+)"', preview).group(1)

    response = client.post(
        "/decks/new/import/", {"text": text + "1 Frost Hare\n", "fingerprint": fingerprint, "confirm": "1"}
    )

    assert response.status_code == 200
    assert "The result changed since the preview" in response.content.decode()
    assert SESSION_DRAFT not in client.session or not DeckDraft.from_session(client.session[SESSION_DRAFT]).main


def test_a_blocked_preview_cannot_be_confirmed(client, deck_catalog):
    response = client.post("/decks/new/import/", {"text": "Ruler: Nobody\n4 Ember Squire 1\n", "confirm": "1"})

    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="blocked"' in html
    assert 'data-testid="confirm"' not in html
    assert SESSION_DRAFT not in client.session


def test_an_empty_paste_is_refused(client, deck_catalog):
    response = client.post("/decks/new/import/", {"text": ""})

    assert response.status_code == 422
    assert "This field is required." in response.content.decode()


def test_the_import_page_needs_csrf(deck_catalog):
    client = Client(enforce_csrf_checks=True)

    assert client.post("/decks/new/import/", {"text": "4 Ember Squire 1"}).status_code == 403


# ---------------------------------------------------------------- import into a saved deck


def _confirm(client, deck, text, **extra):
    page = client.post(url("decks:import", deck), {"text": text}).content.decode()
    fingerprint = re.search(r'name="fingerprint" value="([0-9a-f]+)"', page).group(1)
    version = re.search(r'name="base_version" value="(\d+)"', page).group(1)
    data = {"text": text, "fingerprint": fingerprint, "base_version": version, "confirm": "1", **extra}
    return client.post(url("decks:import", deck), data)


def test_confirming_saves_the_pasted_list_as_a_new_version(saved, user):
    client = logged_in(user)

    response = _confirm(client, saved, "Ruler: Apprentice\n4 Ember Squire 1\n")

    assert response.status_code == 302
    assert response["Location"] == url("decks:edit", saved)
    saved.refresh_from_db()
    assert saved.version == 2
    assert deck_draft_of(deck=saved).main == {"TS-001": 4}
    assert deck_draft_of(deck=saved).considering == {"TS-100": 1}
    assert DeckVersion.objects.filter(deck=saved).count() == 2


def test_text_exported_from_the_app_imports_to_the_same_deck(saved, user):
    client = logged_in(user)
    text = client.get(url("deck-export-text", saved)).content.decode()
    before = deck_draft_of(deck=saved)

    preview = client.post(url("decks:import", saved), {"text": text}).content.decode()
    assert 'data-testid="no-errors"' in preview
    assert _confirm(client, saved, text).status_code == 302

    saved.refresh_from_db()
    assert deck_draft_of(deck=saved) == before


def test_a_deck_changed_since_the_preview_is_a_conflict(saved, user):
    client = logged_in(user)
    text = "Ruler: Apprentice\n4 Ember Squire 1\n"
    page = client.post(url("decks:import", saved), {"text": text}).content.decode()
    fingerprint = re.search(r'name="fingerprint" value="([0-9a-f]+)"', page).group(1)
    deck_update(deck=saved, draft=DeckDraft(ruler="apprentice", main={"TS-002": 1}), base_version=1)  # another tab

    response = client.post(
        url("decks:import", saved), {"text": text, "fingerprint": fingerprint, "base_version": 1, "confirm": "1"}
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-testid="conflict"' in html
    assert "you had version 1, it is now at version 2" in html
    saved.refresh_from_db()
    assert deck_draft_of(deck=saved).main == {"TS-002": 1}
    assert 'name="base_version" value="2"' in html


def test_only_the_owner_imports_into_a_deck(saved, other_user, client):
    # Someone else's private deck does not exist for them; an unlisted or public one is refused.
    assert logged_in(other_user).post(url("decks:import", saved), {"text": "4 Ember Squire 1"}).status_code == 404
    assert logged_in(other_user).get(url("decks:import", saved)).status_code == 404
    assert client.post(url("decks:import", saved), {"text": "4 Ember Squire 1"}).status_code == 404
    Deck.objects.filter(pk=saved.pk).update(visibility=Visibility.PUBLIC)
    assert logged_in(other_user).post(url("decks:import", saved), {"text": "4 Ember Squire 1"}).status_code == 403
    saved.refresh_from_db()
    assert saved.version == 1


# ---------------------------------------------------------------- share links


def test_share_as_link_opens_the_draft_read_only(client, deck_catalog):
    for number in ("TS-001", "TS-001", "TS-150"):
        client.post("/decks/new/change/", {"op": f"add main {number}"})

    response = client.get("/decks/new/share/")

    assert response.status_code == 302
    assert response["Location"].startswith("/decks/link/1")
    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="verdict"' in html
    assert "Not legal" in html
    assert re.search(
        r'<tr data-number="TS-001"><td>2</td><td class="peek-holder"[^>]*><a href="/cards/TS-001/">Ember Squire 1</a>',
        html,
    )
    # Hovering or focusing the line shows the card: its face (from the line's facts) and full text.
    peek = re.search(r'<div class="card-peek" id="peek-main-TS-001" role="tooltip">(.*?)</div>\s*</td>', html, re.S)
    assert peek
    assert 'data-faction="volnar"' in peek.group(1)
    assert 'data-testid="save-copy"' in html
    assert "hx-post" not in html.split('data-testid="deck-name"')[1].split("</form>")[0]


def test_a_saved_deck_shares_as_a_link_with_its_owner(saved, user):
    response = logged_in(user).get(url("decks:share", saved))

    assert response.status_code == 302
    code = response["Location"].split("/")[-2]
    assert code == deck_draft_link(draft=deck_draft_of(deck=saved))


def test_a_link_opens_for_anyone_and_escapes_the_name(deck_catalog, db):
    draft = DeckDraft(ruler="apprentice", name="<script>alert(1)</script>", main=legal_apprentice_main())
    html = Client().get(reverse("decks:link", args=[deck_draft_link(draft=draft)])).content.decode()

    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html
    assert ">Legal<" in html


def test_save_a_copy_loads_the_linked_deck_into_the_draft(client, deck_catalog):
    draft = DeckDraft(ruler="apprentice", name="Shared", main=legal_apprentice_main())
    code = deck_draft_link(draft=draft)

    response = client.post(reverse("decks:link-copy", args=[code]))

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"
    assert DeckDraft.from_session(client.session[SESSION_DRAFT]) == draft


@pytest.mark.parametrize(("code", "message"), [("1AAAA", "damaged"), ("9abc", "format “9”")])
def test_a_bad_link_says_why(client, deck_catalog, code, message):
    response = client.get(reverse("decks:link", args=[code]))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert client.post(reverse("decks:link-copy", args=[code])).status_code == 400


def test_a_link_to_an_unknown_ruler_says_so(client, deck_catalog):
    code = deck_draft_link(draft=DeckDraft(ruler="no-such-ruler"))

    response = client.get(reverse("decks:link", args=[code]))

    assert response.status_code == 400
    assert 'data-testid="link-error"' in response.content.decode()


def test_a_link_with_a_card_not_in_the_catalog_leaves_it_out(client, deck_catalog):
    code = deck_draft_link(draft=DeckDraft(ruler="apprentice", main={"TS-001": 1, "GONE-1": 2}))

    html = client.get(reverse("decks:link", args=[code])).content.decode()

    assert "Not in the catalog, left out: GONE-1" in html


def test_card_names_are_escaped_in_the_preview_and_sheet(deck_catalog, user):
    PrintingFactory(card=CardFactory(name="<img src=x onerror=alert(1)>", level=1), collector_number="XSS-1")
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"XSS-1": 1}), name="x")
    client = logged_in(user)

    sheet = client.get(url("deck-sheet", deck)).content.decode()
    preview = client.post("/decks/new/import/", {"text": "1 <img src=x onerror=alert(1)>"}).content.decode()

    for html in (sheet, preview):
        assert "<img src=x" not in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_japanese_deck_name_gives_a_utf8_file_name(deck_catalog, user):
    deck = deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="竜の デッキ"
    )

    response = logged_in(user).get(url("deck-export-text", deck))

    assert (
        response["Content-Disposition"]
        == "attachment; filename*=utf-8''%E7%AB%9C%E3%81%AE-%E3%83%87%E3%83%83%E3%82%AD.txt"
    )


def test_a_link_nested_too_deeply_says_why(client, deck_catalog):
    # 30 000 brackets in a short code: json.loads raised RecursionError (a 500).
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(b"[" * 30_000 + b"]" * 30_000) + compressor.flush()
    code = "1" + base64.urlsafe_b64encode(packed).decode().rstrip("=")

    response = client.get(reverse("decks:link", args=[code]))

    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert client.post(reverse("decks:link-copy", args=[code])).status_code == 400
