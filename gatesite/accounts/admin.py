"""API tokens in the admin: listed per user and revoked by deleting; never created or shown here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import ApiToken, PlayerProfile


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "user", "created_at", "expires_at"]
    list_select_related = ["user"]
    search_fields = ["user__username", "prefix"]
    readonly_fields = ["user", "prefix", "created_at", "expires_at"]
    fields = readonly_fields

    # A token is only ever shown once, when made (POST /api/v1/auth/token/ or manage.py drf_create_token).
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    """The interface language each player chose (the header's switch); editable, for support."""

    list_display = ["user", "language"]
    list_select_related = ["user"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
