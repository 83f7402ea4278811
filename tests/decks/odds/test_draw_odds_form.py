"""plainly_asked reads the panel's group and k as DrawOddsForm cleans them, or leaves them to the form."""

from __future__ import annotations

from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.odds.forms import DrawOddsForm, plainly_asked

# What a player's browser or a script may send: the panel's own keys and numbers, and their near misses.
GROUPS = st.one_of(
    st.sampled_from(["", "cnt", "legend", "picked", "card:Ember Squire 1", "faction:Crimson", "units-level-3"]),
    st.text(alphabet=st.sampled_from("ab: \t\n\x00\u3000é1"), max_size=12),
    st.integers(195, 205).map(lambda n: "g" * n),
    st.integers(195, 205).map(lambda n: " " + "g" * n),
)
KS = st.one_of(
    st.sampled_from(["", "1", "2", "10", "60", "61", "0", "00", "007", "-1", "+3", " 3", "3 ", "3.0", "3.5", "٣"]),
    st.integers(-5, 70).map(str),
    st.text(alphabet=st.sampled_from("0123456789 .-+e\x00"), max_size=4),
)


def _cleaned(params: QueryDict) -> tuple[str, int | None] | None:
    form = DrawOddsForm(params)
    return (form.cleaned_data["group"], form.cleaned_data["k"]) if form.is_valid() else None


@settings(max_examples=400, deadline=None)
@given(
    groups=st.lists(GROUPS, max_size=2),
    ks=st.lists(KS, max_size=2),
)
def test_it_answers_as_the_form_cleans_or_leaves_it_to_the_form(groups, ks):
    # Repeated keys too: the form reads a key's last value, as QueryDict.get does.
    params = QueryDict(mutable=True)
    for group in groups:
        params.appendlist("group", group)
    for k in ks:
        params.appendlist("k", k)

    asked = plainly_asked(params)

    if asked is not None:
        assert asked == _cleaned(params)


def test_it_reads_what_the_panel_sends():
    assert plainly_asked(QueryDict("group=card%3AEmber+Squire+1&k=2")) == ("card:Ember Squire 1", 2)
    assert plainly_asked(QueryDict("")) == ("", None)
    assert plainly_asked(QueryDict("group=cnt&k=")) == ("cnt", None)


def test_it_leaves_anything_else_to_the_form():
    for query in ("k=0", "k=61", "k=3.0", "k=+3", "group=+cnt+", "group=" + "g" * 201):
        assert plainly_asked(QueryDict(query)) is None
