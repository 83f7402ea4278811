"""Django's cached_db session store (read from the cache, kept in the database), its database read
in one plain SQL statement as gatesite/sessions/db.py's."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db

from .db import SessionRead


class SessionStore(SessionRead, cached_db.SessionStore):
    pass
