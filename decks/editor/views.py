"""The deck editor of every game: its page, its changes and its card browser.

/decks/new/ edits the session's draft of the game picked (`?game=<slug>`; anyone, no account
needed) and /decks/<public_id>/edit/ edits a saved deck (its owner only; every change saves at
once, refused with 409 when based on an old version). What only a ruler's game shows (the rules
pickers, the charts, the attribute proposal) follows the game's data (DeckEditorState.ruled),
never its name. A change is a POST:
htmx gets `decks/editor/editor.html#after-change`, the deck and every region that depends on
it, the draw odds included (out of band: one request per click); a plain form post is
redirected back to the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import replace_url, reswap, retarget

from cards.games import default_game_slug
from decks.library.services import deck_trash
from decks.models import Deck, DeckDraft
from decks.odds.panel import odds_panel_context
from decks.saved_drafts import deck_and_lines_for_owner, deck_draft_for_owner, deck_draft_of
from decks.selectors import deck_get_for_owner
from decks.services import StaleDeck, deck_create_from_draft
from decks.session_drafts import (
    SESSION_DRAFT,
    SESSION_PENDING_SAVE,
    SESSION_REPLACED,
    draft_card_count,
    draft_new,
    replaced_draft,
    session_draft,
    session_draft_pick,
)
from gatesite.errors import ApplicationError

from .browser import deck_card_browser, deck_card_hints, hints_changed
from .forms import CardFilterForm, DeckChangeForm, DeckSaveForm
from .freshness import editor_page_response, stale_change_retry
from .services import RENAME, RULES_ACTIONS, editor_deck_change, editor_draft_change
from .state import DeckEditorState, JudgedDeck, card_filter_choices, deck_editor_state, deck_judged, deck_rules_options
from .undo import STATE_HEADER, draft_state_code

TEMPLATE = "decks/editor/editor.html"
Judged = TypeVar("Judged", bound=JudgedDeck)


@dataclass(frozen=True)
class EditorUrls:
    page: str
    change: str
    cards: str
    # The draw odds' panel (decks/_odds.html, which would otherwise reverse it on every change).
    odds: str

    def at(self, query: str) -> str:
        """The page with a search's query string (a draft's page of a game besides the default names its game)."""
        if not query:
            return self.page
        return f"{self.page}{'&' if '?' in self.page else '?'}{query}"


def _urls(deck: Deck | None, game: str) -> EditorUrls:
    return _editor_urls(deck.public_id if deck is not None else None, game)


# The addresses of the decks edited lately, by script prefix, URLconf, deck and game: every change of a deck
# asks for the same four, and each reverse() costs tens of µs. Bounded: cleared when full.
_remembered_urls: dict[tuple[str, Any, str | None, str], EditorUrls] = {}


def _editor_urls(public_id: str | None, game: str) -> EditorUrls:
    """The editor's addresses: the session draft's of `game` (public_id None) or a saved deck's."""
    key = (get_script_prefix(), get_urlconf(), public_id, game)
    urls = _remembered_urls.get(key)
    if urls is None:
        if len(_remembered_urls) >= 1_000:
            _remembered_urls.clear()
        urls = _remembered_urls[key] = _editor_urls_reversed(public_id, game)
    return urls


def new_deck_url(game: str) -> str:
    """The new-deck page of a game: the default game's names none (its address as it always was)."""
    page = reverse("decks:new")
    return page if game == default_game_slug() else f"{page}?{urlencode({'game': game})}"


def _editor_urls_reversed(public_id: str | None, game: str) -> EditorUrls:
    if public_id is None:
        return EditorUrls(
            new_deck_url(game), reverse("decks:new-change"), reverse("decks:new-cards"), reverse("decks:new-odds")
        )
    args = [public_id]
    return EditorUrls(
        reverse("decks:edit", args=args),
        reverse("decks:change", args=args),
        reverse("decks:cards", args=args),
        reverse("decks:odds", args=args),
    )


