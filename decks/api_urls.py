from __future__ import annotations

from django.urls import path

from . import apis

urlpatterns = [
    path("decks/validate/", apis.DeckValidateApi.as_view(), name="deck-validate"),
]
