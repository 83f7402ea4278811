"""Deck lists in and out: under /decks/ (namespace `decks`) and, for a deck's exports, under /d/<public_id>/."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("new/import/", views.draft_import, name="new-import"),
    path("new/share/", views.draft_share, name="new-share"),
    path("link/<str:code>/", views.deck_link, name="link"),
    path("link/<str:code>/copy/", views.deck_link_copy, name="link-copy"),
    path("<str:public_id>/import/", views.deck_import, name="import"),
    path("<str:public_id>/share/", views.deck_share, name="share"),
]

# At the site root, names without a namespace (links to them are out in the world).
export_urlpatterns = [
    path("d/<str:public_id>/export.txt", views.deck_export_text, name="deck-export-text"),
    path("d/<str:public_id>/export.json", views.deck_export_json, name="deck-export-json"),
    path("d/<str:public_id>/sheet/", views.deck_sheet, name="deck-sheet"),
]
