"""My decks (search, tags, archive, the trash), browse (public decks) and compare (two decks side by side)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.models import Deck
from decks.selectors import deck_get_for_change
from decks.sharing.navigation import back_to_page, login_first
from gatesite.errors import ApplicationError

from .forms import ArchiveForm, CompareForm, DeckSearchForm, TagForm
from .selectors import (
    deck_browse_get,
    deck_compare_choices,
    deck_comparison_get,
    deck_get_from_trash,
    deck_trash_count,
    deck_trash_list,
    my_decks_get,
)
from .services import deck_archive_set, deck_delete_forever, deck_restore, deck_tag_add, deck_tag_remove


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
    criteria = search.search_kwargs()
    mine = my_decks_get(user=request.user, **criteria)
    context = {
        "decks": mine.decks,
        "tags": mine.tags,
        "search": search,
        "searched": any(criteria.values()),
        "trash_count": deck_trash_count(user=request.user),
        # ?trashed=<id> after "Move to trash" (decks.editor.views.deck_remove): say where it went, with Undo.
        "just_trashed": _just_trashed(request),
    }
    return render(request, "decks/deck_list.html", context)


def _just_trashed(request: HttpRequest) -> Deck | None:
    public_id = request.GET.get("trashed", "")
    if not public_id:
        return None
    try:
        return deck_get_from_trash(public_id=public_id, user=request.user)
    except Http404:
        return None  # restored since, or not theirs: nothing to say


@login_required
@require_GET
def trash(request: HttpRequest) -> HttpResponse:
    """The owner's trashed decks, each with when it is deleted for good, Restore and Delete forever."""
    return render(request, "decks/trash.html", {"decks": list(deck_trash_list(user=request.user))})


@login_required
@require_POST
def trash_restore(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_restore(deck=deck_get_from_trash(public_id=public_id, user=request.user))
    messages.success(request, _("Restored “%(name)s”: it is back in My decks.") % {"name": deck.name})
    return back_to_page(request, deck)


@login_required
@require_http_methods(["GET", "POST"])
def trash_delete_forever(request: HttpRequest, public_id: str) -> HttpResponse:
    """Delete a trashed deck for good: asked first (this page), done on the confirming POST."""
    deck = deck_get_from_trash(public_id=public_id, user=request.user)
    if request.method == "POST" and request.POST.get("confirmed"):
        deck_delete_forever(deck=deck)
        messages.success(request, _("Deleted “%(name)s” forever.") % {"name": deck.name})
        return redirect("decks:trash")
    return render(request, "decks/trash_delete_forever.html", {"deck": deck, "versions": deck.versions.count()})
