"""Words the engine says, kept translatable without Django (pure).

The engine words every message in English, but it also keeps the wording's template and its
values, so a caller that knows the player's language (the Django side) can word it again:
`gettext(w.template) % w.values`. Templates use named placeholders (`%(size)s`) because a
translation may put the values in another order. `gettext_noop` is only a marker: Django's
`makemessages` (xgettext) finds the strings it wraps and lists them for translators.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


def gettext_noop(template: str) -> str:
    """Mark a string for translation without translating it (the engine has no language)."""
    return template


@dataclass(frozen=True, slots=True)
class Wording:
    """A message template (marked with gettext_noop) and the values it is filled with."""

    template: str
    values: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __str__(self) -> str:
        return self.template % dict(self.values) if self.values else self.template
