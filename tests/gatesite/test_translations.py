"""The Japanese catalog (locale/ja/LC_MESSAGES/django.po) is complete, and its .mo is the compiled .po.

A string added to a template or marked in Python without a Japanese translation fails here:
makemessages runs on a copy of the project and every msgstr must be filled and not fuzzy.
Needs GNU gettext (xgettext, msgmerge, msgfmt), as `make messages` does (README, "Languages").
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# What makemessages must not walk into: no project strings there (tests, benchmarks, the venv).
IGNORED = (".venv", ".git", "bench", "tests", "staticfiles", "node_modules", "*.egg-info")


@dataclass
class Entry:
    line: int
    msgid: str = ""
    msgctxt: str | None = None
    msgstrs: list[str] = field(default_factory=list)
    fuzzy: bool = False


def po_entries(text: str) -> list[Entry]:
    """The entries of a .po file (obsolete `#~` ones left out), header first."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            current = Entry(number, fuzzy="fuzzy" in line)
            entries.append(current)
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        # An entry starts at its flags, or else at its msgctxt or msgid.
        if keyword in ("msgctxt", "msgid") and (current is None or current.msgid or current.msgstrs):
            current = Entry(number)
            entries.append(current)
        assert current is not None, f"{number}: {raw}"
        if line.startswith('"'):
            value = _unquote(line)
        else:
            target, value = keyword, _unquote(rest)
            if target.startswith("msgstr"):
                current.msgstrs.append("")
        if target == "msgid":
            current.msgid += value
        elif target == "msgctxt":
            current.msgctxt = (current.msgctxt or "") + value
        elif target is not None and target.startswith("msgstr"):
            current.msgstrs[-1] += value
    return entries


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(literal: str) -> str:
    """A .po string literal's text: the quotes dropped, \\n, \\t, \\" and \\\\ unescaped."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), literal[1:-1])


def untranslated(path: Path) -> list[str]:
    """Every entry of a .po file whose translation is empty or fuzzy, as "line: msgid"."""
    problems = []
    for entry in po_entries(path.read_text(encoding="utf-8")):
        if entry.msgid == "":
            if entry.fuzzy:
                problems.append(f"{entry.line}: the header is fuzzy")
            continue
        if entry.fuzzy or not entry.msgstrs or not all(entry.msgstrs):
            problems.append(f"{path.name}:{entry.line}: {entry.msgid!r}" + (" (fuzzy)" if entry.fuzzy else ""))
    return problems


def test_every_string_of_the_committed_catalog_is_translated() -> None:
    entries = po_entries(PO.read_text(encoding="utf-8"))
    assert len(entries) > 400
    assert untranslated(PO) == []


def test_the_check_finds_an_empty_and_a_fuzzy_translation(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: ja\\n"\n\n'
        'msgid "Deck"\nmsgstr "デッキ"\n\n'
        'msgid "New string"\nmsgstr ""\n\n'
        '#, fuzzy, python-format\nmsgid "%(n)s card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "%(n)s 枚"\n',
        encoding="utf-8",
    )
    assert untranslated(po) == ["django.po:8: 'New string'", "django.po:11: '%(n)s card' (fuzzy)"]


def test_makemessages_finds_no_string_without_a_translation(tmp_path: Path) -> None:
    """Extract every string again, as a translator would, into a copy: nothing new, nothing untranslated."""
    copy = tmp_path / "gatesite"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*IGNORED, "db.sqlite3*", "__pycache__"))
    env = {**os.environ, "DEBUG": "1"}
    command = [sys.executable, "manage.py", "makemessages", "-l", "ja", "--no-location", "--no-obsolete"]
    command += [f"--ignore={pattern}" for pattern in IGNORED]
    subprocess.run(command, cwd=copy, env=env, check=True, capture_output=True)
    extracted = copy / "locale" / "ja" / "LC_MESSAGES" / "django.po"
    assert untranslated(extracted) == []
    # Every extracted string is in the committed catalog, and the other way round.
    assert _ids(extracted) == _ids(PO)


def _ids(path: Path) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in po_entries(path.read_text(encoding="utf-8")) if e.msgid}


def test_the_committed_mo_is_the_compiled_po(tmp_path: Path) -> None:
    """The site reads the committed .mo (no msgfmt needed to run it): it must say what the .po says."""
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(PO)], check=True)
    with MO.open("rb") as committed, compiled.open("rb") as fresh:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog, (
            "locale/ja/LC_MESSAGES/django.mo is stale: run `make messages`"
        )


@pytest.mark.parametrize("tool", ["xgettext", "msgmerge", "msgfmt"])
def test_the_gettext_tools_are_installed(tool: str) -> None:
    assert shutil.which(tool), f"{tool} is missing: apt-get install -y gettext (README, set-up)"
