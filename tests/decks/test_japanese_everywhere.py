"""A Japanese player meets no English interface word, in any game; an English player no Japanese.

Each page a player opens is rendered in Japanese, for a deck of each game, and its visible text
(and the attributes a player reads: title, aria-label, placeholder, alt, a button's value) is
searched for a word of three or more Latin letters. Allowed are the game's own abbreviations and
the names the data gives in no Japanese form (cards, rulers, factions, attributes, collector
numbers, the player's own names). The same pages in English must hold no Japanese text other
than such names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

# The game's and the web's abbreviations, read the same in both languages; the site's name; the names of keys as
# keyboards print them (Ctrl+Z); the time zone; and "English", the other language's name in itself (the switch).
ALLOWED = frozenset(
    {"CNT", "ATK", "STK", "HP", "API", "JSON", "CSV", "URL", "QR", "Lv", "Gatesite", "Ctrl", "Shift", "UTC", "English"}
)
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
ASCII_PUNCTUATION = re.compile(r"[\u3040-\u30ff\u3400-\u9fff][.,;?](?:\s|$)")
# An ASCII list mark in a line of Japanese ("ライフ 11, ATK 3"): Japanese lists with 、.
ASCII_LIST_MARK = re.compile(r"[,;] ")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e\u3001\u3002]")
# Attributes whose value a player reads.
READ_ATTRIBUTES = frozenset({"title", "aria-label", "placeholder", "alt"})


class _VisibleText(HTMLParser):
    """The text a player sees or hears: no script, style or hidden template, no markup."""

    # Code is what a player types or sends as it is (search syntax "t:unit", "POST /api/v1/..."): not words.
    SKIPPED = frozenset({"script", "style", "template", "code", "kbd"})

    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    )

    def __init__(self, page_language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_language = page_language
        self.parts: list[str] = []
        # Text an element marks as in another language (lang="en" on a Japanese page): a name beside its translation.
        self.foreign: list[str] = []
        self._skipping: list[str] = []
        self._languages: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIPPED:
            self._skipping.append(tag)
        values = dict(attrs)
        if tag not in self.VOID and tag != "html" and values.get("lang"):
            self._languages.append((tag, str(values["lang"])))
        for name, value in attrs:
            shown_value = name == "value" and tag == "input" and values.get("type") in ("submit", "button")
            if value and (name in READ_ATTRIBUTES or shown_value):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()
        if self._languages and self._languages[-1][0] == tag:
            self._languages.pop()

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._languages and self._languages[-1][1].split("-")[0] != self.page_language:
            self.foreign.append(data)
        else:
            self.parts.append(data)


def read(html: str, page_language: str) -> _VisibleText:
    parser = _VisibleText(page_language)
    parser.feed(html)
    return parser


def visible_text(html: str, page_language: str = "ja") -> str:
    return "\n".join(read(html, page_language).parts)


def data_names(japanese: bool) -> list[str]:
    """The names the data gives in no form of the page's language, and the player's own names, longest first (a
    longer name goes before its part)."""
    from django.contrib.auth import get_user_model

    from cards.games import games
    from cards.models import Attribute, Card, CardSet, Faction, Geas, Printing, Ruler
    from decks.models import Deck

    names: set[str] = set()
    # A game's name in the data's other languages where the sources give none (Ruler's Gambit, GateRunners).
    names.update(str(game.name) for game in games().values() if not (japanese and "ja" in game.name.texts))
    for model in (Card, Faction, Ruler):
        rows = model.objects.values_list("name", "name_ja")
        # In Japanese, an English name is allowed only where no Japanese one exists; in English, a
        # Japanese-only name (a card the source names only in Japanese) stands as the source writes it.
        names.update(name for name, name_ja in rows if not (japanese and name_ja))
        # A Japanese form is a name in either language: on a Japanese page even where the source writes it in Latin
        # letters (the faction ATLAS); on an English page where the player typed it (the import's "Did you mean").
        names.update(name_ja for _, name_ja in rows)
    names.update(Attribute.objects.values_list("name", flat=True))
    names.update(Ruler.objects.values_list("code", flat=True))
    names.update(Geas.objects.values_list("name", flat=True))
    names.update(Printing.objects.values_list("collector_number", flat=True))
    names.update(CardSet.objects.values_list("code", flat=True))
    names.update(CardSet.objects.values_list("name", flat=True))
    names.update(get_user_model().objects.values_list("username", flat=True))
    names.update(get_user_model().objects.values_list("email", flat=True))
    names.update(Deck.objects.values_list("name", flat=True))
    names.update(line.split(" ", 1)[-1] for line in _TYPO.splitlines())  # what the player typed, echoed back
    return sorted((n for n in names if n), key=len, reverse=True)


def data_texts() -> str:
    """Every name (in either language) and text the data gives in one language only (a card's text, a ruler's
    abilities as the source writes them): what a page may show marked as in the other language (lang="en")."""
    from cards.models import Card, Faction, Ruler

    texts: set[str] = {"English", "日本語"}  # each language's name in itself (the language switch)
    for model in (Card, Faction, Ruler):
        for pair in model.objects.values_list("name", "name_ja"):
            texts.update(n for n in pair if n)
    texts.update(Card.objects.values_list("text", flat=True))
    rules = json.loads((ROOT / "data" / "rules.json").read_text(encoding="utf-8"))
    for document in rules["documents"]:
        for ruler in document.get("rulers", []):
            texts.update(ruler.get("abilities") or [])
    return "\n".join(texts)


def out_of_place(html: str, page_language: str, names: list[str], known: str) -> list[str]:
    """A Japanese page's words of three or more Latin letters, or an English page's lines with Japanese text,
    outside the allowed names; and any text marked as in the other language that is not a name."""
    page = read(html, page_language)
    text = "\n".join(page.parts)
    for name in names:
        text = text.replace(name, " ")
    if page_language == "ja":
        found = {w for w in LATIN_WORD.findall(text) if w not in ALLOWED}
        # Japanese sentences end and pause with 。 and 、, not an ASCII full stop or comma.
        found.update(
            f"punctuation: {line.strip()}"
            for line in text.splitlines()
            if ASCII_PUNCTUATION.search(line) or (JAPANESE.search(line) and ASCII_LIST_MARK.search(line))
        )
    else:
        found = {line.strip() for line in text.splitlines() if JAPANESE.search(line)}
    found.update(part.strip() for part in page.foreign if part.strip() and part.strip() not in known)
    return sorted(found)


def pages(client, decks) -> Iterator[tuple[str, str]]:
    """(what, html) for every page the issue names, over the decks of each game."""
    yield "home", client.get("/").content.decode()
    for game, deck in decks.items():
        p = deck.public_id
        yield f"{game} editor", client.get(f"/decks/{p}/edit/").content.decode()
        yield f"{game} deck page", client.get(f"/d/{p}/").content.decode()
        yield f"{game} version page", client.get(f"/d/{p}/v/1/").content.decode()
        link = client.get(f"/decks/{p}/share/")["Location"]
        yield f"{game} link page", client.get(link).content.decode()
        yield f"{game} registration sheet", client.get(f"/d/{p}/sheet/").content.decode()
        yield f"{game} draw odds", client.get(f"/decks/{p}/odds/").content.decode()
        yield f"{game} text export", client.get(f"/d/{p}/export.txt").content.decode()
        yield f"{game} import page", client.get(f"/decks/{p}/import/").content.decode()
    # What one click draws (htmx swaps these parts in): a card added to each game's deck, and its answer.
    for game, number in (("gate-ruler", "2025PS01-003"), ("rulers-gambit", "RGT-040"), ("gaterunners", "GRT-012")):
        deck = decks[game]
        deck.refresh_from_db()
        section = {"gaterunners": "gates"}.get(game, "main")
        answer = client.post(
            f"/decks/{deck.public_id}/change/",
            {"op": f"add {section} {number}", "base_version": deck.version},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 200
        yield f"{game} editor after a click", answer.content.decode()
    preview = client.post(f"/decks/{decks['gate-ruler'].public_id}/import/", {"text": _TYPO})
    yield "text-import preview with a Japanese typo", preview.content.decode()
    yield "stats", client.get("/stats/").content.decode()
    for number in ("2025PS01-001", "RGT-001", "GRT-001"):
        yield f"card page {number}", client.get(f"/cards/{number}/").content.decode()
    # A version before the one the clicks above saved: the past version's own line.
    yield "past version page", client.get(f"/d/{decks['gate-ruler'].public_id}/v/1/").content.decode()
    yield "my decks", client.get("/decks/").content.decode()
    yield "browse", client.get("/decks/browse/").content.decode()
    a, b = decks["gate-ruler"].public_id, decks["rulers-gambit"].public_id
    yield "compare", client.get(f"/decks/compare/?a={a}&b={b}").content.decode()
    yield "page not found", client.get("/d/no-such-deck/").content.decode()


@pytest.fixture
def decks(practice_set, game_catalog, user, client):
    from decks.models import DeckDraft

    gate_ruler = DeckDraft(name="練習", ruler="apprentice", main={"2025PS01-001": 2, "2025PS01-002": 1})
    from decks.stats.services import statistics_recompute

    client.force_login(user)
    decks = {
        "gate-ruler": game_deck(user, gate_ruler),
        "rulers-gambit": game_deck(user, gambit_draft(name="炎", main={"RGT-011": 3, "RGT-040": 1})),
        "gaterunners": game_deck(user, runners_draft(name="走者", others={"hero": {"GRT-001": 1}})),
    }
    # /stats/ and the card pages with figures to show: each game's identity cards, its most played cards.
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    return decks


def test_a_japanese_player_meets_no_english_word(client, decks):
    client.cookies["django_language"] = "ja"
    names, known = data_names(japanese=True), data_texts()

    found = {what: out_of_place(html, "ja", names, known) for what, html in pages(client, decks)}

    assert len(found) == 38
    assert {what: words for what, words in found.items() if words} == {}


def test_an_english_player_meets_no_japanese_text(client, decks):
    client.cookies["django_language"] = "en"
    names, known = data_names(japanese=False), data_texts()

    found = {what: out_of_place(html, "en", names, known) for what, html in pages(client, decks)}

    assert {what: lines for what, lines in found.items() if lines} == {}


def test_the_check_finds_an_english_word_and_a_japanese_line():
    html = (
        '<p>デッキ Deck size: 50</p><p lang="en">Not a name</p><code>t:unit</code>'
        '<input type="submit" value="Save"><button value="redo">やり直す</button>'
    )

    assert out_of_place(html, "ja", [], "") == ["Deck", "Not a name", "Save", "size"]
    assert out_of_place("<p>デッキ, 50 枚.</p>", "ja", [], "") == ["punctuation: デッキ, 50 枚."]
    assert out_of_place('<p>Deck <span lang="ja">燃えさし</span></p><p>デッキ</p>', "en", [], "燃えさし") == ["デッキ"]


def test_a_card_set_is_a_card_set_in_japanese_never_the_games_set(client, decks):
    """セット alone is a card's word in the games (Gate Ruler's set zone, Ruler's Gambit's Set spells): a card set is
    カードセット wherever the interface names one, and the visibility form's button (English "Set") says what it does."""
    client.cookies["django_language"] = "ja"
    deck = decks["gate-ruler"]

    card_page = client.get("/cards/2025PS01-001/").content.decode()
    editor = client.get(f"/decks/{deck.public_id}/edit/").content.decode()

    assert "<th>カードセット</th>" in card_page
    assert re.search(r"<label>カードセット <select name=\"set\">", editor)
    assert re.search(r'data-testid="visibility-form">.*?<button type="submit">変更する</button>', editor, re.S)
    assert "<th>セット</th>" not in card_page
    assert "<label>セット " not in editor


