"""The deck editor for a game whose identity is a card (Ruler's Gambit, GateRunners), and the game picker.

/decks/new/ opens the game chosen (`?game=<slug>`; Gate Ruler with no choice, in its own editor,
decks/editor/views.py) and /decks/<public_id>/edit/ the editor of the deck's game. As in the Gate
Ruler editor, a change is one POST: htmx gets `decks/editor/game_editor.html#after-change`, the deck
and, out of band, every region that depends on it (verdict, meters, phone tabs, the browser's hints
whose digest changed, the draw odds); a plain form post is redirected back to the page. A saved deck's change is saved at once,
refused with 409 when based on an old version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from decks.models import Deck, DeckDraft
from decks.odds.panel import odds_panel_context
from decks.saved_drafts import OwnedDraft, deck_and_lines_for_owner, deck_draft_for_owner, deck_draft_of
from decks.selectors import deck_get_for_owner
from decks.services import StaleDeck
from decks.sharing.game_view import judged_by_its_cards
from gatesite.errors import ApplicationError

from . import views
from .browser import hints_changed
from .game_forms import GameCardSearchForm, GameChangeForm
from .game_services import editor_game_deck_change, editor_game_draft_change
from .game_session import session_game_draft, session_game_pick
from .game_state import (
    GameEditorState,
    GameJudgedDeck,
    game_card_browser,
    game_card_hints,
    game_deck_judged,
    game_editor_state,
)
from .session import SESSION_DRAFT

TEMPLATE = "decks/editor/game_editor.html"


@dataclass(frozen=True)
class GameEditorUrls:
    page: str
    change: str
    cards: str


def _urls(deck: Deck | OwnedDraft | None, game: str) -> GameEditorUrls:
    if deck is None:
        page = f"{reverse('decks:new')}?{urlencode({'game': game})}"
        return GameEditorUrls(page, reverse("decks:new-game-change"), reverse("decks:new-game-cards"))
    args = [deck.public_id]
    return GameEditorUrls(
        reverse("decks:edit", args=args),
        reverse("decks:game-change", args=args),
        reverse("decks:game-cards", args=args),
    )


# ---------------------------------------------------------------- pages


@require_GET
def new_deck(request: HttpRequest) -> HttpResponse:
    """The new-deck page: the game asked for (or the session's draft's), Gate Ruler in its own editor."""
    draft = session_game_pick(request.session, game=request.GET.get("game"))
    if draft is None:
        return views.draft_editor(request)
    return _page(request, state=game_editor_state(draft=draft), deck=None)


@require_GET
def deck_edit(request: HttpRequest, public_id: str) -> HttpResponse:
    """A saved deck in the editor of its game."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user)
    if not judged_by_its_cards(DeckDraft(game=deck.game)):
        return views.deck_editor_page(request, deck=deck)
    return _page(request, state=game_editor_state(draft=deck_draft_of(deck=deck)), deck=deck)


def _page(request: HttpRequest, *, state: GameEditorState, deck: Deck | None, conflict: str = "") -> HttpResponse:
    context = _browser_context(state=state, deck=deck, search=GameCardSearchForm(request.GET))
    context.update(full_page=True, conflict=conflict)
    context.update(odds_panel_context(draft=state.draft, params=QueryDict(), judgement=state.judgement))
    return render(request, TEMPLATE, context, status=409 if conflict else 200)


def _browser_context(
    *, state: GameJudgedDeck, deck: Deck | OwnedDraft | None, search: GameCardSearchForm
) -> dict[str, Any]:
    """The card browser's results, their paging links and the game and deck (version) its form sends back:
    all that `#card-results` draws (a search draws nothing else, so it needs the deck judged, not drawn)."""
    urls = _urls(deck, state.game.slug)
    browser = game_card_browser(state=state, **search.search())
    paging = {}
    for which, offset in (("previous", browser.previous_offset), ("next", browser.next_offset)):
        if offset is not None:
            query = search.querystring(offset=offset)
            paging[f"{which}_page"] = f"{urls.page}{'&' if deck is None else '?'}{query}"
            paging[f"{which}_cards"] = f"{urls.cards}?{query}"
    browse = search.querystring(offset=browser.offset)
    return {
        "editor": state,
        "deck": deck,
        "urls": urls,
        "search": search,
        "browser": browser,
        "paging": paging,
        "browse": browse,
    }


# ---------------------------------------------------------------- changes


@require_POST
def draft_change(request: HttpRequest) -> HttpResponse:
    draft = session_game_draft(request.session)
    if draft is None or request.POST.get("game", draft.game) != draft.game:
        return _other_tab(request)
    form = GameChangeForm(request.POST)
    if not form.is_valid():
        return _refused(request, None, draft.game, form.error_text())
    try:
        state = editor_game_draft_change(draft=draft, change=form.change())
    except ApplicationError as exc:
        return _refused(request, None, draft.game, exc.message)
    request.session[SESSION_DRAFT] = state.draft.to_session()
    return _changed(request, state=state, deck=None)


