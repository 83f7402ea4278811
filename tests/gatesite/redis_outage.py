"""What a signed-in player, an anonymous script and an admin do while Redis is down; shared by the outage tests.

Each step returns (what, status code); the tests require none of them to be a 500 and each to
give what the same step gives with Redis up.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

PASSWORD = "correct horse battery"
HX = {"HX-Request": "true"}
SET_FILE = json.dumps(
    {
        "set": {"code": "RO01", "name": "Outage set"},
        "cards": [{"number": "RO01-001", "name": "Outage Squire", "type": "unit", "faction": "Volnar", "level": 1}],
    }
).encode()


def cache_settings(location: str) -> dict[str, Any]:
    """CACHES for the Redis at `location`, as production configures it (gatesite.cache, short timeouts)."""
    return {
        "default": {
            "BACKEND": "gatesite.cache.RedisCache",
            "LOCATION": location,
            "KEY_PREFIX": "gatesite-outage-test",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def sign_in(client: Client, username: str) -> int:
    client.get("/accounts/login/")
    return client.post("/accounts/login/", {"username": username, "password": PASSWORD}).status_code


def token_for(username: str) -> str:
    response = Client().post(
        "/api/v1/auth/token/", {"username": username, "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code in (200, 201), response.content
    return str(response.json()["token"])


# What player_steps answers while Redis is down, as with it up: no step fails.
PLAYER_STEPS_ANSWERED = [
    ("deck page", 200),
    ("editor", 200),
    ("autosave", 200),
    ("my decks", 200),
    ("sign-in", 302),
    ("validate (anonymous)", 200),
    ("token PATCH", 200),
]


def player_steps(client: Client, deck: Any, token: str) -> list[tuple[str, int]]:
    """A signed-in player's requests (and an anonymous script's, and the token's): (what, status)."""
    anonymous = Client()
    steps = [
        ("deck page", client.get(f"/d/{deck.public_id}/").status_code),
        ("editor", client.get(f"/decks/{deck.public_id}/edit/").status_code),
    ]
    deck.refresh_from_db()
    autosave = client.post(
        f"/decks/{deck.public_id}/change/",
        {"op": "add main TS-013", "base_version": deck.version, "shown": "", "hinted": ""},
        headers=HX,
    )
    steps.append(("autosave", autosave.status_code))
    steps.append(("my decks", client.get("/decks/").status_code))
    steps.append(("sign-in", sign_in(Client(), deck.owner.username)))
    body = {"ruler": "apprentice", "main": [{"number": "TS-001", "count": 4}]}
    validate = anonymous.post("/api/v1/decks/validate/", json.dumps(body), content_type="application/json")
    steps.append(("validate (anonymous)", validate.status_code))
    deck.refresh_from_db()
    patch = Client().patch(
        f"/api/v1/decks/{deck.public_id}/",
        json.dumps({"version": deck.version, "name": "Renamed while Redis was down"}),
        content_type="application/json",
        headers={"Authorization": f"Token {token}"},
    )
    steps.append(("token PATCH", patch.status_code))
    return steps


def admin_upload(client: Client) -> Any:
    return client.post(
        "/admin/cards/importjob/import/",
        {"file": SimpleUploadedFile("ro01.json", SET_FILE), "mode": "apply", "errata_effective_date": ""},
        follow=True,
    )
