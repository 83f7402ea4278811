"""Set files of the other games through every way in: the import_cards command (the queued import jobs
are in tests/cards/import_jobs/test_game_import_jobs.py), with the same all-or-nothing checks and messages."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.models import Card
from tests.cards.factories import game_set_file, gr_card_row, rg_card_row

pytestmark = pytest.mark.django_db


def import_cards(*args: str) -> str:
    out = StringIO()
    call_command("import_cards", *args, stdout=out)
    return out.getvalue()


def test_the_command_imports_a_games_file_and_refuses_a_bad_one_whole(tmp_path: Path):
    good = tmp_path / "rg.json"
    good.write_bytes(game_set_file("rulers-gambit", rg_card_row(1), rg_card_row(2, colours=["Green"])))
    bad = tmp_path / "gr.json"
    bad.write_bytes(game_set_file("gaterunners", gr_card_row(1), gr_card_row(2, type="hero", level=1, instant=None)))

    with pytest.raises(CommandError) as caught:
        import_cards(str(good), str(bad))

    assert str(caught.value).splitlines() == [
        "Nothing imported.",
        f'{bad}: cards[1], field "level": Hero cards have no Level (only unit cards have it)',
    ]
    assert not Card.objects.exists()
    assert "2 cards (2 new" in import_cards(str(good))
    assert Card.objects.get(name="Gambit Card 2").fields["colours"] == ["green"]
