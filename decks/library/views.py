"""My decks (search, tags, archive), browse (public decks) and compare (two decks side by side)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from decks.selectors import deck_get_for_change
from decks.sharing.navigation import back_to_page, login_first
from gatesite.errors import ApplicationError

from .forms import ArchiveForm, CompareForm, DeckSearchForm, TagForm
from .selectors import deck_browse_get, deck_compare_choices, deck_comparison_get, my_decks_get
from .services import deck_archive_set, deck_tag_add, deck_tag_remove


@login_first
@require_POST
def deck_tag(request: HttpRequest, public_id: str) -> HttpResponse:
    """Add a tag (`name`), or remove it when the form says `remove`."""
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = TagForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Tag not changed: %(errors)s") % {"errors": " ".join(form.errors.get("name", []))})
    elif request.POST.get("remove"):
        deck_tag_remove(deck=deck, name=form.cleaned_data["name"])
    else:
        try:
            deck_tag_add(deck=deck, name=form.cleaned_data["name"])
        except ApplicationError as exc:
            messages.error(request, exc.message)
    return back_to_page(request, deck)


@login_first
@require_POST
def deck_archive(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = ArchiveForm(request.POST)
    form.is_valid()  # a lone optional checkbox: always valid
    deck_archive_set(deck=deck, archived=form.cleaned_data["archived"])
    messages.success(
        request, (_("Archived “%(name)s”.") if deck.archived else _("Brought back “%(name)s”.")) % {"name": deck.name}
    )
    return back_to_page(request, deck)


@require_GET
def browse(request: HttpRequest) -> HttpResponse:
    """Public decks, filtered and sorted by decks.library.filters.DeckFilter, a page at a time."""
    return render(request, "decks/browse.html", deck_browse_get(params=request.GET))


@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Two readable decks side by side (?a=<id>&b=<id>); without both, the form to choose them."""
    form = CompareForm(request.GET or None)
    result = deck_comparison_get(user=request.user, **form.cleaned_data) if form.is_valid() else None
    choices = deck_compare_choices(user=request.user, compared=result)
    return render(request, "decks/compare.html", {"form": form, "result": result, "choices": choices})


@login_required
@require_GET
def deck_list(request: HttpRequest) -> HttpResponse:
    """My decks: searched by name, ruler or card, filtered by tag; archived ones only when asked for."""
    search = DeckSearchForm(request.GET)
    mine = my_decks_get(user=request.user, **search.search_kwargs())
    return render(request, "decks/deck_list.html", {"decks": mine.decks, "tags": mine.tags, "search": search})
