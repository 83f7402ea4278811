from __future__ import annotations

from django.urls import path

from . import views
from .decklists import urls as decklists
from .library import urls as library
from .odds import urls as odds
from .sharing import urls as sharing

# Every deck feature's URLs, each from its own folder. Within a feature, `new/...` (the session's
# draft) comes before `<public_id>/...`, which would otherwise take "new" for a deck id.
app_name = "decks"

urlpatterns = [
    path("new/", views.draft_editor, name="new"),
    path("new/change/", views.draft_change, name="new-change"),
    path("new/cards/", views.draft_cards, name="new-cards"),
    path("new/save/", views.draft_save, name="new-save"),
    path("new/reset/", views.draft_reset, name="new-reset"),
    path("<str:public_id>/edit/", views.deck_editor, name="edit"),
    path("<str:public_id>/change/", views.deck_change, name="change"),
    path("<str:public_id>/cards/", views.deck_cards, name="cards"),
    path("<str:public_id>/delete/", views.deck_remove, name="delete"),
    *library.urlpatterns,
    *decklists.urlpatterns,
    *odds.urlpatterns,
]

# At the site root: the deck page and the small forms that post from it, browse and compare
# (namespace `deckpages`, included by gatesite.urls).
deckpage_urlpatterns = [*sharing.urlpatterns, *library.page_urlpatterns]
