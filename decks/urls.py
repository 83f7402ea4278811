from __future__ import annotations

from django.urls import path

from . import odds_views, text_views, views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("new/", views.draft_editor, name="new"),
    path("new/change/", views.draft_change, name="new-change"),
    path("new/cards/", views.draft_cards, name="new-cards"),
    path("new/save/", views.draft_save, name="new-save"),
    path("new/reset/", views.draft_reset, name="new-reset"),
    path("new/import/", text_views.draft_import, name="new-import"),
    path("new/share/", text_views.draft_share, name="new-share"),
    path("link/<str:code>/", text_views.deck_link, name="link"),
    path("link/<str:code>/copy/", text_views.deck_link_copy, name="link-copy"),
    path("new/odds/", odds_views.draft_odds, name="new-odds"),
    path("<str:public_id>/edit/", views.deck_editor, name="edit"),
    path("<str:public_id>/change/", views.deck_change, name="change"),
    path("<str:public_id>/cards/", views.deck_cards, name="cards"),
    path("<str:public_id>/delete/", views.deck_remove, name="delete"),
    path("<str:public_id>/import/", text_views.deck_import, name="import"),
    path("<str:public_id>/share/", text_views.deck_share, name="share"),
    path("<str:public_id>/odds/", odds_views.deck_odds, name="odds"),
]
