"""My decks and its trash under /decks/ (namespace `decks`); tags, archive, browse and compare at the site root
(namespace `deckpages`, see decks.urls)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("trash/", views.trash, name="trash"),
    path("trash/<str:public_id>/restore/", views.trash_restore, name="trash-restore"),
    path("trash/<str:public_id>/delete/", views.trash_delete_forever, name="trash-delete"),
]

page_urlpatterns = [
    path("d/<str:public_id>/tags/", views.deck_tag, name="tag"),
    path("d/<str:public_id>/archive/", views.deck_archive, name="archive"),
    path("decks/browse/", views.browse, name="browse"),
    path("decks/compare/", views.compare, name="compare"),
]
