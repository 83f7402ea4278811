"""`manage.py check --deploy` with production settings: only the opt-in HSTS and SSL-redirect warnings remain.

A plain-http deployment (TLS, if any, ends at a proxy in front) leaves SECURE_HSTS_SECONDS and
SECURE_SSL_REDIRECT off, which Django reports as security.W004 and security.W008: both are
choices documented in docs/deploy.md. Any other warning or error id is a defect. The test is
about ids, not the number of lines, so settings other parts add (CSP, sign-in lockouts) only
break it if they bring a warning of their own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OPT_IN = {"security.W004", "security.W008"}  # HSTS, SSL redirect
# Settings a developer's environment might carry into the check; the test gives its own.
DROPPED = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|DATABASE_URL|REDIS_URL|CACHE_URL|SECURE_\w+|\w+_COOKIE_SECURE)$"
)


def check_deploy(**overrides: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if not DROPPED.match(name)}
    env.update(
        DJANGO_SETTINGS_MODULE="gatesite.settings",
        DEBUG="0",
        SECRET_KEY="k3Y-" + "a1B2c3D4e5F6g7H8i9J0" * 3,  # 64 characters, varied: a real key's shape
        ALLOWED_HOSTS="gatesite.example",
    )
    env.update(overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def issue_ids(process: subprocess.CompletedProcess[str]) -> set[str]:
    return set(re.findall(r"\(([\w.]+\.[CEW]\d{3})\)", process.stdout + process.stderr))


@pytest.mark.slow
def test_it_reports_only_the_opt_in_hsts_and_ssl_redirect_warnings():
    process = check_deploy()

    assert process.returncode == 0, process.stderr
    assert issue_ids(process) == OPT_IN, process.stderr


@pytest.mark.slow
def test_it_flags_a_weak_secret_key():
    # The check does look at the key: the test above would otherwise prove nothing about it.
    process = check_deploy(SECRET_KEY="x" * 60)

    assert "security.W009" in issue_ids(process)
