"""Deck lists in and out as text: export (text, JSON, registration sheet), import by pasting, share links.

- /d/<public_id>/export.txt, export.json and sheet/: anyone who may read the deck
  (deck_get_for_viewer: someone else's private deck is a 404).
- /decks/new/import/ and /decks/<public_id>/import/: paste a list, see what it makes and every
  line left out, then confirm; only the confirm changes the draft or the deck.
- /decks/new/share/ and /decks/<public_id>/share/ redirect to /decks/link/<code>/, the deck
  encoded in the URL (decks.decklists.link), readable by anyone, with "Save a copy".
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.deck_view import deck_view
from decks.models import Deck
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_get_for_owner, deck_get_for_viewer, deck_latest_version_number
from decks.services import StaleDeck
from decks.session_drafts import SESSION_DRAFT, session_draft, session_draft_replace
from gatesite.errors import ApplicationError

from .forms import DeckImportForm
from .selectors import (
    TextImport,
    deck_draft_from_link,
    deck_draft_link,
    deck_draft_text,
    deck_draft_validate_body,
    deck_text_import,
)
from .services import deck_text_import_save


def _download_name(deck: Deck, extension: str) -> str:
    return f"{slugify(deck.name, allow_unicode=True) or 'deck'}.{extension}"


# ---------------------------------------------------------------- export


@require_GET
def deck_export_text(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    response = HttpResponse(deck_draft_text(draft=deck_draft_of(deck=deck)), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, _download_name(deck, "txt"))
    return response


@require_GET
def deck_export_json(request: HttpRequest, public_id: str) -> HttpResponse:
    """The deck as the body POST /api/v1/decks/validate/ takes: post it back to judge the deck."""
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    response = JsonResponse(deck_draft_validate_body(draft=deck_draft_of(deck=deck)), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = content_disposition_header(True, _download_name(deck, "json"))
    return response


@require_GET
def deck_sheet(request: HttpRequest, public_id: str) -> HttpResponse:
    """A deck registration sheet to print for a tournament (the page's print stylesheet lays it out)."""
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    view = deck_view(draft=deck_draft_of(deck=deck))
    # The version number the deck page shows (the save counter has gaps players never see).
    number = deck_latest_version_number(deck=deck) or deck.version
    return render(request, "decks/deck_sheet.html", {"deck": deck, "version_number": number, "view": view})


# ---------------------------------------------------------------- import by pasting


@require_http_methods(["GET", "POST"])
def draft_import(request: HttpRequest) -> HttpResponse:
    """Paste a list over the session's draft (anyone); the confirm replaces the draft's deck."""
    if request.method == "GET":
        return _import_page(request, deck=None, form=DeckImportForm())
    form = DeckImportForm(request.POST)
    if not form.is_valid():
        return _import_page(request, deck=None, form=form, status=422)
    try:
        result = deck_text_import(
            text=form.cleaned_data["text"], draft=session_draft(request), fix=form.cleaned_data["fix"]
        )
    except ApplicationError as exc:  # the draft's own rules cannot be judged any more
        form.add_error(None, exc.message)
        return _import_page(request, deck=None, form=form, status=422)
    if not _confirmed(request, form, result):
        return _import_page(request, deck=None, form=form, result=result)
    # A confirmed result was judged for its preview (result.state): the editor opens it.
    assert result.draft is not None
    request.session[SESSION_DRAFT] = result.draft.to_session()
    messages.success(request, _("Your draft is now the pasted list (%(note)s).") % {"note": _lines_note(result)})
    return redirect("decks:new")


@require_http_methods(["GET", "POST"])
def deck_import(request: HttpRequest, public_id: str) -> HttpResponse:
    """Paste a list over a saved deck (its owner); the confirm saves it as a new version."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user, write=request.method == "POST")
    if request.method == "GET":
        return _import_page(request, deck=deck, form=DeckImportForm())
    form = DeckImportForm(request.POST)
    if not form.is_valid():
        return _import_page(request, deck=deck, form=form, status=422)
    result = deck_text_import(
        text=form.cleaned_data["text"], draft=deck_draft_of(deck=deck), fix=form.cleaned_data["fix"], game_fixed=True
    )
    base_version = form.cleaned_data["base_version"] or deck.version
    try:
        if form.cleaned_data["confirm"] and base_version != deck.version:
            raise StaleDeck(base_version=base_version, version=deck.version)
        if not _confirmed(request, form, result):
            return _import_page(request, deck=deck, form=form, result=result)
        deck = deck_text_import_save(deck=deck, result=result, base_version=base_version)
    except StaleDeck as exc:
        return _import_conflict(request, public_id=public_id, form=form, conflict=exc)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return _import_page(request, deck=deck, form=form, result=result, status=422)
    messages.success(
        request,
        _("Saved the pasted list as version %(n)s (%(note)s).") % {"n": deck.version, "note": _lines_note(result)},
    )
    return redirect("decks:edit", deck.public_id)


def _import_conflict(
    request: HttpRequest, *, public_id: str, form: DeckImportForm, conflict: StaleDeck
) -> HttpResponse:
    """Someone saved the deck since the preview: the preview again, against the deck as it is now."""
    fresh = deck_get_for_owner(public_id=public_id, user=request.user)
    again = deck_text_import(text=form.cleaned_data["text"], draft=deck_draft_of(deck=fresh), game_fixed=True)
    return _import_page(request, deck=fresh, form=form, result=again, conflict=conflict.message, status=409)


def _confirmed(request: HttpRequest, form: DeckImportForm, result: TextImport) -> bool:
    """A confirm of exactly the result the preview showed; anything else shows the preview (again)."""
    if not form.cleaned_data["confirm"] or result.blocked:
        return False
    if form.cleaned_data["fingerprint"] != result.fingerprint:
        messages.warning(
            request, _("The result changed since the preview (the deck or the catalog changed): check it again.")
        )
        return False
    return True


def _lines_note(result: TextImport) -> str:
    cards = len(result.parsed.lines)
    skipped = len(result.errors)
    note = ngettext("%(n)s card line read", "%(n)s card lines read", cards) % {"n": cards}
    return _("%(note)s, %(n)s left out") % {"note": note, "n": skipped} if skipped else note


def _import_page(
    request: HttpRequest,
    *,
    deck: Deck | None,
    form: DeckImportForm,
    result: TextImport | None = None,
    conflict: str = "",
    status: int = 200,
) -> HttpResponse:
    if deck is None:
        action, back = reverse("decks:new-import"), reverse("decks:new")
    else:
        action, back = reverse("decks:import", args=[deck.public_id]), reverse("decks:edit", args=[deck.public_id])
    context = {
        "deck": deck,
        "form": form,
        "result": result,
        "view": result.state if result else None,
        "action": action,
        "back": back,
        "conflict": conflict,
    }
    return render(request, "decks/deck_import.html", context, status=status)


# ---------------------------------------------------------------- share links


@require_GET
def draft_share(request: HttpRequest) -> HttpResponse:
    return redirect("decks:link", deck_draft_link(draft=session_draft(request)))


@require_GET
def deck_share(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    return redirect("decks:link", deck_draft_link(draft=deck_draft_of(deck=deck)))


@require_GET
def deck_link(request: HttpRequest, code: str) -> HttpResponse:
    """A deck carried by its link: read-only, judged afresh, with "Save a copy"."""
    try:
        draft = deck_draft_from_link(code=code)
        view = deck_view(draft=draft)
    except ApplicationError as exc:
        return render(request, "decks/deck_link.html", {"error": exc.message}, status=400)
    context = {"view": view, "code": code, "text": deck_draft_text(draft=draft)}
    return render(request, "decks/deck_link.html", context)


@require_POST
def deck_link_copy(request: HttpRequest, code: str) -> HttpResponse:
    """Load a linked deck into the session's draft; the editor's save asks for an account if needed."""
    try:
        draft = deck_draft_from_link(code=code)
        deck_view(draft=draft)  # refuse a deck its rules cannot judge (unknown ruler, …): the editor could not open it
    except ApplicationError as exc:
        return render(request, "decks/deck_link.html", {"error": exc.message}, status=400)
    # An unsaved draft it replaces is kept: the editor offers to bring it back (nothing lost without asking).
    session_draft_replace(request, draft)
    messages.success(request, _("The shared deck is now your draft: change it, then save it to keep it."))
    return redirect("decks:new")
