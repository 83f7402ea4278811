"""DRF's clear-text tokens (the table authtoken_token) become hashed ApiTokens that keep working.

rest_framework.authtoken is no longer installed, so its table is read with plain SQL when it is
there (a database from before this migration); a new database has none and nothing is done. The
clear-text rows are deleted: from now on the database holds no token that works. Not reversible
in substance: a digest cannot give the token back (the reverse step does nothing).
"""

import datetime
import hashlib

from django.conf import settings
from django.db import migrations
from django.utils import timezone
from django.utils.dateparse import parse_datetime

OLD_TABLE = "authtoken_token"


def tokens_hash(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    table = connection.ops.quote_name(OLD_TABLE)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {connection.ops.quote_name('key')}, user_id, created FROM {table}")
        rows = cursor.fetchall()
    # The old tokens never expired: they get the full lifetime of a new one from today.
    now = timezone.now()
    expires_at = now + datetime.timedelta(days=settings.API_TOKEN_TTL_DAYS)
    ApiToken.objects.bulk_create(
        ApiToken(
            user_id=user_id,
            digest=hashlib.sha256(key.encode()).hexdigest(),
            prefix=key[:8],
            created_at=_aware(created) or now,
            expires_at=expires_at,
        )
        for key, user_id, created in rows
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table}")


def _aware(value):
    """SQLite hands a timestamp back as text or a naive UTC datetime; PostgreSQL as an aware one."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.timezone.utc)
    return value


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(tokens_hash, migrations.RunPython.noop)]
