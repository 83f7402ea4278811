"""Input shapes of the editor's requests: a change, the card browser's search, a save (the services decide what is allowed)."""

from __future__ import annotations

from typing import Any, TypeVar
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import validate_displayed_text

from .services import ACTIONS, CARD_ACTIONS, SET_COUNT, DraftChange
from .undo import MAX_CODE_LENGTH

F = TypeVar("F", bound=forms.Form)


class _SharedFields(dict[str, forms.Field]):
    """A form class's fields, which its instances share rather than each deep-copying them.

    BaseForm.__init__ deep-copies the class's fields so that one instance may change its own (a
    field's choices, a widget's attributes); the editor's forms never do, and the copies (field,
    widget, validators, choices) cost about half a millisecond of every click for its two forms.
    Only for a form none of whose code changes `form.fields[...]`: cleaning a field reads it, never writes it.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


def _fields_shared(form_class: type[F]) -> type[F]:
    form_class.base_fields = _SharedFields(form_class.base_fields)
    return form_class


@_fields_shared
class DeckChangeForm(forms.Form):
    """One change to the deck being edited, of any game; `base_version` is the version a saved deck's page was at.

    A card button may say everything in one value, `op="add main 2025PS01-001"` (action, section,
    collector number): one form then serves a whole list of cards. `op="set_count main 2025PS01-001 4"`
    also names the number of copies (a playset button, a number key on a focused card). The section is
    any of the game's (`kingdom`, `gates`, …): the service refuses one the deck's game does not have.
    """

    op = forms.CharField(max_length=80, required=False)
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS], required=False)
    number = forms.CharField(max_length=40, required=False)
    section = forms.CharField(max_length=40, required=False)
    value = forms.CharField(max_length=100, required=False)
    name = forms.CharField(max_length=100, required=False, validators=[validate_displayed_text])
    description = forms.CharField(
        max_length=5000, required=False, widget=forms.Textarea, validators=[validate_displayed_text]
    )
    base_version = forms.IntegerField(min_value=1, required=False)
    # An undo's or redo's state to bring back (action "restore", decks/editor/undo.py).
    state = forms.CharField(max_length=MAX_CODE_LENGTH, required=False)

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
            if counted:
                data["value"] = parts[3]
        if not data.get("action"):
            raise forms.ValidationError(_("What change? The request names no action."))
        if data.get("action") in CARD_ACTIONS and not data.get("number"):
            raise forms.ValidationError(_("Which card? The change names no collector number."))
        return data

    def change(self) -> DraftChange:
        data = self.cleaned_data
        return DraftChange(
            action=data["action"],
            number=data["number"],
            section=data["section"] or "main",
            value=data["value"],
            name=data["name"],
            description=data["description"],
            state=data["state"],
        )

    @property
    def based_on(self) -> int:
        """The version of the saved deck the change is based on (0, never a version, when not sent)."""
        return self.cleaned_data["base_version"] or 0

    def error_text(self) -> str:
        return " ".join(
            f"{'' if field == '__all__' else field + ': '}{' '.join(errors)}" for field, errors in self.errors.items()
        )


_TRISTATE = [("", _("Any")), ("yes", _("Yes")), ("no", _("No"))]


@_fields_shared
class CardFilterForm(forms.Form):
    """The card browser's search box and filters (GET)."""

    q = forms.CharField(max_length=500, required=False, label=_("Search cards"))
    faction = forms.CharField(max_length=100, required=False)
    # The game's types ("unit", "kingdom", …): a type no card has finds none.
    type = forms.CharField(max_length=40, required=False)
    level_min = forms.IntegerField(required=False, min_value=-99, max_value=99, label=_("Level from"))
    level_max = forms.IntegerField(required=False, min_value=-99, max_value=99, label=_("Level to"))
    attribute = forms.CharField(max_length=100, required=False)
    cnt = forms.ChoiceField(choices=_TRISTATE, required=False, label="CNT")
    legend = forms.ChoiceField(choices=_TRISTATE, required=False, label=_("Legendary"))
    set = forms.CharField(max_length=20, required=False)
    # Only the cards one more copy of which the deck can take (the hints' judgement), off unless chosen.
    usable = forms.BooleanField(required=False, label=_("Only cards this deck can use"))
    view = forms.ChoiceField(choices=[("list", _("List")), ("grid", _("Grid"))], required=False)
    offset = forms.IntegerField(required=False, min_value=0, max_value=100_000)

    FILTERS = ("faction", "type", "level_min", "level_max", "attribute", "cnt", "legend", "set")

    def search_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for decks.editor.browser.deck_card_browser (the rest of `usable`: card_search's)."""
        data = self.cleaned_data if self.is_valid() else {}

        def tristate(value: str | None) -> bool | None:
            return {"yes": True, "no": False}.get(value or "")

        return {
            "query": data.get("q") or "",
            "offset": data.get("offset") or 0,
            "faction": data.get("faction") or None,
            "type": data.get("type") or None,
            "level_min": data.get("level_min"),
            "level_max": data.get("level_max"),
            "attribute": data.get("attribute") or None,
            "cnt": tristate(data.get("cnt")),
            "legend": tristate(data.get("legend")),
            "set_code": data.get("set") or None,
            "usable": bool(data.get("usable")),
        }

    def querystring(self, *, offset: int | None = None) -> str:
        """The search as a query string (for links, redirects and the forms of pages without JavaScript)."""
        data = self.cleaned_data if self.is_valid() else {}
        pairs: list[tuple[str, Any]] = [
            (key, data[key]) for key in ("q", *self.FILTERS) if data.get(key) not in (None, "")
        ]
        # Remembered in the browse query like the filters: a reload or a paging link keeps them.
        if data.get("usable"):
            pairs.append(("usable", "1"))
        if data.get("view") == "grid":
            pairs.append(("view", "grid"))
        if offset:
            pairs.append(("offset", offset))
        return urlencode(pairs)

    @property
    def active_filters(self) -> int:
        data = self.cleaned_data if self.is_valid() else {}
        return sum(1 for key in self.FILTERS if data.get(key) not in (None, ""))


class DeckSaveForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label=_("Deck name"), validators=[validate_displayed_text])
