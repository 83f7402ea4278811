"""Settings for the test suite: the real settings plus what makes tests fast and deterministic."""

from __future__ import annotations

import os

# Tests run with DEBUG off, like production, so they need a key; never use this one elsewhere.
os.environ.setdefault("SECRET_KEY", "gatesite-test-suite-only")

# `make test` runs the suite in parallel (pytest-xdist, one worker per core). pytest-django gives each
# worker its own test database; Redis gets one database per worker too (CI's /15, then /14, ...), so
# one worker's Celery queue, cache and throttle counts never reach another's.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    from urllib.parse import urlsplit

    _redis = urlsplit(os.environ["REDIS_URL"])
    _base = int(_redis.path.strip("/") or 0)
    os.environ["REDIS_URL"] = _redis._replace(path=f"/{(_base - int(_worker[2:])) % 16}").geturl()

from .settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests run tasks in-process; the tests that need a real worker over Redis switch this off
# for their duration (see tests/conftest.py: celery_worker_on_redis).
CELERY_TASK_ALWAYS_EAGER = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
SECURE_SSL_REDIRECT = False
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True  # static files straight from the apps, no collectstatic before the tests
# No throttling: the suite (and schemathesis) send many requests from one client. The throttling
# tests set rates with the `settings` fixture (gatesite/throttling.py reads them per request).
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "token": None},
}
# Schemathesis' in-process WSGI requests (tests/gatesite/test_api_schemathesis.py) say Host: localhost.
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "localhost"]  # noqa: F405
# Exact totals in tests (a cached one would outlive the test's data); tests/decks/api turn it on.
DECK_LIST_COUNT_CACHE_SECONDS = 0
# No sign-in lockout: tests log in and fail to log in from one address all day. The lockout's own
# tests (tests/gatesite/test_lockout.py) turn it on with the `settings` fixture.
AXES_ENABLED = False
# Every value the remembered parts' keys take on trust from a field's declared type is checked to be plain
# (decks/templatetags/editor_partials.py): a test that draws the editor fails on a wrongly declared field.
MEMO_KEYS_CHECKED = True
