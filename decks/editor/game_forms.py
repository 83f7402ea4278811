"""Input shapes of the game editor's requests: a change and the card browser's search."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import validate_displayed_text

from .game_services import CARD_ACTIONS, GAME_ACTIONS, SET_COUNT, GameChange


class GameChangeForm(forms.Form):
    """One change; a card button says it in one value, `op="add kingdom RGT-001"` (action, section, number),
    as the Gate Ruler editor's do; `op="set_count main RGT-011 2"` also names the copies (a number key)."""

    op = forms.CharField(max_length=80, required=False)
    action = forms.ChoiceField(choices=[(a, a) for a in GAME_ACTIONS], required=False)
    name = forms.CharField(max_length=100, required=False, validators=[validate_displayed_text])
    description = forms.CharField(max_length=5000, required=False, validators=[validate_displayed_text])
    base_version = forms.IntegerField(min_value=1, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("op"):
            parts = data["op"].split()
            counted = len(parts) == 4 and parts[0] == SET_COUNT
            if not (len(parts) == 3 or counted) or parts[0] not in CARD_ACTIONS:
                raise forms.ValidationError(
                    _("'%(op)s' is not a change (action, section, collector number).") % {"op": data["op"]}
                )
            data["action"], data["section"], data["number"] = parts[:3]
            data["count"] = parts[3] if counted else ""
        if not data.get("action"):
            raise forms.ValidationError(_("What change? The request names no action."))
        return data

    def change(self) -> GameChange:
        data = self.cleaned_data
        return GameChange(
            action=data["action"],
            number=data.get("number", ""),
            section=data.get("section", "main"),
            name=data.get("name", ""),
            description=data.get("description", ""),
            count=data.get("count", ""),
        )

    def error_text(self) -> str:
        return " ".join(str(m) for messages in self.errors.values() for m in messages)


class GameCardSearchForm(forms.Form):
    """The card browser's search: the game's query syntax, a card type, a page offset."""

    q = forms.CharField(max_length=200, required=False)
    type = forms.CharField(max_length=40, required=False)
    offset = forms.IntegerField(min_value=0, required=False)

    def search(self) -> dict[str, Any]:
        data = self.cleaned_data if self.is_valid() else {}
        return {"query": data.get("q") or "", "card_type": data.get("type") or "", "offset": data.get("offset") or 0}

    def querystring(self, *, offset: int | None = None) -> str:
        search = self.search()
        pairs = {"q": search["query"], "type": search["card_type"]}
        chosen = search["offset"] if offset is None else offset
        return urlencode({k: v for k, v in {**pairs, "offset": chosen or ""}.items() if v})
