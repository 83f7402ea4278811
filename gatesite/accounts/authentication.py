"""`Authorization: Token <key>` checked against the hashed ApiToken rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .models import ApiToken
from .selectors import api_token_get


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's header parsing and `WWW-Authenticate: Token` challenge; the key is looked up by its digest."""

    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = api_token_get(key=key)
        if token is None:
            raise AuthenticationFailed(gettext("Invalid or expired token."))
        if not token.user.is_active:
            raise AuthenticationFailed(gettext("User inactive or deleted."))
        return token.user, token
