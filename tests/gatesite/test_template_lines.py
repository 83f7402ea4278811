"""No template line over 200 characters: a template is read and reviewed like code.

Every file under templates/ is read and none is skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
MAX_LINE = 200


def _templates() -> list[Path]:
    return sorted(path for path in TEMPLATES.rglob("*") if path.is_file())


def _long_lines(path: Path) -> list[tuple[int, int]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > MAX_LINE]


def test_every_file_under_templates_is_read():
    files = _templates()

    assert len(files) > 40
    assert TEMPLATES / "home.html" in files
    assert TEMPLATES / "decks" / "editor" / "editor.html" in files


@pytest.mark.parametrize("path", _templates(), ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_no_template_line_is_over_200_characters(path):
    long_lines = _long_lines(path)

    assert not long_lines, (
        f"{path.relative_to(TEMPLATES)}: lines (number, length) over {MAX_LINE} characters: {long_lines}"
    )
