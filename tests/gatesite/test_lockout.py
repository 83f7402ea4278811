"""Sign-in lockout (django-axes, gatesite/accounts/lockout.py): per username and per address, on the log-in
page, the admin's and the API token endpoint; a clear message; an admin unlocks."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db

RIGHT = "correct horse battery"
TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture
def lockout(settings):
    """Axes as in production (the test settings turn it off so that no other test is ever locked out)."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)


def _login(client, password, username="alice", **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def _token(client, password, username="alice", **extra):
    body = {"username": username, "password": password}
    return client.post(TOKEN_URL, body, content_type="application/json", **extra)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_it_locks_a_username_out_of_the_login_page_even_with_the_right_password(client, user, lockout):
    failures = [_login(client, "wrong").status_code for _ in range(3)]

    response = _login(client, RIGHT)

    assert failures[:2] == [200, 200]  # the form again, with its error
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    assert not _signed_in(client)


def test_it_locks_a_username_out_whatever_address_it_comes_from(client, user, lockout):
    for i in range(3):
        _login(client, "wrong", REMOTE_ADDR=f"192.0.2.{i}")

    assert _login(client, RIGHT, REMOTE_ADDR="192.0.2.200").status_code == 429


def test_it_locks_an_address_out_whatever_usernames_it_tries(client, user, lockout):
    for name in ("bob", "carol", "dave"):
        _login(client, "wrong", username=name)

    assert _login(client, RIGHT).status_code == 429
    assert _login(client, RIGHT, REMOTE_ADDR="192.0.2.77").status_code == 302  # alice from elsewhere


def test_a_forged_x_forwarded_for_does_not_escape_the_address_lockout(client, user, lockout):
    for i, name in enumerate(("bob", "carol", "dave")):
        _login(client, "wrong", username=name, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")

    assert _login(client, RIGHT, HTTP_X_FORWARDED_FOR="203.0.113.99").status_code == 429


def test_a_successful_sign_in_resets_the_count(client, user, lockout):
    for _ in range(2):
        _login(client, "wrong")
    assert _login(client, RIGHT).status_code == 302
    client.logout()
    for _ in range(2):
        _login(client, "wrong")

    assert _login(client, RIGHT).status_code == 302


def test_it_locks_the_admin_login_out(client, lockout):
    get_user_model().objects.create_superuser("root", "root@example.com", RIGHT)

    def admin_login(password):
        return client.post("/admin/login/?next=/admin/", {"username": "root", "password": password, "next": "/admin/"})

    for _ in range(3):
        admin_login("wrong")
    response = admin_login(RIGHT)

    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert not _signed_in(client)


def test_it_locks_the_token_endpoint_out_with_json(client, user, lockout):
    failures = [_token(client, "wrong").status_code for _ in range(3)]

    response = _token(client, RIGHT)

    assert failures[:2] == [400, 400]
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert "Too many failed sign-ins" in response.json()["detail"]
    assert int(response["Retry-After"]) == 15 * 60
    assert "token" not in response.json()


def test_failures_on_the_token_endpoint_count_for_the_login_page(client, user, lockout):
    for _ in range(3):
        _token(client, "wrong")

    assert _login(client, RIGHT).status_code == 429


def test_an_admin_unlocks_with_axes_reset(client, user, lockout):
    for _ in range(3):
        _login(client, "wrong")
    assert _login(client, RIGHT).status_code == 429

    call_command("axes_reset")

    assert _login(client, RIGHT).status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, user, lockout):
    import time_machine
    from django.utils import timezone

    for _ in range(3):
        _login(client, "wrong")

    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=16)):
        assert _login(client, RIGHT).status_code == 302


def test_the_test_settings_keep_other_tests_from_being_locked_out(client, user, settings):
    assert settings.AXES_ENABLED is False
    for _ in range(10):
        _login(client, "wrong")

    assert _login(client, RIGHT).status_code == 302
