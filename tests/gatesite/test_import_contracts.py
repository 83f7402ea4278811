"""The layer contracts of pyproject.toml ([tool.importlinter]): kept today, and broken by a forbidden import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    # The packages under `root` come first on the path, so a copy is analysed instead of the repo.
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The repo's packages and pyproject.toml, in a throwaway directory a test may break."""
    for package in ("cards", "decks", "gatesite"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_it_keeps_every_contract():
    result = lint_imports(REPO)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "The engine is pure KEPT" in result.stdout
    assert "The catalog sits below the decks KEPT" in result.stdout
    assert "The deck features sit on the deck core KEPT" in result.stdout
    assert "Views and APIs do not import each other KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("cards/views.py", "import decks.stats.selectors", "The catalog sits below the decks BROKEN"),
        (
            "cards/services.py",
            "from decks.revalidation.services import decks_revalidate_enqueue",
            "The catalog sits below the decks BROKEN",
        ),
        ("decks/services.py", "import decks.sharing.services", "The deck features sit on the deck core BROKEN"),
        ("decks/drafts.py", "import decks.services", "The deck features sit on the deck core BROKEN"),
        ("decks/models.py", "import decks.selectors", "The deck features sit on the deck core BROKEN"),
        ("decks/library/views.py", "import decks.sharing.views", "Views and APIs do not import each other BROKEN"),
        ("decks/api/apis.py", "import decks.editor.views", "Views and APIs do not import each other BROKEN"),
        ("decks/rules/engine.py", "import django.db", "The engine is pure BROKEN"),
        ("decks/rules/engine.py", "import decks.models", "The engine is pure BROKEN"),
        ("decks/rules/types.py", "import cards.models", "The engine is pure BROKEN"),
    ],
)
def test_it_fails_on_a_forbidden_import(copy, module, line, contract):
    path = copy / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")

    result = lint_imports(copy)

    assert result.returncode != 0
    assert contract in result.stdout


def test_it_allows_the_catalog_to_use_the_engine(copy):
    path = copy / "cards" / "views.py"
    path.write_text(path.read_text(encoding="utf-8") + "\nimport decks.rules.engine  # noqa\n", encoding="utf-8")

    assert lint_imports(copy).returncode == 0
