"""Deck pages: the short share link /d/<public_id>/ and its history, the owner's small forms, browse, compare.

Included at the site root (the share link lives outside /decks/); names are `deckpages:<name>`.
"""

from __future__ import annotations

from django.urls import path

from . import page_views

app_name = "deckpages"

urlpatterns = [
    path("d/<str:public_id>/", page_views.deck_page, name="page"),
    path("d/<str:public_id>/v/<int:version>/", page_views.deck_version_page, name="version"),
    path("d/<str:public_id>/copy/", page_views.deck_copy_view, name="copy"),
    path("d/<str:public_id>/visibility/", page_views.deck_visibility, name="visibility"),
    path("d/<str:public_id>/tags/", page_views.deck_tag, name="tag"),
    path("d/<str:public_id>/archive/", page_views.deck_archive, name="archive"),
    path("decks/browse/", page_views.browse, name="browse"),
    path("decks/compare/", page_views.compare, name="compare"),
]
