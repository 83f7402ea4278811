"""Input shapes of the draw-odds panel: the group asked about, k, and the cards picked."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

GROUP_MAX_LENGTH = 200
K_MAX = 60


class DrawOddsForm(forms.Form):
    group = forms.CharField(max_length=GROUP_MAX_LENGTH, required=False)
    k = forms.IntegerField(min_value=1, max_value=K_MAX, required=False)


MAX_PICKED = 60


def plainly_asked(params: Mapping[str, object]) -> tuple[str, int | None] | None:
    """The group and k of `params` as DrawOddsForm cleans them, when they are plainly valid (what the panel
    itself sends: a group's key, k in digits or nothing); None for anything else, which the form judges.

    The panel comes with every change of the editor, and making the form (its fields deep-copied) for
    what the panel itself sent is work for nothing. Plainly valid means the form
    would clean it unchanged: a group without surrounding spaces or a NUL, at most 200 characters;
    k empty or ASCII digits within 1..60 (tests/decks/odds/test_draw_odds_form.py holds it to the form).
    """
    group = params.get("group")
    if group is None:
        group = ""
    elif type(group) is not str or len(group) > GROUP_MAX_LENGTH or "\x00" in group or group != group.strip():
        return None
    k = params.get("k")
    if k is None or k == "":
        return group, None
    if type(k) is str and k.isascii() and k.isdigit() and 1 <= int(k) <= K_MAX:
        return group, int(k)
    return None