def _session_draft_state(
    request: HttpRequest, judged: Callable[..., Judged] = deck_editor_state, draft: DeckDraft | None = None
) -> Judged:
    """The session draft (or `draft`, the one picked) judged, for the editor or by deck_judged for a search; a
    draft the rules can no longer judge is replaced by a new one of its game."""
    draft = draft or session_draft(request)
    try:
        return judged(draft=draft)
    except ApplicationError as exc:
        request.session.pop(SESSION_DRAFT, None)
        messages.warning(
            request, _("Your draft could not be opened (%(problem)s); here is a new one.") % {"problem": exc.message}
        )
        return judged(draft=draft_new(draft.game))


# ---------------------------------------------------------------- pages


@require_GET
def draft_editor(request: HttpRequest) -> HttpResponse:
    """The new-deck page: the draft of the game asked for (`?game=<slug>`), or of the session's draft's game."""
    draft = session_draft_pick(request.session, game=request.GET.get("game"))
    state = _session_draft_state(request, draft=draft)
    return _editor_page(request, state=state, deck=None, replaced=replaced_draft(request))


@require_GET
def deck_editor(request: HttpRequest, public_id: str) -> HttpResponse:
    """A saved deck, of any game, in the editor."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user)
    return _editor_page(request, state=deck_editor_state(draft=deck_draft_of(deck=deck)), deck=deck)


def _editor_page(
    request: HttpRequest,
    *,
    state: DeckEditorState,
    deck: Deck | None,
    status: int = 200,
    conflict: str = "",
    retry: list[tuple[str, str]] | None = None,
    replaced: DeckDraft | None = None,
) -> HttpResponse:
    context = _context(state=state, deck=deck, filters=CardFilterForm(request.GET), rules_changed=True)
    context.update(filter_choices=card_filter_choices(state.game), conflict=conflict, retry=retry, full_page=True)
    context["undo_state"] = draft_state_code(state.draft)  # where the page's undo history starts (undo.js)
    if replaced is not None:
        context.update(replaced=replaced, replaced_cards=draft_card_count(replaced))
    context.update(odds_panel_context(draft=state.draft, params=QueryDict(), judgement=state.judgement))
    context["odds_url"] = context["urls"].odds
    return editor_page_response(render(request, TEMPLATE, context, status=status))


def _context(
    *, state: DeckEditorState, deck: Deck | None, filters: CardFilterForm, rules_changed: bool
) -> dict[str, Any]:
    """What every region of the editor needs; the rules pickers only when they are (re)drawn."""
    from cards.search import SEARCH_HELP

    return {
        "editor": state,
        "deck": deck,
        **_browser_context(state=state, urls=_urls(deck, state.game.slug), filters=filters),
        "options": deck_rules_options(choice=state.choice) if rules_changed and state.choice is not None else None,
        "rules_changed": rules_changed,
        "search_help": SEARCH_HELP,
    }


def _browser_context(*, state: JudgedDeck, urls: EditorUrls, filters: CardFilterForm) -> dict[str, Any]:
    """The card browser's results and their paging links (each with a real href): all that
    `#card-results` draws (a search draws nothing else, so it needs the deck judged, not drawn)."""
    browser = deck_card_browser(state=state, **filters.search_kwargs())
    paging = {}
    for which, offset in (("previous", browser.previous_offset), ("next", browser.next_offset)):
        if offset is not None:
            query = filters.querystring(offset=offset)
            paging[f"{which}_page"] = urls.at(query)
            paging[f"{which}_cards"] = f"{urls.cards}?{query}"
    return {
        "urls": urls,
        "filters": filters,
        "browse": filters.querystring(offset=browser.offset),
        "browser": browser,
        "paging": paging,
    }


# ---------------------------------------------------------------- changes


@require_POST
def draft_change(request: HttpRequest) -> HttpResponse:
    form = DeckChangeForm(request.POST)
    draft = session_draft(request)
    if request.POST.get("game", draft.game) != draft.game:
        return _other_tab(request)
    if not form.is_valid():
        return _refused(request, None, form.error_text(), in_force=draft)
    try:
        changed = editor_draft_change(draft=draft, change=form.change(), shown=_shown(request, form))
    except ApplicationError as exc:
        return _refused(request, None, exc.message, in_force=draft)
    request.session[SESSION_DRAFT] = changed.state.draft.to_session()
    request.session.pop(SESSION_REPLACED, None)  # changed on purpose: the Undo of a replaced draft is over
    action = form.cleaned_data["action"]
    return _changed(request, state=changed.state, deck=None, action=action, notice=changed.notice)


@require_POST
def deck_change(request: HttpRequest, public_id: str) -> HttpResponse:
    # The deck and its lines in one query: the lines are the draft the change starts from, and the save's.
    deck, lines = deck_and_lines_for_owner(public_id=public_id, user=request.user, write=True)
    form = DeckChangeForm(request.POST)
    if not form.is_valid():
        return _refused(request, deck, form.error_text(), in_force=deck_draft_of(deck=deck, lines=lines))
    try:
        saved = editor_deck_change(
            deck=deck, change=form.change(), base_version=form.based_on, shown=_shown(request, form), lines=lines
        )
    except StaleDeck as exc:
        return _conflict(request, public_id, exc)
    except ApplicationError as exc:
        return _refused(request, deck, exc.message, in_force=deck_draft_of(deck=deck, lines=lines))
    action = form.cleaned_data["action"]
    return _changed(request, state=saved.state, deck=saved.deck, action=action, notice=saved.notice)


def _other_tab(request: HttpRequest) -> HttpResponse:
    """A change from a page whose draft is no longer the session's: another tab picked another game."""
    message = _("Your draft is now of another game (picked in another tab): reload the page to see it.")
    if not request.htmx:
        messages.warning(request, message)
        return redirect("decks:new")
    response = render(request, f"{TEMPLATE}#editor-messages", {"refusal": message}, status=409)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


