"""Writes of the deck editor: one change to a draft, and a change judged (and saved, for a saved deck).

A change is one DraftChange (decks/editor/forms.py parses it from a request). For the session's
draft, editor_draft_change judges the changed draft; for a saved deck, editor_deck_change also
saves it, refused with StaleDeck when the page was based on an older version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import Geas
from cards.rules_selectors import rules_choice_get
from cards.selectors import attribute_exists
from decks.drafts import card_facts_by_number
from decks.models import MAX_LINE_COUNT, MAX_LINES, SECTIONS, Deck, DeckDraft
from decks.saved_drafts import DeckLines, deck_draft_of, deck_lines_of
from decks.services import deck_update
from decks.wording import game_name
from gatesite.clock import site_today
from gatesite.errors import ApplicationError

from .state import DeckEditorState, deck_editor_state

ADD = "add"
REMOVE = "remove"
TO_CONSIDERING = "to_considering"
TO_DECK = "to_deck"
# The number of copies of a printing, in one change (a playset button, a number key on a focused card).
SET_COUNT = "set_count"
SET_RULER = "set_ruler"
SET_GEAS = "set_geas"
SET_ATTRIBUTE = "set_attribute"
SET_RULES_DATE = "set_rules_date"
RENAME = "rename"
ACTIONS = (ADD, REMOVE, TO_CONSIDERING, TO_DECK, SET_COUNT, SET_RULER, SET_GEAS, SET_ATTRIBUTE, SET_RULES_DATE, RENAME)
RULES_ACTIONS = frozenset({SET_RULER, SET_GEAS, SET_ATTRIBUTE, SET_RULES_DATE})


@dataclass(frozen=True)
class DraftChange:
    """One edit a player makes: `number` and `section` for card moves, `value` for the rules choices."""

    action: str
    number: str = ""
    section: str = "main"
    value: str = ""
    name: str = ""
    description: str = ""


def deck_draft_change(*, draft: DeckDraft, change: DraftChange) -> DeckDraft:
    """The draft with one change applied (a new draft; the given one is not modified).

    Raises ApplicationError, with a message for the player, for a card that is not in the
    catalog, rules that are not in force on the rules date, a geas for another ruler, a
    line or deck grown past the sizes a draft keeps.
    """
    action = change.action
    if action in (ADD, REMOVE, TO_CONSIDERING, TO_DECK, SET_COUNT):
        return _move(draft, change)
    if action == SET_RULER:
        # A geas belongs to one ruler: a new ruler starts without one.
        changed = replace(draft, ruler=change.value, geas=None)
    elif action == SET_GEAS:
        changed = replace(draft, geas=change.value or None)
    elif action == SET_ATTRIBUTE:
        if change.value and not attribute_exists(change.value):
            raise ApplicationError(_("Unknown attribute '%(value)s'.") % {"value": change.value}, field="value")
        return replace(draft, attribute=change.value)
    elif action == SET_RULES_DATE:
        changed = replace(draft, rules_date=_parse_date(change.value))
    elif action == RENAME:
        return replace(draft, name=change.name.strip(), description=change.description.strip())
    else:
        raise ApplicationError(f"Unknown change '{action}'.", field="action")
    # Refuse a choice the rules cannot judge by (unknown ruler, geas not in force on the date, …).
    rules_choice_get(ruler_slug=changed.ruler, geas_slug=changed.geas, on=changed.rules_date or site_today())
    return changed


def _parse_date(value: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ApplicationError(_("'%(value)s' is not a date (YYYY-MM-DD).") % {"value": value}, field="value") from exc


def _move(draft: DeckDraft, change: DraftChange) -> DeckDraft:
    number, section = change.number, change.section
    if section not in SECTIONS:
        raise ApplicationError(f"Unknown section '{section}'.", field="section")
    # Only a printing new to the draft is looked up, in the catalog memory the judgement then reads
    # it from (a query the first time any request asks for it, none after).
    adding = change.action in (ADD, SET_COUNT) and number not in draft.numbers()
    if adding and not card_facts_by_number([number]):
        raise ApplicationError(_("No card with collector number '%(number)s'.") % {"number": number}, field="number")
    if change.action == ADD:
        return _add(draft, section, number, 1)
    if change.action == SET_COUNT:
        return _add(draft, section, number, copies_wanted(change.value) - draft.section(section).get(number, 0))
    if change.action == REMOVE:
        return _add(draft, section, number, -1)
    if change.action == TO_CONSIDERING:
        # One copy from the deck (or resources) to the considering board.
        return _add(_add(draft, section, number, -1), "considering", number, 1)
    # TO_DECK: one copy from the considering board into `section` (main, or resources for energy).
    if section == "considering":
        raise ApplicationError(_("A card moves from the considering board into the deck or the resources."))
    return _add(_add(draft, "considering", number, -1), section, number, 1)


def copies_wanted(value: str) -> int:
    """The number of copies a set_count change asks for; ApplicationError unless 0 to MAX_LINE_COUNT."""
    if not value.isdigit() or int(value) > MAX_LINE_COUNT:
        raise ApplicationError(
            _("'%(value)s' is not a number of copies (0 to %(n)s).") % {"value": value, "n": MAX_LINE_COUNT},
            field="value",
        )
    return int(value)


def _add(draft: DeckDraft, section: str, number: str, delta: int) -> DeckDraft:
    counts = dict(draft.section(section))
    have = counts.get(number, 0)
    if delta < 0 and have < -delta:
        raise ApplicationError(_SECTION_WORDS[section] % {"number": number}, field="number")
    if have + delta > MAX_LINE_COUNT:
        raise ApplicationError(
            _("A deck keeps at most %(n)s copies of one printing.") % {"n": MAX_LINE_COUNT}, field="number"
        )
    if have == 0 and len(draft.numbers() | {number}) > MAX_LINES:
        raise ApplicationError(_("A deck keeps at most %(n)s different printings.") % {"n": MAX_LINES}, field="number")
    counts[number] = have + delta
    return draft.with_section(section, counts)


# Whole sentences per section, so a translation need not assemble one from a section's name.
_SECTION_WORDS = {
    "main": gettext_lazy("There is no %(number)s in the deck to take out."),
    "resources": gettext_lazy("There is no %(number)s in the resources to take out."),
    "considering": gettext_lazy("There is no %(number)s in the considering board to take out."),
}


@dataclass(frozen=True)
class ChangedDraft:
    state: DeckEditorState
    # What the change did besides what was asked (change_notice), for the player to read.
    notice: str = ""


def editor_draft_change(*, draft: DeckDraft, change: DraftChange, shown: Sequence[str] = ()) -> ChangedDraft:
    """The session's draft with one change applied, judged; the caller keeps `state.draft` in the session.

    `shown`: the printings the card browser shows, whose facts the judgement fetches along
    (their hints are redrawn after the change, decks/editor/browser.py deck_card_hints).
    """
    changed = deck_draft_change(draft=draft, change=change)
    return ChangedDraft(deck_editor_state(draft=changed, also=shown), change_notice(before=draft, change=change))


def change_notice(*, before: DeckDraft, change: DraftChange) -> str:
    """What a change did besides what was asked, for the player to read: a new ruler drops the geas."""
    if change.action != SET_RULER or not before.geas or change.value == before.ruler:
        return ""
    geas = Geas.objects.filter(slug=before.geas).select_related("ruler").first()
    if geas is None:
        return ""
    return _(
        "The geas %(geas)s was dropped: a geas changes the rules of the one ruler it targets, %(ruler)s. "
        "Pick a geas for the new ruler if you want one."
    ) % {"geas": geas.name, "ruler": game_name(geas.ruler.name)}


@dataclass(frozen=True)
class SavedChange:
    deck: Deck
    state: DeckEditorState
    # What the change did besides what was asked (change_notice).
    notice: str = ""


def editor_deck_change(
    *, deck: Deck, change: DraftChange, base_version: int, shown: Sequence[str] = (), lines: DeckLines | None = None
) -> SavedChange:
    """A saved deck with one change applied, judged and saved at once (every change is saved).

    Raises StaleDeck (decks.services) when the deck is no longer at `base_version`, the version
    the player's page showed: the change is then refused, never written over another one.
    `lines`: the deck's lines if the caller read them with it (deck_and_lines_for_owner); read here if not.
    """
    if lines is None:
        lines = deck_lines_of(deck=deck)
    before = deck_draft_of(deck=deck, lines=lines)
    changed = deck_draft_change(draft=before, change=change)
    state = deck_editor_state(draft=changed, also=shown)
    saved = deck_update(
        deck=deck, draft=changed, base_version=base_version, judgement=state.judgement, autosave=True, lines=lines
    )
    return SavedChange(saved, state, change_notice(before=before, change=change))
