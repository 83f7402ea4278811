"""Draw odds, under /decks/ (namespace `decks`)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("new/odds/", views.draft_odds, name="new-odds"),
    path("<str:public_id>/odds/", views.deck_odds, name="odds"),
]
