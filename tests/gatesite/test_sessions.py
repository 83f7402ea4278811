"""gatesite/sessions/: Django's session stores, the session row read in plain SQL."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.sessions.backends import cached_db as django_cached_db
from django.contrib.sessions.backends import db as django_db
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.utils import timezone

from gatesite.sessions import cached_db, db
from gatesite.sessions.db import SessionRead

pytestmark = pytest.mark.django_db

STORES = [(db.SessionStore, django_db.SessionStore), (cached_db.SessionStore, django_cached_db.SessionStore)]


def _saved(data):
    store = db.SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def _fields(session):
    return {field.attname: getattr(session, field.attname) for field in Session._meta.concrete_fields}


@pytest.mark.parametrize(("ours", "django"), STORES)
def test_it_reads_the_session_as_django_does(ours, django):
    key = _saved({"_auth_user_id": "7", "draft": {"name": "Mine", "cards": [["A-001", 2]]}})
    cache.clear()

    row, expected = ours(key)._get_session_from_db(), django(key)._get_session_from_db()

    assert type(row) is Session
    assert _fields(row) == _fields(expected)
    # Converted as the ORM converts them (SQLite gives the expiry as text).
    assert isinstance(row.expire_date, datetime.datetime)
    assert row._state.adding is False
    cache.clear()
    assert (
        ours(key).load()
        == django(key).load()
        == {"_auth_user_id": "7", "draft": {"name": "Mine", "cards": [["A-001", 2]]}}
    )


@pytest.mark.parametrize(("ours", "django"), STORES)
def test_it_forgets_a_session_expired_or_unknown(ours, django):
    key = _saved({"_auth_user_id": "7"})
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    cache.clear()

    for session_key in (key, "x" * 32):
        store = ours(session_key)
        assert store._get_session_from_db() is None
        assert store.session_key is None
        assert store.load() == {} == django(session_key).load()


def test_a_signed_in_player_stays_signed_in(client, user):
    client.force_login(user)

    assert client.get("/accounts/password_change/").status_code == 200
    # Ours whichever the settings chose (cached_db where a shared cache is configured, as on CI).
    assert type(client.session).__module__ == settings.SESSION_ENGINE
    assert isinstance(client.session, SessionRead)
