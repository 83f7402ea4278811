"""`manage.py drf_create_token <username>`: DRF's command of that name, for the hashed API tokens.

Same use as before (an admin gives a script a token), but a token is shown only once: each run
prints a new one; `-r`/`--reset` revokes the user's other tokens first.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from gatesite.accounts.services import api_token_create, api_tokens_revoke


class Command(BaseCommand):
    help = "Create an API token for a user (printed once; only its digest is stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("-r", "--reset", action="store_true", help="revoke the user's other tokens first")

    def handle(self, *args: Any, username: str, reset: bool, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model._default_manager.get_by_natural_key(username)
        except user_model.DoesNotExist as exc:
            raise CommandError(f"Cannot create the token: user {username!r} does not exist.") from exc
        if reset:
            api_tokens_revoke(user=user)
        token, key = api_token_create(user=user)
        self.stdout.write(
            f"Generated token {key} for user {username}, valid until {token.expires_at:%Y-%m-%d %H:%M} UTC"
        )
