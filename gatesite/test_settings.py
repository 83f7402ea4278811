"""Settings for the test suite: the real settings plus what makes tests fast and deterministic."""

from __future__ import annotations

import os

# Tests run with DEBUG off, like production, so they need a key; never use this one elsewhere.
os.environ.setdefault("SECRET_KEY", "gatesite-test-suite-only")

from .settings import *  # noqa: F403

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
