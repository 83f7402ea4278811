from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Deck, DeckCard


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    raw_id_fields = ["printing"]


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "ruler", "geas", "legal", "version", "updated_at", "trashed_at"]
    list_filter = ["ruler", "legal", ("trashed_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "public_id", "owner__username"]
    raw_id_fields = ["owner"]
    readonly_fields = ["public_id", "version", "created_at", "updated_at", "legal", "judged_on"]
    inlines = [DeckCardInline]
    list_select_related = ["owner", "ruler", "geas"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deck]:
        # Admins see trashed decks too (Deck.objects leaves them out): "Trashed at" filters them.
        return Deck.everything.select_related(*self.list_select_related)
