from __future__ import annotations

from django.urls import include, path

from . import odds_views, text_views, views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    # The editor (decks/editor/urls.py): new/, new/change/, new/cards/, new/save/, new/reset/,
    # <public_id>/edit/, change/, cards/ and delete/.
    path("", include("decks.editor.urls")),
    path("new/import/", text_views.draft_import, name="new-import"),
    path("new/share/", text_views.draft_share, name="new-share"),
    path("link/<str:code>/", text_views.deck_link, name="link"),
    path("link/<str:code>/copy/", text_views.deck_link_copy, name="link-copy"),
    path("new/odds/", odds_views.draft_odds, name="new-odds"),
    path("<str:public_id>/import/", text_views.deck_import, name="import"),
    path("<str:public_id>/share/", text_views.deck_share, name="share"),
    path("<str:public_id>/odds/", odds_views.deck_odds, name="odds"),
]
