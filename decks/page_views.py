"""Deck pages: the shared deck page and its past versions, visibility, copies, tags, archive, browse, compare.

Reads go through decks.selectors.deck_get_for_viewer (someone else's private deck is a 404);
writes through deck_get_for_change (404 likewise, 403 for someone else's readable deck) and
answer a plain form post with a redirect.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from cards.models import Faction, Geas, Ruler
from gatesite.errors import ApplicationError

from .filters import DeckFilter
from .models import Deck
from .page_forms import ArchiveForm, CompareForm, TagForm, VisibilityForm
from .selectors import (
    DeckPage,
    deck_choices_for_owner,
    deck_comparison_get,
    deck_get_for_change,
    deck_get_for_viewer,
    deck_page_get,
    deck_public_list,
)
from .services import deck_archive_set, deck_copy, deck_tag_add, deck_tag_remove, deck_visibility_set

BROWSE_PAGE_SIZE = 20


def _back(request: HttpRequest, deck: Deck) -> HttpResponse:
    """Back where the form was posted from (the editor, My decks, the deck page); the deck page by default."""
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(next_url)
    return redirect("deckpages:page", deck.public_id)


def _login_first(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """login_required, coming back to the deck page: the write URLs answer POSTs only, not the GET after login."""

    @wraps(view)
    def wrapped(request: HttpRequest, public_id: str) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("deckpages:page", args=[public_id]))
        return view(request, public_id)

    return wrapped


# ---------------------------------------------------------------- reading


@require_GET
def deck_page(request: HttpRequest, public_id: str) -> HttpResponse:
    page = deck_page_get(public_id=public_id, user=request.user)
    return _page(request, page, past=None)


@require_GET
def deck_version_page(request: HttpRequest, public_id: str, version: int) -> HttpResponse:
    page = deck_page_get(public_id=public_id, user=request.user, version=version)
    past = {
        "version": version,
        "previous": version - 1 if version > 1 else None,
        "next": version + 1 if version < page.deck.version else None,
        "saved_at": page.history[0].created_at if page.history else None,
    }
    return _page(request, page, past=past)


def _page(request: HttpRequest, page: DeckPage, *, past: dict[str, Any] | None) -> HttpResponse:
    context = {"page": page, "deck": page.deck, "past": past, "share_url": request.build_absolute_uri(request.path)}
    return render(request, "decks/deck_page.html", context)


# ---------------------------------------------------------------- the owner's changes


@_login_first
@require_POST
def deck_visibility(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = VisibilityForm(request.POST)
    if form.is_valid():
        deck_visibility_set(deck=deck, visibility=form.cleaned_data["visibility"])
        messages.success(request, f"“{deck.name}” is now {deck.get_visibility_display().lower()}.")
    else:
        messages.error(request, "Visibility not changed: choose private, unlisted or public.")
    return _back(request, deck)


@_login_first
@require_POST
def deck_tag(request: HttpRequest, public_id: str) -> HttpResponse:
    """Add a tag (`name`), or remove it when the form says `remove`."""
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = TagForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Tag not changed: {' '.join(form.errors.get('name', []))}")
    elif request.POST.get("remove"):
        deck_tag_remove(deck=deck, name=form.cleaned_data["name"])
    else:
        try:
            deck_tag_add(deck=deck, name=form.cleaned_data["name"])
        except ApplicationError as exc:
            messages.error(request, exc.message)
    return _back(request, deck)


@_login_first
@require_POST
def deck_archive(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = ArchiveForm(request.POST)
    form.is_valid()  # a lone optional checkbox: always valid
    deck_archive_set(deck=deck, archived=form.cleaned_data["archived"])
    messages.success(request, f"{'Archived' if deck.archived else 'Brought back'} “{deck.name}”.")
    return _back(request, deck)


@_login_first
@require_POST
def deck_copy_view(request: HttpRequest, public_id: str) -> HttpResponse:
    source = deck_get_for_viewer(public_id=public_id, user=request.user)
    try:
        copy = deck_copy(source=source, owner=request.user)
    except ApplicationError as exc:
        messages.error(request, f"Could not copy “{source.name}”: {exc.message}")
        return redirect("deckpages:page", source.public_id)
    messages.success(request, f"Copied to your decks as “{copy.name}” (private until you share it).")
    return redirect("decks:edit", copy.public_id)


# ---------------------------------------------------------------- lists


@require_GET
def browse(request: HttpRequest) -> HttpResponse:
    """Public decks, filtered and sorted by decks.filters.DeckFilter, a page at a time."""
    filterset = DeckFilter(request.GET, queryset=deck_public_list())
    page = Paginator(filterset.qs, BROWSE_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "filterset": filterset,
        "page_obj": page,
        "rulers": Ruler.objects.values_list("slug", "name"),
        "geases": Geas.objects.values_list("slug", "name"),
        "factions": Faction.objects.values_list("slug", "name"),
    }
    return render(request, "decks/browse.html", context)


@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Two readable decks side by side (?a=<id>&b=<id>); without both, the form to choose them."""
    form = CompareForm(request.GET or None)
    result = deck_comparison_get(user=request.user, **form.cleaned_data) if form.is_valid() else None
    choices: list[tuple[str, str]] = []
    if request.user.is_authenticated:
        choices = deck_choices_for_owner(user=request.user)
        # Someone else's deck compared by its link joins the choices, so the form shows what is compared.
        for deck in (result.a, result.b) if result else ():
            if (deck.public_id, deck.name) not in choices:
                choices.append((deck.public_id, deck.name))
    return render(request, "decks/compare.html", {"form": form, "result": result, "choices": choices})
