"""Every deck feature's URLs under /decks/ (namespace `decks`), and the deck pages at the site root.

Each feature keeps its URLs in its own folder. Within a feature, `new/...` (the session's draft)
comes before `<public_id>/...`, which would otherwise take "new" for a deck id.
"""

from __future__ import annotations

from .decklists import urls as decklists
from .editor import urls as editor
from .library import urls as library
from .odds import urls as odds
from .sharing import urls as sharing

app_name = "decks"

urlpatterns = [
    *library.urlpatterns,
    *editor.urlpatterns,
    *decklists.urlpatterns,
    *odds.urlpatterns,
]

# At the site root: the deck page and the small forms that post from it, browse and compare
# (namespace `deckpages`, included by gatesite.urls).
deckpage_urlpatterns = [*sharing.urlpatterns, *library.page_urlpatterns]
