"""The editor's URLs, included by decks/urls.py under its `decks:` names (/decks/new/…, /decks/<public_id>/edit/…)."""

from __future__ import annotations

from django.urls import path

from . import game_views, views

urlpatterns = [
    # The game picker: Gate Ruler's draft in views.draft_editor, another game's in game_views.
    path("new/", game_views.new_deck, name="new"),
    path("new/game/change/", game_views.draft_change, name="new-game-change"),
    path("new/game/cards/", game_views.draft_cards, name="new-game-cards"),
    path("new/game/reset/", game_views.draft_reset, name="new-game-reset"),
    path("new/change/", game_views.ruler_draft_only(views.draft_change), name="new-change"),
    path("new/cards/", game_views.ruler_draft_only(views.draft_cards), name="new-cards"),
    path("new/save/", views.draft_save, name="new-save"),
    path("new/reset/", views.draft_reset, name="new-reset"),
    path("new/bring-back/", views.draft_bring_back, name="new-bring-back"),
    # The editor of the deck's game (game_views.deck_edit hands a Gate Ruler deck to views).
    path("<str:public_id>/edit/", game_views.deck_edit, name="edit"),
    path("<str:public_id>/game/change/", game_views.deck_change, name="game-change"),
    path("<str:public_id>/game/cards/", game_views.deck_cards, name="game-cards"),
    path("<str:public_id>/change/", views.deck_change, name="change"),
    path("<str:public_id>/cards/", views.deck_cards, name="cards"),
    path("<str:public_id>/delete/", views.deck_remove, name="delete"),
]