def _shown(request: HttpRequest, form: DeckChangeForm) -> list[str]:
    """The printings the card browser shows, whose hints _changed redraws (fetched with the deck's cards)."""
    if not request.htmx or form.cleaned_data["action"] in RULES_ACTIONS:
        return []
    return request.POST.get("shown", "").split()


def _changed(
    request: HttpRequest, *, state: DeckEditorState, deck: Deck | None, action: str, notice: str = ""
) -> HttpResponse:
    if not request.htmx:
        if notice:
            messages.info(request, notice)
        return redirect(_back_url(request, deck, state.game.slug))
    # htmx sends the browser's search, the printings it shows and the draw odds' choices along (hx-include).
    if action in RULES_ACTIONS:
        # New rules can change which printing a result adds: search again and redraw the results.
        context = _context(state=state, deck=deck, filters=CardFilterForm(request.POST), rules_changed=True)
    elif action != RENAME and request.POST.get("usable"):
        # "Only cards this deck can use" follows the deck: the cards it can no longer take leave the results and
        # those it now can come in, so search again (only with that filter on: a click without it costs no more).
        context = _browser_context(state=state, urls=_urls(deck, state.game.slug), filters=CardFilterForm(request.POST))
        context.update(editor=state, deck=deck, rules_changed=False, results_redrawn=True)
    else:
        # The same results: only their hints change, so no new search and no full redraw.
        context = {
            "editor": state,
            "deck": deck,
            "urls": _urls(deck, state.game.slug),
            # The search as the forms' hidden `browse` field says it: only a form this answer may redraw (the
            # attribute proposal's) shows it, so the search form is cleaned when it is drawn (the template calls
            # this), not on every click.
            "browse": partial(_browse_query, request.POST),
            "hints": hints_changed(
                deck_card_hints(state=state, numbers=request.POST.get("shown", "").split()),
                request.POST.get("hinted"),
            ),
            "rules_changed": False,
            "results_redrawn": False,
        }
    context["header_changed"] = action in RULES_ACTIONS or action == RENAME
    # What #editor-messages asks of every answer, said (a name missing from the context is looked up through
    # all of it, then an exception, each time).
    context.update(notice=notice, full_page=False, replaced=None, conflict="", refusal="")
    odds_key = state.draft.odds_key()
    if request.POST.get("odds_key") != odds_key:
        # The draw odds follow the deck in this same answer (out of band), judged by the change's judgement;
        # the page's panel says which deck it shows (odds_key), so an unchanged one is not sent again.
        context.update(
            odds_panel_context(draft=state.draft, params=request.POST, judgement=state.judgement, odds_key=odds_key)
        )
        context["odds_url"] = context["urls"].odds
    response = render(request, f"{TEMPLATE}#after-change", context)
    # The deck's state after the change, for the page's undo history (decks/editor/undo.py, static/decks/undo.js).
    response[STATE_HEADER] = draft_state_code(state.draft)
    return response


