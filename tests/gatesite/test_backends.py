"""PlayerBackend (gatesite/accounts/backends.py): ModelBackend's sign-in, the signed-in player read in plain SQL."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import check_password as real_check_password
from django.contrib.auth.signals import user_login_failed

from gatesite.accounts.backends import PlayerBackend

pytestmark = pytest.mark.django_db

RIGHT = "correct horse battery"
PLAYER_BACKEND = "gatesite.accounts.backends.PlayerBackend"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _fields(user):
    return {field.attname: getattr(user, field.attname) for field in get_user_model()._meta.concrete_fields}


def test_it_reads_the_player_as_model_backend_does(user):
    user.first_name, user.is_staff = "Alice", True
    user.last_login = datetime.datetime(2026, 11, 24, 5, 6, 7, 890123, tzinfo=datetime.UTC)
    user.save()

    read, expected = PlayerBackend().get_user(user.pk), ModelBackend().get_user(user.pk)

    assert type(read) is type(expected)
    assert _fields(read) == _fields(expected)
    # Converted as the ORM converts them, not the driver's text or 0/1 (SQLite).
    assert read.last_login == user.last_login
    assert read.is_staff is True
    assert read._state.adding is False
    assert read._state.db == "default"
    assert read.check_password(RIGHT)


def test_it_reads_no_one_for_an_unknown_or_inactive_player(user):
    assert PlayerBackend().get_user(user.pk + 1000) is None
    user.is_active = False
    user.save()
    assert PlayerBackend().get_user(user.pk) is None


def test_a_sign_in_is_kept_under_player_backend(client, user):
    assert client.post("/accounts/login/", {"username": "alice", "password": RIGHT}).status_code == 302

    assert client.session[BACKEND_SESSION_KEY] == PLAYER_BACKEND
    assert client.get("/accounts/password_change/").status_code == 200  # signed in on the next request


def test_sign_up_signs_in_under_player_backend(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "bob", "password1": "a long new passphrase", "password2": "a long new passphrase"},
    )

    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == PLAYER_BACKEND


def test_a_session_signed_in_before_player_backend_stays_signed_in(client, user):
    client.force_login(user, backend=MODEL_BACKEND)

    assert client.session[BACKEND_SESSION_KEY] == MODEL_BACKEND
    assert client.get("/accounts/password_change/").status_code == 200


def test_a_wrong_password_is_checked_once_and_counted_once(client, user, monkeypatch):
    checks, failures = [], []

    def counted(password, encoded, *args, **kwargs):
        checks.append(password)
        return real_check_password(password, encoded, *args, **kwargs)

    monkeypatch.setattr("django.contrib.auth.base_user.check_password", counted)

    def failed(**kwargs):
        failures.append(kwargs["credentials"]["username"])

    user_login_failed.connect(failed)
    try:
        response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    finally:
        user_login_failed.disconnect(failed)

    assert response.status_code == 200  # the form again, with its error
    assert checks == ["wrong"]  # not a second time by ModelBackend, listed after PlayerBackend
    assert failures == ["alice"]
    assert BACKEND_SESSION_KEY not in client.session