@require_POST
def deck_change(request: HttpRequest, public_id: str) -> HttpResponse:
    # The deck and its lines in one query, as the Gate Ruler editor's change.
    deck, lines = deck_and_lines_for_owner(public_id=public_id, user=request.user, write=True)
    form = GameChangeForm(request.POST)
    if not form.is_valid():
        return _refused(request, deck, deck.game, form.error_text())
    base_version = form.cleaned_data["base_version"] or deck.version
    try:
        saved = editor_game_deck_change(deck=deck, change=form.change(), base_version=base_version, lines=lines)
    except StaleDeck as exc:
        return _conflict(request, public_id, exc)
    except ApplicationError as exc:
        return _refused(request, deck, deck.game, exc.message)
    return _changed(request, state=saved.state, deck=saved.deck)


def _other_tab(request: HttpRequest) -> HttpResponse:
    """A change from a page whose draft is no longer the session's: another tab picked another game."""
    message = _("Your draft is now of another game (picked in another tab): reload the page to see it.")
    if not request.htmx:
        messages.warning(request, message)
        return redirect("decks:new")
    response = render(request, f"{TEMPLATE}#editor-messages", {"refusal": message}, status=409)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


def ruler_draft_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Guard the Gate Ruler editor's draft requests (decks/editor/urls.py): a page left open on Gate
    Ruler's draft after another tab picked another game would change that game's draft as a ruler's."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if session_game_draft(request.session) is None:
            return view(request, *args, **kwargs)
        return _other_tab(request)

    return guarded


def _changed(request: HttpRequest, *, state: GameEditorState, deck: Deck | None) -> HttpResponse:
    urls = _urls(deck, state.game.slug)
    if not request.htmx:
        return redirect(_back_url(urls, request.POST.get("browse", ""), deck))
    shown = request.POST.get("shown", "").split()
    context = {"editor": state, "deck": deck, "urls": urls, "browse": request.POST.get("browse", "")}
    # As in the Gate Ruler editor, only the hints whose digest differs from the page's (editor.js sends them).
    context["hints"] = hints_changed(game_card_hints(state=state, numbers=shown), request.POST.get("hinted"))
    context["renamed"] = request.POST.get("action") == "rename"
    if request.POST.get("odds_key") != state.draft.odds_key():
        context.update(odds_panel_context(draft=state.draft, params=request.POST, judgement=state.judgement))
    return render(request, f"{TEMPLATE}#after-change", context)


def _back_url(urls: GameEditorUrls, browse: str, deck: Deck | None) -> str:
    query = GameCardSearchForm(QueryDict(browse)).querystring()
    if not query:
        return urls.page
    return f"{urls.page}{'&' if deck is None else '?'}{query}"


def _refused(request: HttpRequest, deck: Deck | None, game: str, message: str) -> HttpResponse:
    if not request.htmx:
        messages.error(request, message)
        return redirect(_back_url(_urls(deck, game), request.POST.get("browse", ""), deck))
    response = render(request, f"{TEMPLATE}#editor-messages", {"refusal": message}, status=422)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


def _conflict(request: HttpRequest, public_id: str, exc: StaleDeck) -> HttpResponse:
    """Refuse a stale change: say so, and offer the deck as it now is (never overwrite it)."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user)
    if not request.htmx:
        return _page(request, state=game_editor_state(draft=deck_draft_of(deck=deck)), deck=deck, conflict=exc.message)
    context = {"conflict": exc.message, "urls": _urls(deck, deck.game)}
    response = render(request, f"{TEMPLATE}#editor-messages", context, status=409)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


# ---------------------------------------------------------------- the card browser, starting over


@require_GET
def draft_cards(request: HttpRequest) -> HttpResponse:
    draft = session_game_draft(request.session)
    if draft is None or not request.htmx:
        game = draft.game if draft is not None else ""
        query = GameCardSearchForm(request.GET).querystring()
        return redirect(f"{reverse('decks:new')}?{urlencode({'game': game})}&{query}" if game else "decks:new")
    return _card_results(request, state=game_deck_judged(draft=draft), deck=None)


@require_GET
def deck_cards(request: HttpRequest, public_id: str) -> HttpResponse:
    # The deck as a draft with its version in one query (no model instance): a search shows its results only.
    owned = deck_draft_for_owner(public_id=public_id, user=request.user)
    if not request.htmx:
        query = GameCardSearchForm(request.GET).querystring()
        return redirect(f"{reverse('decks:edit', args=[public_id])}?{query}")
    return _card_results(request, state=game_deck_judged(draft=owned.draft), deck=owned)


def _card_results(request: HttpRequest, *, state: GameJudgedDeck, deck: OwnedDraft | None) -> HttpResponse:
    context = _browser_context(state=state, deck=deck, search=GameCardSearchForm(request.GET))
    return render(request, f"{TEMPLATE}#card-results", context)


@require_POST
def draft_reset(request: HttpRequest) -> HttpResponse:
    """Start the game's draft over (the drafts of the other games are kept)."""
    draft = session_game_draft(request.session)
    request.session.pop(SESSION_DRAFT, None)
    if draft is None:
        return redirect("decks:new")
    return redirect(f"{reverse('decks:new')}?{urlencode({'game': draft.game})}")
