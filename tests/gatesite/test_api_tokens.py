"""API tokens (gatesite/accounts, gatesite/apis.py): issued at POST /api/v1/auth/token/, stored hashed,
expiring, revocable by their owner; DRF's clear-text tokens migrated; `manage.py drf_create_token`."""

from __future__ import annotations

import datetime
import importlib
import io
from types import SimpleNamespace

import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from gatesite.accounts.models import ApiToken, api_token_digest
from gatesite.accounts.services import api_token_create

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
REVOKE_URL = "/api/v1/auth/token/revoke/"
# An endpoint that tells a token's owner from an anonymous client: the own listing includes private decks.
WHO = "/api/v1/decks/"


def _token_for(client, username="alice", password="correct horse battery"):
    return client.post(TOKEN_URL, {"username": username, "password": password}, content_type="application/json")


def _revoke(client, body=None, **extra):
    return client.post(REVOKE_URL, body or {}, content_type="application/json", **extra)


def _authenticates(client, key: str) -> bool:
    return client.get(WHO, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def test_it_answers_a_new_token_and_its_expiry_and_stores_only_a_digest(client, user, settings):
    settings.API_TOKEN_TTL_DAYS = 30

    response = _token_for(client)

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expiry"}
    stored = ApiToken.objects.get(user=user)
    assert stored.digest == api_token_digest(body["token"])
    assert body["token"] not in {stored.digest, stored.prefix}
    expiry = datetime.datetime.fromisoformat(body["expiry"].replace("Z", "+00:00"))
    assert abs(expiry - (timezone.now() + datetime.timedelta(days=30))) < datetime.timedelta(minutes=1)
    assert _authenticates(client, body["token"])


def test_each_request_gets_a_new_token_and_the_old_one_keeps_working(client, user):
    first = _token_for(client).json()["token"]
    second = _token_for(client).json()["token"]

    assert first != second
    assert _authenticates(client, first)
    assert _authenticates(client, second)


def test_it_refuses_a_wrong_password_with_a_400(client, user):
    response = _token_for(client, password="wrong")

    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_it_refuses_an_expired_token(client, user, settings):
    settings.API_TOKEN_TTL_DAYS = 2
    _, key = api_token_create(user=user)

    with time_machine.travel(timezone.now() + datetime.timedelta(days=2, minutes=1)):
        response = client.get(WHO, HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert "expired" in response.json()["detail"]


def test_it_refuses_an_unknown_token(client, user):
    api_token_create(user=user)

    assert client.get(WHO, HTTP_AUTHORIZATION="Token not-a-token").status_code == 401
    japanese = client.get(WHO, HTTP_AUTHORIZATION="Token not-a-token", HTTP_ACCEPT_LANGUAGE="ja")
    assert japanese.json() == {"detail": "トークンが正しくないか、期限切れです。"}


def test_the_owner_revokes_the_token_used(client, user):
    _, used = api_token_create(user=user)
    _, other = api_token_create(user=user)

    response = _revoke(client, HTTP_AUTHORIZATION=f"Token {used}")

    assert response.status_code == 200
    assert response.json() == {"revoked": 1}
    assert not _authenticates(client, used)
    assert _authenticates(client, other)


def test_the_owner_revokes_all_their_tokens_and_no_one_elses(client, user, other_user):
    _, used = api_token_create(user=user)
    _, other = api_token_create(user=user)
    _, theirs = api_token_create(user=other_user)

    response = _revoke(client, {"all": True}, HTTP_AUTHORIZATION=f"Token {used}")

    assert response.json() == {"revoked": 2}
    assert not _authenticates(client, used)
    assert not _authenticates(client, other)
    assert _authenticates(client, theirs)


def test_a_signed_in_session_revokes_all_its_owners_tokens(client, user):
    _, key = api_token_create(user=user)
    client.force_login(user)

    assert _revoke(client).json() == {"revoked": 1}
    client.logout()
    assert not _authenticates(client, key)


def test_revoking_needs_credentials(client):
    assert _revoke(client).status_code == 401


def test_creating_a_token_drops_the_users_expired_ones(user, settings):
    settings.API_TOKEN_TTL_DAYS = 1
    api_token_create(user=user)

    with time_machine.travel(timezone.now() + datetime.timedelta(days=2)):
        api_token_create(user=user)

    assert ApiToken.objects.filter(user=user).count() == 1


def test_the_admin_command_prints_a_working_token(client, user):
    _, old = api_token_create(user=user)
    out = io.StringIO()

    call_command("drf_create_token", "alice", "-r", stdout=out)

    key = out.getvalue().split()[2]
    assert out.getvalue().startswith(f"Generated token {key} for user alice")
    assert _authenticates(client, key)
    assert not _authenticates(client, old)  # -r revoked the others


def test_the_admin_command_refuses_an_unknown_user(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="does not exist"):
        call_command("drf_create_token", "nobody")


def test_the_migration_turns_clear_text_tokens_into_hashed_ones_that_keep_working(client, user):
    """A database from before: DRF's authtoken_token table with a 40-hex-digit key in clear text."""
    key = "0123456789abcdef0123456789abcdef01234567"
    created_type = "datetime" if connection.vendor == "sqlite" else "timestamp with time zone"
    with connection.cursor() as cursor:
        cursor.execute(
            f'CREATE TABLE authtoken_token ("key" varchar(40) PRIMARY KEY, created {created_type} NOT NULL, user_id bigint NOT NULL)'
        )
        cursor.execute(
            'INSERT INTO authtoken_token ("key", created, user_id) VALUES (%s, %s, %s)',
            [key, connection.ops.adapt_datetimefield_value(timezone.now()), user.pk],
        )
    migration = importlib.import_module("gatesite.accounts.migrations.0002_api_tokens_from_authtoken")

    migration.tokens_hash(apps, SimpleNamespace(connection=connection))

    assert ApiToken.objects.get(user=user).digest == api_token_digest(key)
    assert _authenticates(client, key)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # no clear-text token left
