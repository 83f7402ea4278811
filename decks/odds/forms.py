"""Input shapes of the draw-odds panel: the group asked about, k, and the cards picked."""

from __future__ import annotations

from django import forms


class DrawOddsForm(forms.Form):
    group = forms.CharField(max_length=200, required=False)
    k = forms.IntegerField(min_value=1, max_value=60, required=False)


MAX_PICKED = 60
