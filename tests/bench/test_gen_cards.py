"""bench/gen_cards.py: deterministic, streaming, and what it writes is a valid import (pure: no database)."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from pathlib import Path

import pytest

from bench.gen_cards import GenConfig, iter_printings, main, write_sets
from cards.importers.consistency import consistency_errors
from cards.importers.parsing import parse_card_file
from cards.importers.records import RULES_FIELDS, CardRecord, ParsedFile

NUMBER = re.compile(r"(?:[0-9]{4}(?:BS|SD)[0-9]{2}|MD[0-9]{2})-[0-9]{4}")
CONFIG = GenConfig(printings=2600, factions=12, set_size=250, seed=7)


def parse_all(paths: list[Path]) -> list[ParsedFile]:
    return [parse_card_file(str(path), path.read_bytes()) for path in paths]


def cards_of(files: list[ParsedFile]) -> list[CardRecord]:
    return [card for parsed in files for card in parsed.cards]


@pytest.fixture(scope="module", params=["json", "csv"])
def generated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Path]]:
    fmt = request.param
    return fmt, write_sets(CONFIG, tmp_path_factory.mktemp(fmt), fmt)


def test_same_seed_gives_byte_identical_files(generated: tuple[str, list[Path]], tmp_path: Path) -> None:
    fmt, paths = generated
    again = write_sets(CONFIG, tmp_path / "again", fmt)
    assert [p.name for p in again] == [p.name for p in paths]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(again, paths, strict=True))


def test_another_seed_gives_other_cards(tmp_path: Path) -> None:
    one = write_sets(GenConfig(printings=200, seed=1), tmp_path / "one")
    two = write_sets(GenConfig(printings=200, seed=2), tmp_path / "two")
    assert one[0].read_bytes() != two[0].read_bytes()


def test_output_parses_without_errors(generated: tuple[str, list[Path]]) -> None:
    _, paths = generated
    files = parse_all(paths)  # raises ImportFileError listing every bad row
    assert consistency_errors(files) == []  # across files too: numbers unique, reprints agree


def test_requested_counts(generated: tuple[str, list[Path]]) -> None:
    _, paths = generated
    files = parse_all(paths)
    cards = cards_of(files)
    assert len(cards) == CONFIG.printings
    assert len(paths) == len(files) == 11  # ceil(2600 / 250) set files
    assert [len(f.cards) for f in files] == [250] * 10 + [100]
    assert len({c.faction for c in cards if c.faction is not None}) == CONFIG.factions
    sets = [s for f in files for s in f.sets]
    assert len(sets) == len({s.code for s in sets}) == 11
    assert all(s.release_date is not None for s in sets)


def test_collector_numbers_look_real(generated: tuple[str, list[Path]]) -> None:
    _, paths = generated
    cards = cards_of(parse_all(paths))
    assert all(NUMBER.fullmatch(c.collector_number) for c in cards), [c.collector_number for c in cards[:5]]
    assert cards[0].collector_number == "2026BS01-0001"
    assert any(c.collector_number.startswith("MD") for c in cards)


def test_reprints_agree_on_rules_fields(generated: tuple[str, list[Path]]) -> None:
    _, paths = generated
    by_name: dict[str, list[CardRecord]] = defaultdict(list)
    for card in cards_of(parse_all(paths)):
        by_name[card.name].append(card)
    reprinted = {name: printings for name, printings in by_name.items() if len(printings) > 1}
    assert len(reprinted) > 100
    assert any(len({p.set_code for p in printings}) > 1 for printings in reprinted.values())
    for printings in reprinted.values():
        first = printings[0].rules()
        assert all(p.rules() == first for p in printings[1:])
        assert set(first) == set(RULES_FIELDS)


def test_holds_every_kind_of_card(generated: tuple[str, list[Path]]) -> None:
    _, paths = generated
    cards = cards_of(parse_all(paths))
    assert any(c.cnt for c in cards)
    assert any(c.legend for c in cards)
    assert any(c.level is not None and c.level < 0 for c in cards)
    assert {c.type for c in cards} == {"unit", "event", "field", "energy"}
    assert all(c.faction is None and c.level is None for c in cards if c.type == "energy")
    assert any(len(c.attributes) > 1 for c in cards)
    assert any(c.name_ja for c in cards)
    assert any("\n" in c.text and "," in c.text for c in cards)  # CSV quoting is exercised
    assert all(c.atk is not None and c.hp is not None and c.stk is not None for c in cards if c.type == "unit")


def test_small_runs_still_hold_every_kind(tmp_path: Path) -> None:
    config = GenConfig(printings=20, factions=3, set_size=8)
    cards = cards_of(parse_all(write_sets(config, tmp_path)))
    assert len(cards) == 20
    assert len({c.faction for c in cards if c.faction}) == 3
    assert any(c.cnt for c in cards)
    assert any(c.legend for c in cards)
    assert any(c.level is not None and c.level < 0 for c in cards)
    assert any(c.type == "energy" for c in cards)


def test_json_and_csv_hold_the_same_cards(tmp_path: Path) -> None:
    config = GenConfig(printings=300, set_size=100)
    as_json = cards_of(parse_all(write_sets(config, tmp_path / "j", "json")))
    as_csv = cards_of(parse_all(write_sets(config, tmp_path / "c", "csv")))

    def strip(card: CardRecord) -> tuple[object, ...]:
        return (card.collector_number, card.set_code, card.rarity, *card.rules().values())

    assert [strip(c) for c in as_json] == [strip(c) for c in as_csv]


def test_streams_rows() -> None:
    """A billion printings: the first rows come at once, nothing is built up front."""
    first = list(itertools.islice(iter_printings(GenConfig(printings=10**9)), 3))
    assert [card["number"] for _, card in first] == ["2026BS01-0001", "2026BS01-0002", "2026BS01-0003"]


@pytest.mark.parametrize(
    "changes",
    [{"printings": 0}, {"factions": 0}, {"set_size": 0}, {"reprints": 1.0}, {"seed": 2**64}],
)
def test_rejects_bad_config(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must"):
        GenConfig(**changes)  # type: ignore[arg-type]


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    argv = ["--printings", "150", "--factions", "4", "--set-size", "100", "--format", "csv", "--out", str(out)]
    assert main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == ["001_bs01.csv", "002_bs02.csv"]
    assert "150 printings in 2 csv set files" in capsys.readouterr().out
    assert main(["--printings", "0", "--out", str(out)]) == 2
