"""The shared fixtures of tests/conftest.py: the rules are loaded once, and no test's edits reach the next.

The tests here run in file order (pytest-django runs the transactional ones after all others, in
their own file order): each edit is followed by a test that it must not have reached.
"""

from __future__ import annotations

import pytest

from cards.models import GeasRevision, Ruler, RulerRevision
from cards.rules_loading import rules_file_read

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int]:
    return Ruler.objects.count(), RulerRevision.objects.count(), GeasRevision.objects.count()


def _file_counts() -> tuple[int, int, int]:
    documents = rules_file_read()["documents"]
    rulers = {ruler["name"] for doc in documents for ruler in doc.get("rulers", [])}
    revisions = sum(len(doc.get("rulers", [])) for doc in documents)
    geas_revisions = sum(len(doc.get("geases", [])) for doc in documents)
    return len(rulers), revisions, geas_revisions


def test_the_rules_are_there_without_asking(db):
    """Loaded with the test database, once for the session, not by each test that asks for them."""
    assert _counts() == _file_counts()


def test_an_edit_to_the_rules(rules):
    revision = RulerRevision.objects.filter(ruler__slug="apprentice").first()
    assert revision is not None
    RulerRevision.objects.filter(pk=revision.pk).update(data={**revision.data, "life": 99})
    Ruler.objects.filter(slug="knight").delete()


def test_the_edit_rolled_back(rules):
    assert _counts() == _file_counts()
    assert not [r for r in RulerRevision.objects.values_list("data", flat=True) if r["life"] == 99]


def test_a_test_may_do_without_them(no_rules):
    assert _counts() == (0, 0, 0)


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_has_them_too_and_commits_an_edit(rules):
    assert _counts() == _file_counts()
    Ruler.objects.filter(slug="knight").delete()
    assert Ruler.objects.filter(slug="knight").count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_flush_after_it_did_not_take_them_away():
    assert _counts() == _file_counts()
    assert Ruler.objects.filter(slug="knight").exists()


def test_the_hypothesis_profile_follows_the_environment():
    import os

    from hypothesis import settings

    profile = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    assert settings().max_examples == {"dev": 50, "ci": 200}[profile]
