from __future__ import annotations

from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("", views.card_by_name, name="by_name"),
    path("<str:number>/", views.card_detail, name="detail"),
]
