"""The deck page /d/<public_id>/ and its past versions; the owner's visibility switch; Copy to my decks."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from decks.library.selectors import deck_get_from_trash
from decks.selectors import deck_get_for_change, deck_get_for_viewer
from decks.services import deck_version_name, deck_visibility_set
from gatesite.errors import ApplicationError

from .forms import VersionNameForm, VisibilityForm
from .navigation import back_to_page, login_first
from .selectors import DeckPage, deck_page_get, deck_version_number_of_save
from .services import deck_copy


@require_GET
def deck_page(request: HttpRequest, public_id: str) -> HttpResponse:
    try:
        page = deck_page_get(public_id=public_id, user=request.user)
    except Http404:
        # A trashed deck is a 404 like any deck that is gone; its owner is told where it is, with Restore.
        deck = deck_get_from_trash(public_id=public_id, user=request.user)  # Http404 again for anyone else
        return render(request, "decks/deck_in_trash.html", {"deck": deck}, status=404)
    return _page(request, page, past=None)


@require_GET
def deck_version_page(request: HttpRequest, public_id: str, version: int) -> HttpResponse:
    try:
        page = deck_page_get(public_id=public_id, user=request.user, version=version)
    except Http404:
        number = deck_version_number_of_save(public_id=public_id, user=request.user, save=version)
        if number is None:
            raise
        return redirect("deckpages:version", public_id, number, permanent=True)
    previous, following = page.neighbours(version)
    past = {
        "version": version,
        "previous": previous,
        "next": following,
        "saved_at": page.history[0].created_at if page.history else None,
    }
    return _page(request, page, past=past)


def _page(request: HttpRequest, page: DeckPage, *, past: dict[str, Any] | None) -> HttpResponse:
    context = {"page": page, "deck": page.deck, "past": past, "share_url": request.build_absolute_uri(request.path)}
    return render(request, "decks/deck_page.html", context)


@login_first
@require_POST
def deck_visibility(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = VisibilityForm(request.POST)
    if form.is_valid():
        deck_visibility_set(deck=deck, visibility=form.cleaned_data["visibility"])
        messages.success(
            request,
            _("“%(name)s” is now %(visibility)s.")
            % {"name": deck.name, "visibility": deck.get_visibility_display().lower()},
        )
    else:
        messages.error(request, _("Visibility not changed: choose private, unlisted or public."))
    return back_to_page(request, deck)


@login_first
@require_POST
def deck_copy_view(request: HttpRequest, public_id: str) -> HttpResponse:
    source = deck_get_for_viewer(public_id=public_id, user=request.user)
    try:
        copy = deck_copy(source=source, owner=request.user)
    except ApplicationError as exc:
        messages.error(
            request, _("Could not copy “%(name)s”: %(problem)s") % {"name": source.name, "problem": exc.message}
        )
        return redirect("deckpages:page", source.public_id)
    messages.success(
        request, _("Copied to your decks as “%(name)s” (private until you share it).") % {"name": copy.name}
    )
    return redirect("decks:edit", copy.public_id)


@login_first
@require_POST
def deck_version_name_view(request: HttpRequest, public_id: str, version: int) -> HttpResponse:
    """Name a saved version on purpose (the owner, from the deck page's history)."""
    deck = deck_get_for_change(public_id=public_id, user=request.user)
    form = VersionNameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Version %(n)s not named: %(why)s") % {"n": version, "why": form.errors["name"][0]})
        return back_to_page(request, deck)
    try:
        named = deck_version_name(deck=deck, number=version, name=form.cleaned_data["name"])
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        said = _("Version %(n)s is named “%(name)s”.") if named.name else _("Version %(n)s has no name now.")
        messages.success(request, said % {"n": version, "name": named.name})
    return back_to_page(request, deck)
