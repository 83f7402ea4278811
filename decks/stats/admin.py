"""The statistics runs in the admin: the run log (with errors) and a button to recompute now."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext

from gatesite.outbox.services import task_send

from .models import StatisticsRun


@admin.register(StatisticsRun)
class StatisticsRunAdmin(admin.ModelAdmin):
    """The statistics runs (newest first) and a button to recompute now; runs are records, never edited."""

    list_display = ["id", "status", "trigger", "computed_at", "decks", "duration", "error"]
    list_filter = ["status", "trigger"]
    change_list_template = "admin/stats/statisticsrun/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="seconds", ordering="seconds")
    def duration(self, run: StatisticsRun) -> str:
        """The run's wall time, rounded: milliseconds under a second, tenths above."""
        if run.seconds is None:
            return "–"
        return f"{run.seconds:.3f} s" if run.seconds < 1 else f"{run.seconds:.1f} s"

    def get_urls(self) -> list[URLPattern]:
        name = f"{self.opts.app_label}_{self.opts.model_name}_recompute"
        return [path("recompute/", self.admin_site.admin_view(self.recompute_view), name=name), *super().get_urls()]

    def recompute_view(self, request: HttpRequest) -> HttpResponse:
        """POST: a full recompute, queued for the worker, or already run in-process when Celery is eager."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        from .tasks import statistics_recompute

        result = task_send(statistics_recompute, trigger=StatisticsRun.Trigger.ADMIN)
        if result is None:  # the broker is down: kept in the outbox, sent when it is back
            messages.warning(
                request,
                gettext(
                    "Statistics recompute queued, waiting for the worker: the job queue cannot be reached "
                    "now, and the recompute is sent to it when it is back."
                ),
            )
        # Without a broker (no REDIS_URL) Celery runs the task eagerly: it is done by now.
        elif result.ready():
            run = StatisticsRun.objects.filter(pk=result.result).first() if result.result else None
            if run is None:
                messages.info(request, "Another statistics recompute is running; its run appears here when it is done.")
            else:
                messages.success(request, f"Statistics recomputed: run {run.pk}, {run.status}; it is listed below.")
        else:
            messages.success(request, "Statistics recompute queued; the new run appears here when it is done.")
        return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist")
