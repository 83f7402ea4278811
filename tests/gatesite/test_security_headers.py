"""The Content-Security-Policy (django-csp) and the security headers next to it; templates that obey it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.mark.parametrize("url", ["/", "/decks/new/", "/accounts/login/", "/api/v1/docs/", "/admin/login/"])
def test_every_page_has_a_policy_without_inline_scripts_or_eval(client, rules, url):
    response = client.get(url)

    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]


def test_it_keeps_the_other_security_headers(client):
    response = client.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_needs_inline_script_or_eval(template):
    html = template.read_text()

    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline <script>: move it to static/"
    assert not re.search(r"\son[a-z]+\s*=", html), "an inline event handler (onclick=…): use static/ JS"
    assert not re.search(r"(hx|data-hx)-(vals|vars|on)\b|[\"']js:|javascript:", html), "htmx eval (js:, hx-on)"


def test_every_page_runs_htmx_without_eval_or_injected_styles(client, rules):
    for url in ("/", "/decks/new/"):
        html = client.get(url).content.decode()

        meta = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'>', html)
        assert meta, url
        assert '"allowEval": false' in meta.group(1)
        assert '"includeIndicatorStyles": false' in meta.group(1)


def test_the_api_docs_load_their_start_up_script_from_a_file(client):
    html = client.get("/api/v1/docs/").content.decode()

    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts
    assert all("src=" in attributes for attributes in scripts)
    script = client.get("/api/v1/docs/?script=")
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()
