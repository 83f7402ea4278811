"""`make data`, run by `make run` on every start: it adds what is missing and never reverts newer data.

The options are read from the Makefile's `data` recipe, so these tests follow what a restart runs.
"""

from __future__ import annotations

import json
import re
import shlex
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from cards.models import Card, Erratum, ImportJob, Printing, RulerRevision

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
# What the Makefile's DATA_FILES wildcards name.
SHIPPED = [
    *sorted(str(p) for p in (REPO / "data" / "real_cards").glob("*.json")),
    *sorted(str(p) for p in (REPO / "data" / "practice").glob("*.json")),
    *sorted(str(p) for p in (REPO / "data" / "practice" / "games").glob("*.json")),
]
SHIPPED_CARD = "Haunting~~!!"  # data/real_cards/gb01.json, 2020GB01-071


def data_recipe_options(command: str) -> list[str]:
    """The options the `data` target passes to `manage.py <command>`."""
    recipe = re.search(r"^data:.*\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert recipe is not None, "the Makefile has a data target"
    match = re.search(rf"manage\.py {command}\b([^)\n]*)", recipe.group(1))
    assert match is not None, f"make data runs {command}"
    return [word for word in shlex.split(match.group(1)) if word.startswith("-")]


def restart_import() -> str:
    """The card import of `make data`, as a restart runs it."""
    out = StringIO()
    call_command("import_cards", *data_recipe_options("import_cards"), *SHIPPED, stdout=out)
    return out.getvalue()


def restart_rules() -> str:
    out = StringIO()
    call_command("load_rules", *data_recipe_options("load_rules"), stdout=out)
    return out.getvalue()


@pytest.fixture
def newer_wording(tmp_path: Path) -> Path:
    """The shipped GB01 file with a newer level for one card: the admin's later import."""
    data = json.loads((REPO / "data" / "real_cards" / "gb01.json").read_text(encoding="utf-8"))
    changed = next(c for c in data["cards"] if c["name"] == SHIPPED_CARD)
    changed["level"] = changed["level"] + 1
    path = tmp_path / "gb01-errata.json"
    path.write_text(json.dumps({"set": data["set"], "cards": [changed]}), encoding="utf-8")
    return path


def test_a_restart_keeps_a_card_an_admin_imported_since(newer_wording):
    restart_import()  # the first start
    shipped_level = Card.objects.get(name=SHIPPED_CARD).level
    call_command("import_cards", str(newer_wording), stdout=StringIO())

    out = restart_import()

    card = Card.objects.get(name=SHIPPED_CARD)
    assert card.level == shipped_level + 1
    assert list(Erratum.objects.filter(card=card).values_list("old_value", "new_value")) == [
        (shipped_level, shipped_level + 1)
    ]
    assert "Left 1 existing sets, cards or printings as they are (--only-new)." in out


def test_a_restart_adds_a_shipped_card_the_catalog_lacks():
    restart_import()
    Card.objects.filter(name=SHIPPED_CARD).delete()  # its printings go with it

    restart_import()

    assert Printing.objects.filter(card__name=SHIPPED_CARD).exists()
    assert ImportJob.objects.latest("pk").only_new


def test_a_restart_keeps_an_admin_edit_of_the_rules(rules):
    assert "--force" not in data_recipe_options("load_rules")
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    revision.data = {**revision.data, "life": 13}
    revision.save()

    first, second = restart_rules(), restart_rules()

    revision.refresh_from_db()
    assert revision.data["life"] == 13
    assert "Kept admin edit of Apprentice" in first
    assert "Kept admin edit of Apprentice" in second  # still reported, never reverted


def test_a_start_loads_the_practice_sets_of_every_game():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    data_files = re.search(r"^DATA_FILES := (.*)$", makefile, re.MULTILINE)
    assert data_files is not None
    assert "$(wildcard data/practice/games/*.json)" in data_files.group(1)

    restart_import()

    games = set(Card.objects.values_list("game", flat=True).distinct())
    assert games == {"gate-ruler", "rulers-gambit", "gaterunners"}
    assert Card.objects.filter(game="rulers-gambit", type="kingdom-ruler").count() == 9
