"""The design system's stylesheets: every colour is a token of gatesite.css's :root block, and the tokens pass AA.

Scans static/gatesite.css (outside its token block) and the page sheets built on it. The editor's
sheet (static/decks/editor.css) keeps its own palette for now and is not scanned.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
DESIGN = STATIC / "gatesite.css"
PAGE_SHEETS = [STATIC / "fonts.css", STATIC / "decks" / "pages.css", STATIC / "decks" / "odds.css"]
PAGE_SHEETS += [STATIC / "decks" / "deck_text.css"]
NAMED_COLOURS = {"white", "black", "red", "green", "blue", "yellow", "orange", "purple", "gray", "grey", "silver"}
NAMED_COLOURS |= {"navy", "maroon", "teal", "olive", "lime", "aqua", "fuchsia", "pink", "brown", "gold"}


def _without_comments(css: str) -> str:
    return re.sub(r"/\*.*?\*/", "", css, flags=re.S)


def _token_block(css: str) -> str:
    match = re.search(r":root\s*\{(.*?)\}", _without_comments(css), flags=re.S)
    assert match, "gatesite.css has no :root token block"
    return match.group(1)


def _tokens() -> dict[str, str]:
    return dict(re.findall(r"(--[^\s:]+)\s*:\s*([^;]+);", _token_block(DESIGN.read_text(encoding="utf-8"))))


def _outside_tokens(path: Path) -> str:
    css = _without_comments(path.read_text(encoding="utf-8"))
    return re.sub(r":root\s*\{.*?\}", "", css, count=1, flags=re.S) if path == DESIGN else css


def hard_coded_colours(css: str) -> list[str]:
    """Colours written as values instead of var(--token): hex, rgb()/hsl(), colour names."""
    found = re.findall(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(", css)
    for value in re.findall(r":\s*([^;{}]+)[;}]", css):
        words = re.findall(r"[a-z]+", re.sub(r"var\([^)]*\)", "", value))
        found += [word for word in words if word in NAMED_COLOURS]
    return found


@pytest.mark.parametrize("path", [DESIGN, *PAGE_SHEETS], ids=lambda p: p.name)
def test_no_colour_is_written_outside_the_token_block(path: Path) -> None:
    assert hard_coded_colours(_outside_tokens(path)) == [], f"{path.relative_to(ROOT)}: use a token of gatesite.css"


def test_the_scan_finds_a_hard_coded_colour() -> None:
    css = ".a { color: #fff; } .b { background: rgb(0 0 0); } .c { border: 1px solid red; } .d { color: var(--red); }"
    assert hard_coded_colours(css) == ["#fff", "rgb(", "red"]


@pytest.mark.parametrize("path", [DESIGN, *PAGE_SHEETS], ids=lambda p: p.name)
def test_every_token_used_is_defined(path: Path) -> None:
    tokens = set(_tokens())
    css = _outside_tokens(path)
    local = set(re.findall(r"(--[\w-]+)\s*:", css))  # set on an element, e.g. a card face's --face
    used = set(re.findall(r"var\((--[^\s,)]+)", css))
    assert used - tokens - local == set(), f"{path.name} uses undefined tokens"


def test_each_faction_and_colour_has_a_token() -> None:
    from django.utils.text import slugify

    tokens = _tokens()
    for faction in json.loads((ROOT / "data" / "factions.json").read_text(encoding="utf-8")):
        slug = slugify(faction["name"]) or slugify(faction["name_ja"], allow_unicode=True)
        assert f"--faction-{slug}" in tokens, faction["name"]
    game = json.loads((ROOT / "data" / "games" / "rulers-gambit.json").read_text(encoding="utf-8"))
    colours = next(field for field in game["card_fields"] if field["key"] == "colours")
    for choice in colours["choices"]:
        assert f"--colour-{choice['key']}" in tokens, choice["key"]


def _luminance(hex_colour: str) -> float:
    digits = hex_colour.strip().lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted([_luminance(a), _luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_says() -> None:
    assert round(contrast("#000", "#fff"), 1) == 21.0
    assert round(contrast("#767676", "#fff"), 2) == 4.54


def test_text_tokens_pass_aa_on_the_surfaces() -> None:
    tokens = _tokens()
    texts = ["--ink", "--ink-muted", "--accent", "--accent-strong", "--ok", "--over", "--warn"]
    for text in texts:
        for surface in ["--surface", "--canvas"]:
            assert contrast(tokens[text], tokens[surface]) >= 4.5, (text, surface)
    tints = {"--ok": "--ok-tint", "--over": "--over-tint", "--warn": "--warn-tint", "--ink": "--info-tint"}
    for text, tint in tints.items():
        assert contrast(tokens[text], tokens[tint]) >= 4.5, (text, tint)
    assert contrast(tokens["--ink-muted"], tokens["--surface-sunken"]) >= 4.5
    assert contrast(tokens["--line-strong"], tokens["--surface"]) >= 3  # control borders (WCAG 1.4.11)


def test_white_text_on_each_faction_and_colour_passes_aa() -> None:
    tokens = _tokens()
    fills = [name for name in tokens if name.startswith(("--faction-", "--colour-", "--game-"))] + ["--accent"]
    assert len(fills) > 10
    for fill in fills:
        assert contrast(tokens["--on-colour"], tokens[fill]) >= 4.5, fill
