"""Query filters that refuse what their schema does not allow (a leaf helper, like gatesite.errors).

django-filter's BooleanFilter reads anything but true/false (`?legal=null`, `?legal=maybe`) as
"no filter": the API answered 200 to a query its schema calls invalid. This one answers 400
(DRF's ValidationError, through DjangoFilterBackend), as it does for any other bad filter.
"""

from __future__ import annotations

from typing import Any

import django_filters
import django_filters.fields
from django import forms

_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


class StrictNullBooleanField(forms.NullBooleanField):
    widget = forms.TextInput  # the raw text: NullBooleanSelect turns any unknown word into None

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        if str(value).lower() not in _BOOLEANS:
            raise forms.ValidationError("Must be true or false.", code="invalid")
        return _BOOLEANS[str(value).lower()]

    def validate(self, value: Any) -> None:
        pass  # None (absent) is allowed: no filter


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictNullBooleanField


class PresentChoiceField(django_filters.fields.ChoiceField):
    """A choice that may be left out, but not given empty: `?sort=` is none of the choices the schema lists."""

    def to_python(self, value: Any) -> str:
        if value is None:
            return ""  # absent: no choice made, the filter's default applies
        if value == "":
            raise forms.ValidationError(
                "Select a valid choice. An empty value is not one of the available choices.", code="invalid_choice"
            )
        return str(super().to_python(value))


class StrictChoiceFilter(django_filters.ChoiceFilter):
    field_class = PresentChoiceField
