from __future__ import annotations

from django.urls import path

from decks.api import apis

urlpatterns = [
    path("decks/validate/", apis.DeckValidateApi.as_view(), name="deck-validate"),
    path("decks/", apis.DeckListApi.as_view(), name="deck-list"),
    # Public ids are URL-safe base64 (decks.models.new_public_id): anything else is not a deck.
    path("decks/<slug:public_id>/", apis.DeckDetailApi.as_view(), name="deck-detail"),
]
