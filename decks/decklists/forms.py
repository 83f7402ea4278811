"""Input shapes of the deck-list requests: a pasted list to preview or confirm."""

from __future__ import annotations

from django import forms

# A pasted list is a few kilobytes; this bounds the work one request can ask for.
MAX_IMPORT_CHARS = 50_000


class DeckImportForm(forms.Form):
    text = forms.CharField(max_length=MAX_IMPORT_CHARS, widget=forms.Textarea, strip=False)
    confirm = forms.BooleanField(required=False)
    # Set by the preview: the exact result shown, and (saved decks) the version it was read against.
    fingerprint = forms.CharField(max_length=64, required=False)
    base_version = forms.IntegerField(min_value=1, required=False)
    # A "Did you mean …?" button: the line number whose suggestion the player accepts.
    fix = forms.IntegerField(min_value=1, required=False)
