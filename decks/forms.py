"""Input shapes of the account pages (the editor's forms are in decks/editor/forms.py)."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Django's sign-up form (username and password twice)."""
