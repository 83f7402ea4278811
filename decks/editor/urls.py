"""The editor's URLs, included by decks/urls.py under its `decks:` names (/decks/new/…, /decks/<public_id>/edit/…).

One editor for every game; the addresses of the other games' editor (…/game/…) are kept: links are out in the world.
"""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    # The new-deck page: the draft of the game picked (`?game=<slug>`).
    path("new/", views.draft_editor, name="new"),
    path("new/change/", views.draft_change, name="new-change"),
    path("new/cards/", views.draft_cards, name="new-cards"),
    path("new/save/", views.draft_save, name="new-save"),
    path("new/reset/", views.draft_reset, name="new-reset"),
    path("new/bring-back/", views.draft_bring_back, name="new-bring-back"),
    path("new/game/change/", views.draft_change, name="new-game-change"),
    path("new/game/cards/", views.draft_cards, name="new-game-cards"),
    path("new/game/reset/", views.draft_reset, name="new-game-reset"),
    path("<str:public_id>/edit/", views.deck_editor, name="edit"),
    path("<str:public_id>/change/", views.deck_change, name="change"),
    path("<str:public_id>/cards/", views.deck_cards, name="cards"),
    path("<str:public_id>/delete/", views.deck_remove, name="delete"),
    path("<str:public_id>/game/change/", views.deck_change, name="game-change"),
    path("<str:public_id>/game/cards/", views.deck_cards, name="game-cards"),
]
