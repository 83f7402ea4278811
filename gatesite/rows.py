"""Model instances from rows read in plain SQL, converted as the ORM converts them.

For the few reads that every request of a kind makes (the signed-in player, the deck an editor's
click changes), where compiling an ORM query and making its instance cost more CPU than the rest
of the request's reads: the caller writes the SQL, selecting `model_columns(model)`, and gets the
same instance as the ORM would give from `model_from_row`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)

# By model and database: the ORM's conversions (a field's index and column) and the fields' attnames.
_conversions: dict[tuple[type[Model], str], tuple[list[tuple[int, Any]], list[str]]] = {}
# By model, database and table alias: the columns in SQL.
_columns: dict[tuple[type[Model], str, str], str] = {}


def default_db() -> BaseDatabaseWrapper:
    """The default database's connection itself.

    `django.db.connection` is a proxy that looks the connection up again for each attribute read,
    in a thread- and task-local store (asgiref's Local: about 20 000 instructions a read, a few
    dozen reads in an editor's click). Code that reads several of its attributes, or passes it to
    the ORM's fields (each of which reads its `ops`), takes it once from here.
    """
    return connections[DEFAULT_DB_ALIAS]


def _conversions_of(model: type[Model], db: BaseDatabaseWrapper) -> tuple[list[tuple[int, Any]], list[str]]:
    key = (model, db.vendor)
    found = _conversions.get(key)
    if found is None:
        converted = []
        for i, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            if db.ops.get_db_converters(column) + column.get_db_converters(db):
                converted.append((i, column))
        found = _conversions[key] = (converted, [field.attname for field in model._meta.concrete_fields])
    return found


def model_columns(model: type[Model], alias: str, db: BaseDatabaseWrapper | None = None) -> str:
    """The model's concrete columns, in its fields' order, as `alias`.column, for a SELECT (on `db`: the default)."""
    db = db or default_db()
    key = (model, db.vendor, alias)
    found = _columns.get(key)
    if found is None:
        q = db.ops.quote_name
        found = _columns[key] = ", ".join(f"{alias}.{q(field.column)}" for field in model._meta.concrete_fields)
    return found


def model_from_row(model: type[M], values: list[Any] | tuple[Any, ...], db: BaseDatabaseWrapper | None = None) -> M:
    """The instance of a row read by selecting model_columns(model, ...), as the ORM makes it.

    The ORM's conversions of what the driver gives (SQLite's dates and times as text, its booleans
    as 0/1, a field's from_db_value) come from the connection the row was read on (`db`: the default;
    a converter may read its settings, e.g. its time zone).
    """
    db = db or default_db()
    converted, attnames = _conversions_of(model, db)
    values = list(values)
    for i, column in converted:
        for convert in db.ops.get_db_converters(column) + column.get_db_converters(db):
            values[i] = convert(values[i], column, db)
    return model.from_db(db.alias, attnames, values)


def model_row_get(model: type[M], where: list[tuple[str, str, Any]]) -> M | None:
    """The instance of the one row of `model` meeting every (field name, SQL operator, value) of `where`
    (`model.objects.get(...)` as one plain SQL statement); None when there is none.

    Values are prepared for the database as the ORM prepares them (field.get_db_prep_value).
    """
    db = default_db()
    meta, q = model._meta, db.ops.quote_name
    tests, params = [], []
    for name, operator, value in where:
        field = meta.get_field(name)
        tests.append(f"t.{q(field.column)} {operator} %s")  # type: ignore[union-attr]
        params.append(field.get_db_prep_value(value, db))  # type: ignore[union-attr]
    sql = f"SELECT {model_columns(model, 't', db)} FROM {q(meta.db_table)} t WHERE {' AND '.join(tests)}"
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else model_from_row(model, row, db)
