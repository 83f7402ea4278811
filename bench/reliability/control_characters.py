"""Issue 24's sweep: NUL and other control characters in every URL pattern of the deployed site.

The URL patterns come from the site's own resolver (gatesite.urlmap, read through `manage.py
shell`), so the admin's and django.contrib.auth's are swept too, and any URL added later. Against
gunicorn and PostgreSQL, which refuses NUL in a text value (the 500s the issue found):

- paths: each probe in each captured parameter (the other parameters real: the owner's private
  deck, a practice card), GET and POST, anonymously, as the deck's owner and as staff (the admin's
  pages as staff only): anything but a 404 is a failure;
- queries: NUL in each parameter a page reads (gatesite.urlmap.PARAMETERS; the admin's own for
  its pages), one at a time, anonymously and as the owner: anything but a 400 is a failure; and
  every probe in every field of a form posted as the owner: a 5xx is a failure.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import requests

from .probes import TIMEOUT, Case
from .stack import Stack, login

# NUL (PostgreSQL's refusal), another C0 control, DEL and a C1 control.
PROBES = ("x\x00y", "x\x01y", "x\x7fy", "x\x85y")

_URLMAP = """
import json
from gatesite import urlmap
print(json.dumps({"templates": urlmap.url_templates(), "parameters": urlmap.PARAMETERS,
                  "admin_parameters": urlmap.ADMIN_PARAMETERS}))
"""


def _url(template: str, values: dict[str, str], probe_in: str | None = None, probe: str = "") -> str:
    # gatesite.urlmap.url_fill, without Django in this process.
    names = [part.split("}")[0] for part in template.split("{")[1:]]
    return template.format(**{n: quote(probe, safe="") if n == probe_in else values.get(n, "x") for n in names})


def _send(session: requests.Session, method: str, url: str, data: dict[str, str] | None = None) -> int:
    token = session.cookies.get("csrftoken", "")
    if method == "GET":
        response = session.get(url, timeout=TIMEOUT, allow_redirects=False)
    else:
        payload = {**(data or {}), "csrfmiddlewaretoken": token}
        response = session.post(
            url, data=payload, headers={"X-CSRFToken": token}, timeout=TIMEOUT, allow_redirects=False
        )
    return response.status_code


def control_characters(stack: Stack) -> list[Case]:
    urlmap = json.loads(stack.shell(_URLMAP).strip().splitlines()[-1])
    base = stack.base
    anonymous = requests.Session()
    anonymous.get(f"{base}/accounts/login/", timeout=TIMEOUT)  # a CSRF cookie, as a browser has
    actors = {"anonymous": anonymous, "owner": login(base, "rel-owner"), "staff": login(base, "rel-staff")}
    values = {"public_id": stack.deck_id, "version": "1", "number": "2020PS00-001", "slug": "apprentice"}
    templates: list[str] = urlmap["templates"]

    def who_for(template: str) -> dict[str, requests.Session]:
        return {"staff": actors["staff"]} if template.startswith("/admin/") else actors

    paths = Case(f"control characters in paths ({len(templates)} URL patterns)")
    for template in templates:
        for name in [part.split("}")[0] for part in template.split("{")[1:]]:
            for probe in PROBES:
                url = base + _url(template, values, name, probe)
                for who, session in who_for(template).items():
                    for method in ("GET", "POST"):
                        status = _send(session, method, url)
                        paths.tried += 1
                        if status != 404:
                            paths.fail(f"{who} {method} {url[len(base) :]}: {status}")
    paths.note = "4 probes (NUL, U+0001, DEL, U+0085) in each path parameter: every one a 404"

    queries = Case("control characters in queries and forms")
    for template in templates:
        admin = template.startswith("/admin/")
        url = base + _url(template, values)
        parameters = urlmap["admin_parameters"] if admin else urlmap["parameters"]
        for who, session in who_for(template).items():
            if who == "staff" and not admin:
                continue
            for parameter in parameters:
                status = _send(session, "GET", f"{url}?{parameter}=x%00y")
                queries.tried += 1
                if status != 400:
                    queries.fail(f"{who} GET {url[len(base) :]}?{parameter}=x%00y: {status}")
        if admin:
            continue  # the admin's forms are Django's own, which refuse NUL in every field
        for probe in PROBES:
            status = _send(actors["owner"], "POST", url, data=dict.fromkeys(urlmap["parameters"], probe))
            queries.tried += 1
            if status >= 500:
                queries.fail(f"owner POST {url[len(base) :]} with {probe!r} in every field: {status}")
    queries.note = "NUL in each query parameter: every one a 400 naming it; every probe in a posted form: no 5xx"
    return [paths, queries]
