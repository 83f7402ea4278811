"""Input shapes of My decks, browse and compare: tags, archive, search, the decks to compare."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import DeckTag, validate_displayed_text


class TagForm(forms.Form):
    name = forms.CharField(
        max_length=DeckTag._meta.get_field("name").max_length, label=_("Tag"), validators=[validate_displayed_text]
    )


class ArchiveForm(forms.Form):
    # An unchecked checkbox sends nothing: "archived" absent means bring the deck back.
    archived = forms.BooleanField(required=False)


class DeckSearchForm(forms.Form):
    """My decks: ?q=<deck, ruler or card name>&tag=<tag>&archived=1 (archived decks are hidden unless asked for)."""

    q = forms.CharField(max_length=200, required=False, label=_("Search by deck, ruler or card name"))
    tag = forms.CharField(max_length=DeckTag._meta.get_field("name").max_length, required=False)
    archived = forms.BooleanField(required=False, label=_("Show archived decks"))

    def search_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data if self.is_valid() else {}
        return {
            "query": (data.get("q") or "").strip(),
            "tag": data.get("tag") or "",
            "show_archived": bool(data.get("archived")),
        }


class CompareForm(forms.Form):
    a = forms.CharField(max_length=20)
    b = forms.CharField(max_length=20)
