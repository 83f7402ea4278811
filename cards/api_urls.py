from __future__ import annotations

from django.urls import path

from . import apis

urlpatterns = [
    path("rulers/", apis.RulerListApi.as_view(), name="ruler-list"),
    path("rulers/<slug:slug>/", apis.RulerDetailApi.as_view(), name="ruler-detail"),
    path("geases/", apis.GeasListApi.as_view(), name="geas-list"),
    path("cards/", apis.CardListApi.as_view(), name="card-list"),
    path("cards/<str:number>/", apis.CardDetailApi.as_view(), name="card-detail"),
]
