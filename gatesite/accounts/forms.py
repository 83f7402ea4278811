"""Sign-up: Django's own forms; log-in, log-out and password change are django.contrib.auth's views."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Django's sign-up form (username and password twice)."""
