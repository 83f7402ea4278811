"""Sign up, log in, log out and password change (Django auth with our templates)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_it_shows_the_sign_up_form(client):
    response = client.get("/accounts/signup/?next=/decks/new/save/")

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="password1"' in html
    assert 'name="next" value="/decks/new/save/"' in html


def test_it_signs_up_and_logs_the_player_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long passphrase 9", "password2": "a long passphrase 9"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/decks/"
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get("/decks/").status_code == 200


def test_it_refuses_a_weak_or_mismatched_password(client):
    response = client.post(
        "/accounts/signup/", {"username": "newbie", "password1": "12345678", "password2": "12345679"}
    )

    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_it_never_redirects_off_site_after_sign_up(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "password1": "a long passphrase 9",
            "password2": "a long passphrase 9",
            "next": "https://evil.example/",
        },
    )

    assert response["Location"] == "/decks/"


def test_it_sends_a_logged_in_player_on_from_sign_up(client, user):
    client.force_login(user)

    assert client.get("/accounts/signup/")["Location"] == "/decks/"


def test_it_logs_in_and_out(client, user):
    page = client.get("/accounts/login/?next=/decks/new/save/").content.decode()
    assert 'href="/accounts/signup/?next=/decks/new/save/"' in page

    response = client.post("/accounts/login/", {"username": "alice", "password": "correct horse battery"})
    assert response["Location"] == "/decks/"
    assert "Signed in as alice" in client.get("/decks/").content.decode()

    response = client.post("/accounts/logout/")
    assert response["Location"] == "/"
    assert client.get("/decks/").status_code == 302


def test_logging_out_needs_a_post(client, user):
    client.force_login(user)

    assert client.get("/accounts/logout/").status_code == 405


def test_it_changes_the_password(client, user):
    client.force_login(user)
    assert client.get("/accounts/password_change/").status_code == 200

    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "correct horse battery",
            "new_password1": "another long one 7",
            "new_password2": "another long one 7",
        },
    )

    assert response["Location"] == "/accounts/password_change/done/"
    assert client.get("/accounts/password_change/done/").status_code == 200
    user.refresh_from_db()
    assert user.check_password("another long one 7")


def test_the_navigation_follows_the_login(client, user):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html
    assert 'href="/accounts/signup/"' in html

    client.force_login(user)
    html = client.get("/").content.decode()
    assert 'href="/decks/"' in html
    assert 'action="/accounts/logout/"' in html


def test_there_is_no_password_reset_by_mail(client):
    """An account has no e-mail address (sign-up asks for none) and the site sends no mail: no page offers a reset
    (Django's were the admin's pages, in its chrome, and posting one tried to send a mail)."""
    client.cookies["django_language"] = "ja"

    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.get("/accounts/login/").status_code == 200
