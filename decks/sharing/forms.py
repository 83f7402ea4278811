"""Input shapes of the deck page: visibility, a version's name (the services decide)."""

from __future__ import annotations

from django import forms

from decks.models import DeckVersion, Visibility


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices)


class VersionNameForm(forms.Form):
    # Empty takes the name away.
    name = forms.CharField(required=False, max_length=DeckVersion._meta.get_field("name").max_length, strip=True)
