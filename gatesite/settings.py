"""Gatesite settings: one module, every production difference driven by the environment.

Embedded default: with no DATABASE_URL the app uses a SQLite file, with no REDIS_URL
Celery runs tasks eagerly in-process, so `make run` and `make test` need no servers.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# https://docs.djangoproject.com/en/5.2/ref/settings/#debug
# Off unless asked for: a forgotten variable must never expose tracebacks in production.
DEBUG = env.bool("DEBUG", default=False)

# https://docs.djangoproject.com/en/5.2/ref/settings/#secret-key
# A fixed key is only acceptable for local development; production must set SECRET_KEY.
_DEV_SECRET_KEY = "django-insecure-gatesite-local-development-only"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

# https://docs.djangoproject.com/en/5.2/ref/settings/#allowed-hosts
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    # API tokens, stored hashed (gatesite/accounts/models.py); replaces rest_framework.authtoken.
    "gatesite.accounts",
    # Celery tasks kept while the broker is down, and the workers' heartbeats (gatesite/outbox/).
    "gatesite.outbox",
    "axes",
    "csp",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "cards",
    "decks",
    "decks.stats",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common (Django's order): the language from the cookie or Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # After the language (its refusal is worded in it), before anything that reads the session or
    # the player: a path or query with a control character is a 404 or a 400, with no query made.
    "gatesite.control_characters.ControlCharacterMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Writes the language cookie when a sign-in applied the player's stored language.
    "gatesite.accounts.language.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "gatesite.urls"
WSGI_APPLICATION = "gatesite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# https://django-environ.readthedocs.io/en/latest/types.html#environ-env-db-url
# postgres://… selects PostgreSQL through psycopg 3; absent, a SQLite file next to manage.py.
# An empty DATABASE_URL (`DATABASE_URL= make run`) is no URL, as an empty REDIS_URL is: the embedded SQLite.
DATABASES = {
    "default": env.db_url_config(env.str("DATABASE_URL", default="") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent readers while a writer works (runserver threads, eager tasks).
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# --- Sign-in lockout (django-axes, https://django-axes.readthedocs.io/en/latest/4_configuration.html) ---
# Failed sign-ins at /accounts/login/, /admin/login/ and POST /api/v1/auth/token/ are counted in
# the database per username and, separately, per client address (the same one the API throttles
# use: gatesite.throttling.client_ip). Past AXES_FAILURE_LIMIT the sign-in is refused, with a
# message (gatesite/accounts/lockout.py), for AXES_COOLOFF_MINUTES; a successful sign-in resets
# the count. Unlock: `manage.py axes_reset` (all), `axes_reset_username <name>`, `axes_reset_ip
# <address>`, or delete the rows in the admin (Axes › Access attempts).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, reading the signed-in player in one plain SQL statement (gatesite/accounts/backends.py).
    "gatesite.accounts.backends.PlayerBackend",
    # Only for the sessions signed in before PlayerBackend (a session names its backend, and one no
    # longer listed is signed out): it reads their player. Signing in never reaches it (PlayerBackend
    # refuses a wrong password for good: gatesite/accounts/backends.py).
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "gatesite.throttling.client_ip"
AXES_LOCKOUT_CALLABLE = "gatesite.accounts.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# --- end of the sign-in lockout ---

# https://docs.djangoproject.com/en/5.2/ref/settings/#login-url
LOGIN_URL = "/accounts/login/"
# https://docs.djangoproject.com/en/5.2/ref/settings/#login-redirect-url
LOGIN_REDIRECT_URL = "/decks/"
# https://docs.djangoproject.com/en/5.2/ref/settings/#logout-redirect-url
LOGOUT_REDIRECT_URL = "/"

# https://docs.djangoproject.com/en/5.2/topics/i18n/translation/
# English and Japanese: LocaleMiddleware picks one from the language cookie (set by /i18n/setlang/)
# or Accept-Language; URLs carry no language prefix, so a shared link works in either language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A year: the player chose it, and it is the same choice on their next visit.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# https://whitenoise.readthedocs.io/en/stable/django.html
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Production-safe defaults when DEBUG is off (https://docs.djangoproject.com/en/5.2/howto/deployment/checklist/).
if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# --- Content-Security-Policy (django-csp, https://django-csp.readthedocs.io/en/latest/configuration.html) ---
# Scripts only from this server's files: no inline <script>, no on…= handlers, no eval (htmx runs with
# allowEval off: templates/base.html). Inline styles stay allowed: the bar charts' sizes are per-row
# data in style="…" attributes, and a style cannot run code. frame-ancestors repeats X-Frame-Options.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# --- end of the Content-Security-Policy ---

# --- API tokens and trusted proxies ---
# A token from POST /api/v1/auth/token/ (or `manage.py drf_create_token <username>`) works this many
# days; it is stored as a SHA-256 digest (gatesite/accounts/models.py) and its owner can revoke it.
API_TOKEN_TTL_DAYS = env.int("API_TOKEN_TTL_DAYS", default=30)
# https://www.django-rest-framework.org/api-guide/throttling/#how-clients-are-identified
# How many reverse proxies in front of the app append to X-Forwarded-For. 0 (the default): the header
# is ignored and the client is REMOTE_ADDR; a forged header must not give a new address (and so a
# fresh throttle count or lockout count) per request. gatesite.throttling.client_ip reads it.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
# --- end of API tokens and trusted proxies ---

# https://www.django-rest-framework.org/api-guide/settings/
# Session authentication for the browser (CSRF enforced on writes), token authentication for
# scripts (`Authorization: Token <key>`; a key from POST /api/v1/auth/token/ or
# `manage.py drf_create_token <username>`; stored hashed, gatesite/accounts/). Token first: an
# anonymous write then gets 401 with a `WWW-Authenticate: Token` header rather than a bare 403.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "gatesite.accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # DRF's parsers with a 400 for JSON nested too deep and a 413 for a body too large (gatesite/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "gatesite.parsers.JSONParser",
        "gatesite.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "gatesite.errors.api_exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
    # https://www.django-rest-framework.org/api-guide/throttling/
    # Per client IP (anonymous) or per user, counted in the default cache. The rates are read on
    # every request (gatesite/throttling.py), so settings overrides apply; "off" disables one.
    "DEFAULT_THROTTLE_CLASSES": [
        "gatesite.throttling.AnonThrottle",
        "gatesite.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="120/minute"),
        "user": env.str("API_THROTTLE_USER", default="600/minute"),
        # POST /api/v1/auth/token/: password guesses, per client IP.
        "token": env.str("API_THROTTLE_TOKEN", default="10/minute"),
    },
}
# https://django-environ.readthedocs.io/en/latest/types.html#environ-env-cache-url
# The API throttles count requests here. With REDIS_URL set the default is that Redis, shared by
# every gunicorn worker and machine (a per-process cache lets N workers allow N times the rates);
# without it, per-process memory (development). CACHE_URL overrides both.
CACHES = {"default": env.cache("CACHE_URL", default=env.str("REDIS_URL", default="") or "locmemcache://")}
# The cache may share its Redis database with Celery's queue: its keys carry a prefix of their own.
CACHES["default"].setdefault("KEY_PREFIX", "gatesite")
# Django's Redis cache with a client kept per connection pool (gatesite/cache.py).
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "gatesite.cache.RedisCache"
    # A Redis that stops answering costs a request at most this long per call; after a failure the
    # cache counts as down (reads miss, writes are skipped) for a second (gatesite/cache.py).
    _REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.5)
    CACHES["default"].setdefault("OPTIONS", {})
    CACHES["default"]["OPTIONS"].setdefault("socket_connect_timeout", _REDIS_SOCKET_TIMEOUT)
    CACHES["default"]["OPTIONS"].setdefault("socket_timeout", _REDIS_SOCKET_TIMEOUT)
# Sessions: with a cache every process shares (Redis, CACHE_URL) they are read from it and written
# through to the database (cached_db): an editor click reads its session from the cache, not with a
# query, and a session outlives a flushed cache. With the per-process memory (the embedded default)
# each gunicorn worker would keep a copy of its own, so a logout or a draft changed in one worker
# would go unseen by the next: the database alone then (Django's default).
_PER_PROCESS_CACHES = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")
# Django's stores, each reading its session row in one plain SQL statement (gatesite/sessions/).
SESSION_ENGINE = (
    "gatesite.sessions.db" if CACHES["default"]["BACKEND"] in _PER_PROCESS_CACHES else "gatesite.sessions.cached_db"
)
# GET /api/v1/decks/ (public decks): how long the total of a listing stays cached, in seconds
# (counting tens of thousands of public decks costs more than the page itself); 0 counts every time.
DECK_LIST_COUNT_CACHE_SECONDS = env.int("DECK_LIST_COUNT_CACHE_SECONDS", default=60)
SPECTACULAR_SETTINGS = {
    "TITLE": "Gatesite API",
    "DESCRIPTION": "Gate Ruler card catalog, rulers, geases, deck validation and saved decks.",
    "VERSION": "1",
    # A PATCH body's schema is its serializer's (PATCH /api/v1/decks/<id>/ requires `version`),
    # not a copy with every field made optional.
    "COMPONENT_SPLIT_PATCH": False,
    # Swagger UI from this server's static files, not a CDN: the docs work offline and behind strict CSP.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every status an operation can answer is in the schema: the errors any DRF view can give are
    # added once (gatesite/schema.py), after drf-spectacular's own enum hook.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "gatesite.schema.document_errors"],
}

# https://docs.celeryq.dev/en/stable/userguide/configuration.html
# Without REDIS_URL, tasks run eagerly in-process: the same code path, no broker needed.
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
# Results (the command-line tools and tests wait on them) live in Redis, not the database: no django_celery_results.
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Every 30 s: retry or fail import jobs whose worker stopped (cards.import_jobs.import_jobs_reap); with
# ImportJob.LEASE (60 s) a killed worker's import is picked up again within 90 s.
# Every 10 minutes: recompute the statistics if a public deck changed since (decks.stats.services).
# 03:30 daily (crontab.guru/#30_3_*_*_*): recompute them anyway (a safety net for changes made outside the services).
# 00:05 daily (crontab.guru/#5_0_*_*_*): re-judge decks whose rules gain a revision today.
# 04:15 daily (crontab.guru/#15_4_*_*_*): delete for good the decks in a trash for more than 30 days.
# Every 15 s: send the tasks kept while the broker was down, and record the worker's heartbeat (gatesite.outbox).
CELERY_BEAT_SCHEDULE = {
    "gatesite-outbox-send": {"task": "gatesite.outbox_send", "schedule": 15.0},
    "cards-import-jobs-reap": {"task": "cards.import_jobs_reap", "schedule": 30.0},
    # Task names keep their "decks." prefix (decks.stats.tasks): beat's database rows name them so.
    "decks-statistics-refresh": {"task": "decks.statistics_refresh_if_stale", "schedule": 600.0},
    "decks-statistics-nightly": {"task": "decks.statistics_recompute", "schedule": crontab(minute=30, hour=3)},
    "decks-revalidate-revisions-taking-effect": {
        "task": "decks.revalidate_revisions_taking_effect",
        "schedule": crontab(minute=5, hour=0),
    },
    "decks-trash-purge": {"task": "decks.trash_purge", "schedule": crontab(minute=15, hour=4)},
}
# Largest set file the admin's "Import card set" accepts, in bytes (files are stored in the database).
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=20 * 1024 * 1024)
# Each process keeps the card catalog in memory and learns of changes by PostgreSQL LISTEN/NOTIFY
# (cards/catalog.py). Behind a pooler that hands a session's connection to others between
# transactions (pgbouncer in transaction mode) notifications go astray: set this off, and every
# request asks the catalog's version with one small query instead.
CATALOG_LISTEN = env.bool("CATALOG_LISTEN", default=True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    # Django's own default handlers on "django" would print each 403/404 warning a second time.
    "loggers": {"django": {"handlers": [], "level": env.str("LOG_LEVEL", default="WARNING"), "propagate": True}},
}