def _browse_query(data: QueryDict) -> str:
    """The card browser's search posted along with a change, as the query string its page's forms keep."""
    filters = CardFilterForm(data)
    return filters.querystring(offset=filters.search_kwargs()["offset"])


def _back_url(request: HttpRequest, deck: Deck | None, game: str) -> str:
    """The editor page, with the search the (JavaScript-less) form was posted from."""
    browse = CardFilterForm(QueryDict(request.POST.get("browse", ""))).querystring()
    return _urls(deck, game).at(browse)


def _refused(
    request: HttpRequest, deck: Deck | None, message: str, *, in_force: DeckDraft | None = None
) -> HttpResponse:
    """Say why a change was refused; a refused rules choice (ruler, geas, attribute, date) also puts the
    pickers back to the choice in force (`in_force`, the draft the change was refused on), so that the
    field never shows a value the verdict is not judged by. Only a refusal pays for that redraw."""
    game = in_force.game if in_force is not None else deck.game if deck is not None else default_game_slug()
    if not request.htmx:
        messages.error(request, message)
        return redirect(_back_url(request, deck, game))
    context: dict[str, Any] = {"refusal": message}
    if in_force is not None and request.POST.get("action") in RULES_ACTIONS:
        state = deck_editor_state(draft=in_force)
        context.update(
            editor=state,
            deck=deck,
            urls=_urls(deck, game),
            browse=_browse_query(request.POST),
            options=deck_rules_options(choice=state.choice) if state.choice is not None else None,
            refused_rules=True,
        )
    response = render(request, f"{TEMPLATE}#refused", context, status=422)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


