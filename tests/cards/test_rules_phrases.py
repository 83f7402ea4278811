"""Every sentence of the rules data (data/rules.json: deck rules, zones, setup, start of turn, a geas's changes)
has its form in cards.rules_phrases, so it is shown in Japanese; and the forms are read and filled back right."""

from __future__ import annotations

import json
from pathlib import Path

from django.utils import translation

from cards.rules_phrases import PHRASES, rules_text, sentence_form, sentences

RULES = Path(__file__).resolve().parents[2] / "data" / "rules.json"


def rules_texts() -> list[tuple[str, str]]:
    """(where, text) of every text of the rules data a player reads in the ruler's or geas's details."""
    data = json.loads(RULES.read_text(encoding="utf-8"))
    out = [(document["key"], document["title"]) for document in data["documents"]]
    for document in data["documents"]:
        for ruler in document.get("rulers", []):
            where = f"{document['key']}: {ruler['name']}"
            deck = ruler.get("deck_construction") or {}
            out += [(f"{where}: deck_construction", line) for line in deck.get("text", [])]
            for key in ("zones", "setup", "start_of_turn"):
                value = ruler.get(key)
                if isinstance(value, dict) and value.get("text"):
                    out.append((f"{where}: {key}", value["text"]))
        for geas in document.get("geases", []):
            for section in ("modifications", "additions"):
                out += [
                    (f"{document['key']}: {geas['name']}: {section}", e.get("text", "")) for e in geas.get(section, [])
                ]
    return out


def test_every_sentence_of_the_rules_data_has_its_form():
    texts = rules_texts()
    assert len(texts) > 300
    missing = sorted(
        {
            f"{where}: {sentence_form(s)[0]!r}"
            for where, text in texts
            for s in sentences(text)
            if sentence_form(s)[0] not in PHRASES
        }
    )
    assert missing == []


def test_every_form_is_used_by_the_data():
    used = {sentence_form(s)[0] for _, text in rules_texts() for s in sentences(text)}
    assert PHRASES - used == set()


def test_a_rules_text_in_japanese_keeps_its_numbers_and_leaves_no_space_between_sentences():
    with translation.override("ja"):
        shown = rules_text("Ready 3 resources in your resource zone. Draw 2 cards. Your summon cap is 2.")
    assert shown == "リソースゾーンのリソースを 3 つレディにする。カードを 2 枚引く。召喚上限は 2。"


def test_a_rules_text_in_english_is_the_sources():
    text = "Zones: Attack zone: 2, Defense zone: 1, Set zone: 3. You have no hand zone or resource zone."
    with translation.override("en"):
        assert rules_text(text) == text


def test_a_text_with_a_sentence_of_no_known_form_is_shown_as_the_source_writes_it():
    text = "Draw 2 cards. Shuffle your cemetery into your deck."
    with translation.override("ja"):
        assert rules_text(text) == text
