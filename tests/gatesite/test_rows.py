"""gatesite/rows.py: model instances from plain SQL rows, on the default connection or the one given."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from gatesite.rows import default_db, model_columns, model_from_row, model_row_get

pytestmark = pytest.mark.django_db


def test_the_default_db_is_the_connection_itself_not_its_proxy():
    assert default_db() is connections["default"]
    assert default_db() is not connection  # the proxy looks it up again on every attribute read
    assert default_db().alias == connection.alias == "default"


def test_a_row_read_on_the_given_connection_is_the_orms_instance(user):
    model = get_user_model()
    db = default_db()
    assert model_columns(model, "u", db) == model_columns(model, "u")
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT {model_columns(model, 'u', db)} FROM {model._meta.db_table} u WHERE u.id = %s", [user.pk]
        )
        row = cursor.fetchone()

    for read in (model_from_row(model, row, db), model_from_row(model, row)):
        assert read.pk == user.pk
        assert read.date_joined == user.date_joined  # converted as the ORM converts it (SQLite: text)
        assert read._state.db == "default"
        assert read._state.adding is False


def test_a_row_got_by_its_fields_is_the_orm_s_instance_or_none(user, other_user):
    model = get_user_model()
    got = model_row_get(model, [("id", "=", user.pk), ("username", "=", user.username)])

    assert got == model.objects.get(pk=user.pk)
    assert (got.username, got.date_joined, got.is_active) == (user.username, user.date_joined, user.is_active)
    assert model_row_get(model, [("id", "=", user.pk), ("username", "=", other_user.username)]) is None
    assert model_row_get(model, [("id", ">", user.pk), ("id", "<=", other_user.pk)]) == other_user
