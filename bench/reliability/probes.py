"""The HTTP probes of issue 14: who may see and change a deck, CSRF, racing saves, the abuse cases.

Each probe returns a Case: how many requests (or inputs) it tried and how many got an answer
they should not have. Every loop is bounded; nothing waits on the server without a timeout.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import requests

from .stack import PASSWORD, Stack, deck_body, deck_create, login

TIMEOUT = 15


@dataclass
class Case:
    name: str
    tried: int = 0
    failures: int = 0
    recover_s: float | None = None
    note: str = ""
    depends_on: str = ""  # the issue-14 items (other helpers' fixes) this row waits for
    examples: list[str] | None = None

    def fail(self, what: str) -> None:
        self.failures += 1
        if self.examples is None:
            self.examples = []
        if len(self.examples) < 5:
            self.examples.append(what)


def _is_refusal(response: requests.Response) -> bool:
    """Not served: 4xx, or a redirect to sign in (never a 2xx, never a redirect to what was asked)."""
    if response.status_code in (301, 302, 303):
        return "/accounts/login/" in response.headers.get("Location", "")
    return 400 <= response.status_code < 500


# --- permission matrix -------------------------------------------------------------------------

READS = (
    "/d/{id}/",
    "/d/{id}/v/1/",
    "/d/{id}/export.txt",
    "/d/{id}/export.json",
    "/d/{id}/sheet/",
    "/decks/{id}/edit/",
    "/decks/{id}/cards/",
)
WRITES = (
    "/decks/{id}/change/",
    "/decks/{id}/delete/",
    "/d/{id}/visibility/",
    "/d/{id}/copy/",
    "/d/{id}/tags/",
    "/d/{id}/archive/",
    "/decks/{id}/import/",
    "/decks/{id}/share/",
)
API = "/api/v1/decks/{id}/"


def permission_matrix(stack: Stack) -> Case:
    """A private deck: nobody but its owner reads or changes it, by page, form or API."""
    case = Case("permission matrix")
    base, deck = stack.base, stack.deck_id
    owner, other = login(base, "rel-owner"), login(base, "rel-other")
    anonymous = requests.Session()
    anonymous.get(f"{base}/accounts/login/", timeout=TIMEOUT)  # a CSRF cookie: refused for who it is, not for CSRF
    actors: dict[str, requests.Session] = {"anonymous": anonymous, "other user": other}
    for who, session in actors.items():
        for path in (*READS, *WRITES):
            url = base + path.format(id=deck)
            if path in WRITES:
                token = session.cookies.get("csrftoken", "")
                response = session.post(
                    url,
                    data={"csrfmiddlewaretoken": token, "visibility": "public", "tag": "x"},
                    headers={"X-CSRFToken": token},
                    timeout=TIMEOUT,
                    allow_redirects=False,
                )
            else:
                response = session.get(url, timeout=TIMEOUT, allow_redirects=False)
            case.tried += 1
            if not _is_refusal(response):
                case.fail(f"{who} {path}: {response.status_code}")
    other_token = {"Authorization": f"Token {stack.tokens['rel-other']}"}
    for method in ("GET", "PUT", "PATCH", "DELETE"):
        for headers in ({}, other_token):
            response = requests.request(
                method, base + API.format(id=deck), json=deck_body("taken"), headers=headers, timeout=TIMEOUT
            )
            case.tried += 1
            if not _is_refusal(response):
                case.fail(f"{method} {API} as {'other' if headers else 'anonymous'}: {response.status_code}")
    for path in READS:  # and the owner does get them (a matrix of refusals alone proves nothing)
        response = owner.get(base + path.format(id=deck), timeout=TIMEOUT)
        case.tried += 1
        if response.status_code != 200:
            case.fail(f"owner {path}: {response.status_code}")
    return case


# --- CSRF -------------------------------------------------------------------------------------


def csrf(stack: Stack) -> Case:
    """The owner's signed-in session, but a forged form: no token, a wrong one, another session's."""
    case = Case("CSRF")
    base, deck = stack.base, stack.deck_id
    owner, other = login(base, "rel-owner"), login(base, "rel-other")
    foreign = other.cookies.get("csrftoken", "")
    variants: dict[str, dict[str, str]] = {
        "no token": {},
        "wrong token": {"csrfmiddlewaretoken": "x" * 64},
        "another session's token": {"csrfmiddlewaretoken": foreign},
        "empty token": {"csrfmiddlewaretoken": ""},
    }
    for path in (*WRITES, "/decks/new/change/", "/decks/new/save/", "/accounts/logout/"):
        for label, data in variants.items():
            response = owner.post(
                base + path.format(id=deck),
                data={**data, "visibility": "public"},
                timeout=TIMEOUT,
                allow_redirects=False,
            )
            case.tried += 1
            if response.status_code != 403:
                case.fail(f"{label} {path}: {response.status_code}")
    for method in ("PUT", "PATCH", "DELETE", "POST"):  # the API with the session cookie, no CSRF header
        path = "/api/v1/decks/" if method == "POST" else API.format(id=deck)
        response = owner.request(method, base + path, json=deck_body("forged"), timeout=TIMEOUT)
        case.tried += 1
        if response.status_code != 403:
            case.fail(f"API {method} with a session and no token: {response.status_code}")
    return case


# --- racing saves -------------------------------------------------------------------------------


def racing_saves(stack: Stack, *, clients: int = 16, rounds: int = 10) -> Case:
    """16 clients save one deck at once, each from the version it read: every save is 200 or 409, none lost."""
    case = Case("racing saves")
    token = stack.tokens["rel-owner"]
    headers = {"Authorization": f"Token {token}"}
    deck = deck_create(stack.base, token, name="Race")
    url = f"{stack.base}/api/v1/decks/{deck}/"
    start = requests.get(url, headers=headers, timeout=TIMEOUT).json()["version"]
    lock, saved = threading.Lock(), []

    def client(n: int) -> None:
        with requests.Session() as session:
            for i in range(rounds):
                version = session.get(url, headers=headers, timeout=TIMEOUT).json()["version"]
                response = session.put(
                    url, json=deck_body(f"race {n}-{i}", version=version), headers=headers, timeout=TIMEOUT
                )
                with lock:
                    case.tried += 1
                    if response.status_code == 200:
                        saved.append(response.json()["version"])
                    elif response.status_code != 409:
                        case.fail(f"PUT: {response.status_code} {response.text[:120]}")

    _run_threads(client, clients)
    final = requests.get(url, headers=headers, timeout=TIMEOUT).json()["version"]
    if sorted(saved) != list(range(start + 1, final + 1)):  # each success made exactly one new version
        case.fail(f"{len(saved)} saves answered 200 but the version went {start} -> {final}")
    case.note = f"{len(saved)} saved, {case.tried - len(saved) - case.failures} refused as stale (409)"
    return case


def _run_threads(target: Callable[[int], None], count: int) -> None:
    threads = [threading.Thread(target=target, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)


# --- abuse cases ---------------------------------------------------------------------------------


def _nested(depth: int) -> str:
    return '{"ruler":"apprentice","main":' + "[" * depth + "]" * depth + "}"


def nested_json(stack: Stack) -> Case:
    case = Case("nested JSON", depends_on="item 1")
    for path in ("/api/v1/decks/validate/", "/api/v1/auth/token/"):
        for depth in (1000, 100_000):
            response = requests.post(
                stack.base + path, data=_nested(depth), headers={"Content-Type": "application/json"}, timeout=TIMEOUT
            )
            case.tried += 1
            if response.status_code != 400:
                case.fail(f"{path} depth {depth}: {response.status_code}")
    return case


def absurd_counts(stack: Stack) -> Case:
    case = Case("absurd counts", depends_on="item 4")
    bodies = {
        "count 10^30": {"ruler": "apprentice", "main": [{"number": "2020PS00-001", "count": 10**30}]},
        "count 10^6": {"ruler": "apprentice", "main": [{"number": "2020PS00-001", "count": 10**6}]},
        "5000 lines": {"ruler": "apprentice", "main": [{"name": f"Card {n}", "count": 1} for n in range(5000)]},
    }
    for label, body in bodies.items():
        response = requests.post(f"{stack.base}/api/v1/decks/validate/", json=body, timeout=TIMEOUT)
        case.tried += 1
        if response.status_code != 400:
            case.fail(f"{label}: {response.status_code}")
    return case


def oversized_body(stack: Stack) -> Case:
    case = Case("oversized body", depends_on="item 5")
    body = '{"ruler":"apprentice","main":[],"pad":"' + "x" * (4 * 1024 * 1024) + '"}'
    response = requests.post(
        f"{stack.base}/api/v1/decks/validate/", data=body, headers={"Content-Type": "application/json"}, timeout=TIMEOUT
    )
    case.tried = 1
    if response.status_code != 413 or "json" not in response.headers.get("Content-Type", ""):
        case.fail(f"{response.status_code} {response.headers.get('Content-Type')}")
    return case


def forged_forwarded_for(stack: Stack, *, requests_sent: int = 40) -> Case:
    """Wrong passwords at the token endpoint, each with another X-Forwarded-For: the limit must still bite.

    40 is over the documented 10/minute even if each of 3 gunicorn workers counted on its own.
    """
    case = Case("forged X-Forwarded-For", depends_on="items 3, 11")
    throttled = 0
    for n in range(requests_sent):
        response = requests.post(
            f"{stack.base}/api/v1/auth/token/",
            json={"username": "rel-other", "password": "wrong"},
            headers={"X-Forwarded-For": f"203.0.113.{n % 250}"},
            timeout=TIMEOUT,
        )
        case.tried += 1
        throttled += response.status_code == 429
    if not throttled:
        case.fail("no 429: every forged address got a fresh limit")
    case.note = f"{throttled} of {requests_sent} throttled"
    return case


def wrong_passwords(stack: Stack, *, attempts: int = 30) -> Case:
    """30 wrong passwords, then the right one: it must not sign in (a lockout), at both sign-in forms."""
    case = Case("repeated wrong passwords", depends_on="item 2")
    for form, user in (("/accounts/login/", "rel-other"), ("/admin/login/", "rel-staff")):
        session = requests.Session()
        session.get(stack.base + form, timeout=TIMEOUT)
        for password in [*(f"wrong-{n}" for n in range(attempts)), PASSWORD]:
            token = session.cookies.get("csrftoken", "")
            response = session.post(
                stack.base + form,
                data={"username": user, "password": password, "csrfmiddlewaretoken": token},
                timeout=TIMEOUT,
                allow_redirects=False,
            )
            case.tried += 1
        if response.status_code == 302 and "sessionid" in session.cookies:
            case.fail(f"{form}: the right password still signed in after {attempts} wrong ones")
    return case
