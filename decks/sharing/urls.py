"""The deck page at the site root, /d/<public_id>/ (namespace `deckpages`, see decks.urls)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("d/<str:public_id>/", views.deck_page, name="page"),
    path("d/<str:public_id>/v/<int:version>/", views.deck_version_page, name="version"),
    path("d/<str:public_id>/v/<int:version>/name/", views.deck_version_name_view, name="version-name"),
    path("d/<str:public_id>/copy/", views.deck_copy_view, name="copy"),
    path("d/<str:public_id>/visibility/", views.deck_visibility, name="visibility"),
]