@pytest.mark.parametrize(
    ("game", "text", "said"),
    [
        (
            "gate-ruler",
            "ルーラー：アプレンティス\nルーラー：ナイト\n2 燃えさしの砦の試験魔術師\n",
            "「ルーラー」が 2 回あります",
        ),
        ("gate-ruler", "2 燃えさしの砦の試験魔術師\n", "ギアス、属性、ルールの日付"),
        ("rulers-gambit", "ゲーム：ゲートルーラー\n", "ゲームは変えられません"),
        ("rulers-gambit", "サイドデッキ：\n", "(キングダム)"),
        ("gaterunners", "サイドデッキ：\n", "(ヒーロー、ゲート)"),
    ],
)
def test_a_pasted_lists_refusals_and_notes_are_in_japanese(client, decks, game, text, said):
    """What the import preview says of the list's own lines: headings named in Japanese, never English keys."""
    client.cookies["django_language"] = "ja"
    names, known = data_names(japanese=True), data_texts()

    html = client.post(f"/decks/{decks[game].public_id}/import/", {"text": text}).content.decode()

    assert said in html
    assert out_of_place(html, "ja", names, known) == []


def test_did_you_mean_answers_a_japanese_typo_with_the_japanese_name(client, decks):
    client.cookies["django_language"] = "ja"
    deck = decks["gate-ruler"]

    html = client.post(f"/decks/{deck.public_id}/import/", {"text": _TYPO}).content.decode()

    assert "燃えさしの砦の試験魔術師" not in _TYPO
    assert '「<strong data-testid="suggestion">燃えさしの砦の試験魔術師</strong>」のことですか' in html


@pytest.mark.parametrize("game", ["gate-ruler", "rulers-gambit", "gaterunners"])
def test_a_list_exported_in_japanese_imports_back_in_an_english_session(client, decks, game):
    from decks.decklists.selectors import deck_text_import
    from decks.saved_drafts import deck_draft_of

    deck = decks[game]
    client.cookies["django_language"] = "ja"
    text = client.get(f"/d/{deck.public_id}/export.txt").content.decode()
    draft = deck_draft_of(deck=deck)

    result = deck_text_import(text=text, draft=draft, game_fixed=True)

    assert result.errors == ()
    assert "ルーラー：" in text or "ゲーム：" in text
    assert result.draft.main == draft.main
    assert result.draft.others == draft.others
    assert result.draft.ruler == draft.ruler


# The first card of the practice set, its Japanese name missing its last character.
_TYPO = "ルーラー：アプレンティス\n2 燃えさしの砦の試験魔術\n"
