"""gatesite/views.py: the pages of the project itself (favicon)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_sites_icon_not_a_404(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"].endswith("/favicon.svg")
    assert finders.find("favicon.svg") is not None


@pytest.mark.django_db
def test_every_page_names_the_icon(client):
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").content.decode()
