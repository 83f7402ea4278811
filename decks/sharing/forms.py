"""Input shapes of the deck page: visibility (the services decide)."""

from __future__ import annotations

from django import forms

from decks.models import Visibility


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices)
