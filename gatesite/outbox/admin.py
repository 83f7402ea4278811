from __future__ import annotations

from django.contrib import admin

from .models import OutboxTask, WorkerHeartbeat


@admin.register(OutboxTask)
class OutboxTaskAdmin(admin.ModelAdmin):
    """Tasks waiting for the broker: read-only, sent by beat's gatesite.outbox_send once it is back."""

    list_display = ["task", "kwargs", "created_at", "attempts", "last_error"]
    readonly_fields = ["task", "kwargs", "created_at", "attempts", "last_error"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["worker", "seen_at"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
