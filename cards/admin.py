from __future__ import annotations

from django.contrib import admin

from .models import (
    Attribute,
    Card,
    CardSet,
    Faction,
    Geas,
    GeasRevision,
    Printing,
    Ruler,
    RulerRevision,
)


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "name_ja", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Attribute)
class AttributeAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "release_date"]


class PrintingInline(admin.TabularInline):
    model = Printing
    extra = 0


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name", "type", "faction", "level", "cnt", "legend"]
    list_filter = ["type", "faction", "cnt", "legend"]
    search_fields = ["name", "name_ja", "text", "printings__collector_number"]
    filter_horizontal = ["attributes"]
    inlines = [PrintingInline]


@admin.register(Printing)
class PrintingAdmin(admin.ModelAdmin):
    list_display = ["collector_number", "card", "card_set", "rarity"]
    list_select_related = ["card", "card_set"]
    search_fields = ["collector_number", "card__name"]


class RulerRevisionInline(admin.StackedInline):
    model = RulerRevision
    extra = 0


@admin.register(Ruler)
class RulerAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RulerRevisionInline]


@admin.register(RulerRevision)
class RulerRevisionAdmin(admin.ModelAdmin):
    list_display = ["ruler", "effective_from", "document", "updated_at"]
    list_filter = ["document", "ruler"]


class GeasRevisionInline(admin.StackedInline):
    model = GeasRevision
    extra = 0


@admin.register(Geas)
class GeasAdmin(admin.ModelAdmin):
    list_display = ["name", "ruler", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [GeasRevisionInline]


@admin.register(GeasRevision)
class GeasRevisionAdmin(admin.ModelAdmin):
    list_display = ["geas", "effective_from", "document", "updated_at"]
