"""The rules data's sentences in the player's language: a ruler's deck rules, zones, setup and start of turn,
and a geas's changes, as data/rules.json transcribes them from the English sources.

The sources word these in a few dozen set forms ("Deck size: 50", "Draw 2 cards."), so each sentence is
read as its form with its numbers taken out ("Deck size: %(n1)s"), translated through the catalog like any
other string, and filled again. PHRASES lists every form the data uses (marked for makemessages); a test
(tests/cards/test_rules_phrases.py) fails on a sentence of the data with no form here, so new rules data
gets its Japanese before it ships. A text with a sentence of no known form is shown as the source writes it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from .catalog import catalog_token
from .models import RulesDocument
from .names import active_language

# Sentences end with "." or ")" (a heading with ":") before a capital, "(", "*(" or "■"; lines end one too.
_BETWEEN = re.compile(r"((?<=[.)])[ \t]+(?=[A-Z(*■])|(?<=:)[ \t]+(?=■)|\n+)")
# A number of the sentence (not part of a word or code such as "EX-I" or "R-18").
_NUMBER = re.compile(r"(?<![A-Za-z-])\d+(?![A-Za-z])")

PHRASES = frozenset(
    {
        _("%(n1)s cards from a chosen faction is allowed."),
        _("(%(n1)s cards in hand, %(n2)s energy)"),
        _("(*If a unit card does not have the attribute you chose, you cannot put it into your deck.*)"),
        _("(If it’s the first turn of the game, draw only %(n1)s card.)"),
        _("(Take a number of cards equal to the Drive and keep them to yourself."),
        _("All unit cards in your deck must have the chosen attribute."),
        _("*(If a unit card does not have the attribute you chose, you cannot put it into your deck.)*"),
        _("Attack Zones: %(n1)s; Defense Zones: %(n2)s; Set Zones: %(n3)s"),
        _("CNT cap: %(n1)s"),
        _("CNT limit: %(n1)s."),
        _("Cards you didn’t play will be put into the cemetery at the end of your Main Phase.)"),
        _("Deck Level limit: %(n1)s."),
        _("Deck Level limit: None."),
        _("Deck level cap: %(n1)s"),
        _("Deck level cap: Unlimited"),
        _("Deck must be exactly %(n1)s cards."),
        _("Deck size: %(n1)s"),
        _("Draw %(n1)s cards from your deck."),
        _("Draw %(n1)s cards."),
        _("Drive %(n1)s."),
        _("For each faction, you may include up to %(n1)s cards from that faction in your deck."),
        _("If this is the very first turn of the game, put %(n1)s less card into your resource zone instead."),
        _("If you do, use its 【CNT】."),
        _("In-Game Abilities:"),
        _("■As this ruler attacks, deal %(n1)s damage to you."),
        _("■As your ruler attacks, look at the top card of your deck."),
        _(
            "■When you have been dealt %(n1)s or more combat damage, once that combat ends, you may discard %(n2)s "
            "card of level %(n3)s or less with 【CNT】 from your hand."
        ),
        _(
            "■When a card with 【CNT】 in your graveyard would be returned to your deck, instead remove it from the game."
        ),
        _("Legendary card cap: %(n1)s"),
        _("Life: %(n1)s"),
        _("Maximum copies of a Legendary card: %(n1)s"),
        _("Maximum copies of a card: %(n1)s"),
        _(
            'Maximum copies of a card: %(n1)s for cards that include "Rock-Paper-Scissors" in its card text, '
            "%(n2)s for all other cards"
        ),
        _("Maximum factions for cards other than units: %(n1)s"),
        _("Maximum factions for units: Unlimited"),
        _("Maximum factions: %(n1)s"),
        _("Maximum factions: Unlimited"),
        _("None."),
        _("Perform %(n1)s Drives."),
        _("Prepare %(n1)s resource cards in addition to your deck."),
        _("Put %(n1)s Energy cards in Active state."),
        _("Put %(n1)s resource cards into your resource zone in a ready state."),
        _("Put the top %(n1)s cards of your deck face down into your resource zone (*without looking at them*)."),
        _("Ready %(n1)s resources in your resource zone."),
        _("Return that card on the top or bottom of your deck."),
        _("Setup: Put %(n1)s resource cards into your resource zone in a ready state."),
        _("Start of Turn: Ready %(n1)s resources in your resource zone."),
        _("Summon cap is unlimited."),
        _("Those cards can be played or set."),
        _("Total levels of cards in your deck can be anything ."),
        _("Total levels of cards in your deck must be %(n1)s or less."),
        _("Total number of cards with CNT in your deck must be %(n1)s or less."),
        _("Unit attribute requirement: Choose %(n1)s attribute of your choice."),
        _("You can check the faction with the icon on the bottom left and the frame of the card."),
        _("You can choose %(n1)s different factions and include any number of cards from those factions in your deck."),
        _("You can have up to %(n1)s cards of each faction."),
        _("You can have up to %(n1)s cards with the same name."),
        _("You can include up to %(n1)s Legend Card with the same card name."),
        _("You can include up to %(n1)s card with the same card name."),
        _("You can include up to %(n1)s cards with the same card name."),
        _("You can include up to %(n1)s different Legend Cards in your deck."),
        _(
            "You can only include cards from the Exvader faction or cards with the {Betrayal or Desecrate} "
            "attributes in your deck."
        ),
        _("You cannot have any card with a negative level in your deck."),
        _("You cannot have any copies of 《Sludge Zombie》 in your deck."),
        _("You can’t have any Legend cards."),
        _("You have no hand zone or resource zone."),
        _("You have no resource zone."),
        _("You may use cards with collector number starting with “%(n1)s” or “MD”."),
        _(
            'Your deck can only contain cards which have a collector number that starts with either "MD" or '
            '"%(n1)s" (*or any card that has the same name as a card that fulfills this restriction*).'
        ),
        _("Your set cap is %(n1)s."),
        _("Your summon cap is %(n1)s."),
        _("Zones: Attack zone: %(n1)s, Defense zone: %(n2)s, Set zone: %(n3)s"),
        _("Zones: Attack zone: %(n1)s, Defense zone: %(n2)s, Set zone: %(n3)s."),
        # The documents' titles.
        _("Translated Rulebook"),
        _("Gate Ruler Comprehensive Rules Appendix A: Rulers"),
        _("Gate Ruler Comprehensive Rules Appendix B: Geases"),
    }
)


def sentence_form(sentence: str) -> tuple[str, dict[str, str]]:
    """A sentence as its form ("Draw %(n1)s cards.") and its numbers ({"n1": "2"})."""
    numbers: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        key = f"n{len(numbers) + 1}"
        numbers[key] = match.group(0)
        return f"%({key})s"

    return _NUMBER.sub(placeholder, sentence.replace("%", "%%")), numbers


def sentences(text: str) -> list[str]:
    """The sentences of a rules text, in order (what sits between them left out)."""
    # re.split with the one group gives the sentences at even places, what was between them at odd ones.
    return [part for part in _BETWEEN.split(text.strip())[::2] if part]


def rules_text(text: str) -> str:
    """A text of the rules data in the active language: in Japanese each sentence by its form's translation
    (sentences not spaced apart, lines kept); as the source writes it in English, or where a form is unknown."""
    if not text or active_language() != "ja":
        return text
    out = []
    for place, part in enumerate(_BETWEEN.split(text.strip())):
        if place % 2:
            out.append(part if "\n" in part else "")
            continue
        if not part:
            continue
        form, numbers = sentence_form(part)
        if form not in PHRASES:
            return text
        out.append(gettext(form) % numbers if numbers else gettext(form))
    return "".join(out)


_titles: tuple[str, dict[str, str]] | None = None


def rules_document(key: str) -> str:
    """A rules document named by its key ("appendix-a-2023-12-04"): in Japanese by its title's translation
    ("ゲートルーラー総合ルール 付録 A:ルーラー"), else by the key, as the site has always named it."""
    global _titles
    if active_language() != "ja":
        return key
    token = catalog_token()
    if _titles is None or _titles[0] != token:
        _titles = (token, dict(RulesDocument.objects.values_list("key", "title")))
    title = _titles[1].get(key, "")
    shown = rules_text(title)
    return shown if shown != title else key
