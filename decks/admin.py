from __future__ import annotations

from django.contrib import admin

from .models import Deck, DeckCard


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    raw_id_fields = ["printing"]


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "ruler", "geas", "legal", "version", "updated_at"]
    list_filter = ["ruler", "legal"]
    search_fields = ["name", "public_id", "owner__username"]
    raw_id_fields = ["owner"]
    readonly_fields = ["public_id", "version", "created_at", "updated_at", "legal", "judged_on"]
    inlines = [DeckCardInline]
    list_select_related = ["owner", "ruler", "geas"]