def _conflict(request: HttpRequest, public_id: str, exc: StaleDeck) -> HttpResponse:
    """Refuse a stale save: say so, and offer the deck as it now is (never overwrite it), with the change
    to make again on it in one click (`retry`: the change's fields and the version it now is at)."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user)
    retry = stale_change_retry(request.POST, version=deck.version)
    if not request.htmx:
        state = deck_editor_state(draft=deck_draft_of(deck=deck))
        return _editor_page(request, state=state, deck=deck, status=409, conflict=exc.message, retry=retry)
    context = {"conflict": exc.message, "urls": _urls(deck, deck.game), "retry": retry}
    response = render(request, f"{TEMPLATE}#editor-messages", context, status=409)
    return reswap(retarget(response, "#editor-messages"), "outerHTML")


# ---------------------------------------------------------------- the card browser


@require_GET
def draft_cards(request: HttpRequest) -> HttpResponse:
    state = _session_draft_state(request, deck_judged)
    urls = _editor_urls(None, state.game.slug)
    if not request.htmx:
        return redirect(urls.at(CardFilterForm(request.GET).querystring()))
    return _card_results(request, state=state, urls=urls)


@require_GET
def deck_cards(request: HttpRequest, public_id: str) -> HttpResponse:
    # The deck as a draft in one query (no model instance): a search shows its results and their hints only.
    owned = deck_draft_for_owner(public_id=public_id, user=request.user)
    if not request.htmx:
        return redirect(_with_query(reverse("decks:edit", args=[public_id]), request))
    return _card_results(request, state=deck_judged(draft=owned.draft), urls=_editor_urls(public_id, owned.draft.game))


def _card_results(request: HttpRequest, *, state: JudgedDeck, urls: EditorUrls) -> HttpResponse:
    """A search's answer: `#card-results` only, drawn from the deck judged (none of the editor's other regions)."""
    context = _browser_context(state=state, urls=urls, filters=CardFilterForm(request.GET))
    response = render(request, f"{TEMPLATE}#card-results", context)
    # The address bar follows the search (filters, usable-only, grid): a reload or a shared link keeps it.
    browse = context["browse"]
    return replace_url(response, context["urls"].at(browse))


def _with_query(url: str, request: HttpRequest) -> str:
    query = CardFilterForm(request.GET).querystring()
    return f"{url}?{query}" if query else url


# ---------------------------------------------------------------- saving, starting over, deleting


@require_http_methods(["GET", "POST"])
def draft_save(request: HttpRequest) -> HttpResponse:
    """Save the session's draft as a deck; asks for an account first, then completes after login.

    The GET only completes a save that a POST (with its CSRF token) asked for and that had to
    wait for the player to log in or sign up; otherwise it goes back to the draft.
    """
    draft = session_draft(request)
    if request.method == "POST":
        draft = _named(request, draft)
        if not request.user.is_authenticated:
            request.session[SESSION_PENDING_SAVE] = True
            messages.info(
                request,
                _("Sign up to save your deck (or log in, if you have an account). Your draft is kept meanwhile."),
            )
            return redirect(f"{reverse('signup')}?{urlencode({'next': reverse('decks:new-save')})}")
    elif not (request.user.is_authenticated and request.session.get(SESSION_PENDING_SAVE)):
        return redirect("decks:new")
    try:
        deck = deck_create_from_draft(owner=request.user, draft=draft)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(new_deck_url(draft.game))
    request.session.pop(SESSION_DRAFT, None)
    request.session.pop(SESSION_PENDING_SAVE, None)
    messages.success(
        request, _("Saved “%(name)s”. From now on every change is saved as you make it.") % {"name": deck.name}
    )
    return redirect("decks:edit", deck.public_id)


def _named(request: HttpRequest, draft: DeckDraft) -> DeckDraft:
    """The draft with the name typed next to the save button (kept in the session for after login)."""
    form = DeckSaveForm(request.POST)
    if form.is_valid() and form.cleaned_data["name"]:
        draft = replace(draft, name=form.cleaned_data["name"].strip())
        request.session[SESSION_DRAFT] = draft.to_session()
    return draft


@require_http_methods(["GET", "POST"])
def draft_reset(request: HttpRequest) -> HttpResponse:
    """Start over with an empty draft; a draft with cards in it is only thrown away once confirmed."""
    draft = session_draft(request)
    if request.method == "POST" and (request.POST.get("confirmed") or not draft.numbers()):
        # The game's draft starts over; the drafts of the other games are kept.
        request.session.pop(SESSION_DRAFT, None)
        return redirect(new_deck_url(draft.game))
    return render(request, "decks/editor/start_over.html", {"draft": draft, "cards": draft_card_count(draft)})


@require_POST
def draft_bring_back(request: HttpRequest) -> HttpResponse:
    """Undo a replaced draft: the one session_draft_replace kept aside becomes the draft again."""
    replaced = replaced_draft(request)
    request.session.pop(SESSION_REPLACED, None)
    if replaced is not None:
        request.session[SESSION_DRAFT] = replaced.to_session()
        messages.success(request, _("Your previous draft is back."))
        return redirect(new_deck_url(replaced.game))
    return redirect("decks:new")


@login_required
@require_POST
def deck_remove(request: HttpRequest, public_id: str) -> HttpResponse:
    """Delete a deck into the trash (My decks says so, with Undo); the trash keeps it TRASH_KEPT_DAYS."""
    deck = deck_get_for_owner(public_id=public_id, user=request.user, write=True)
    deck_trash(deck=deck)
    return redirect(f"{reverse('decks:list')}?{urlencode({'trashed': deck.public_id})}")
