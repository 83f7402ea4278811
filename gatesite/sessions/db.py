"""Django's database session store, the session read by one plain SQL statement.

Every signed-in request reads its session (AuthenticationMiddleware asks it who is signed in),
and the ORM's compiling of that `get` and making of its instance cost an editor's click more CPU
than running it (issue 15), as for the player (gatesite/accounts/backends.py). The row, the
expiry test and what a missing session does are Django's; only the reading differs.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.utils import timezone

from gatesite.rows import model_row_get


class SessionRead:
    """`_get_session_from_db` for Django's db store and its subclasses (cached_db)."""

    session_key: str | None
    _session_key: str | None
    model: Any

    def _get_session_from_db(self) -> Any:
        """The unexpired session row (the instance `model.objects.get` would give), or None."""
        session = model_row_get(
            self.model, [("session_key", "=", self.session_key), ("expire_date", ">", timezone.now())]
        )
        if session is None:
            # As Django's: a session gone or expired is forgotten (a new key is made if it is saved).
            self._session_key = None
        return session


class SessionStore(SessionRead, db.SessionStore):
    pass
