"""Signing in with a username and password, and the signed-in player read on every request.

PlayerBackend is Django's ModelBackend (the same sign-in, permissions and is_active rule) with
one difference: the player a session names is read by one plain SQL statement. Every signed-in
request reads it (AuthenticationMiddleware), and the ORM's compiling of that query and making
of its instance cost an editor's click more CPU than its own reads of the deck (issue 15).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from gatesite.rows import model_row_get


class PlayerBackend(ModelBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        """ModelBackend's sign-in; a username and password it refuses are refused for good.

        ModelBackend itself is listed after this backend, for the sessions signed in before it
        (gatesite/settings.py): without the PermissionDenied, which ends django.contrib.auth's
        authenticate() as a refusal (user_login_failed is sent, django-axes counts it once), it
        would check the same wrong password a second time.
        """
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied
        return user

    def get_user(self, user_id: Any) -> Any:
        """The active user of this id, as ModelBackend.get_user gives it; None if there is none."""
        model = get_user_model()
        user = model_row_get(model, [(model._meta.pk.name, "=", user_id)])
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None
