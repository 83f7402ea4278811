from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy

from .filters import game_choices, type_choices
from .forms import ImportUploadForm
from .games import default_game_slug
from .import_jobs import import_job_create
from .importers.records import ImportFileError
from .models import (
    Attribute,
    Card,
    CardSet,
    Erratum,
    Faction,
    Geas,
    GeasRevision,
    ImportJob,
    Printing,
    Ruler,
    RulerRevision,
    RulesDocument,
    field_value_display,
)
from .selectors import import_job_get, import_job_same_file_applied, import_job_waiting_for_broker
from .signals import cards_changed_send_on_commit, revision_change_date, rules_changed_send_on_commit

# The broker (Redis) was down when the job was sent: it is kept in the outbox and sent when it is back.
QUEUED_WAITING_FOR_BROKER = gettext_lazy(
    "Queued, waiting for the worker: the job queue cannot be reached now; the import is sent to it when it is back."
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
    list_display = ["code", "name", "game", "release_date"]
    list_filter = ["game"]


class PrintingInline(admin.TabularInline):
    model = Printing
    extra = 0


class ErratumInline(admin.TabularInline):
    """The card's errata history (recorded by imports; read-only here)."""

    model = Erratum
    extra = 0
    fields = ["effective_date", "field", "old_display", "new_display", "job", "created_at"]
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "errata history"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Erratum]:
        # The job's link, never its stored file.
        return super().get_queryset(request).select_related("job").defer("job__file_content")

    @admin.display(description="old value")
    def old_display(self, erratum: Erratum) -> str:
        return erratum.old_display

    @admin.display(description="new value")
    def new_display(self, erratum: Erratum) -> str:
        return erratum.new_display


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "type", "faction", "level", "cnt", "legend"]
    list_filter = ["game", "type", "faction", "cnt", "legend"]
    search_fields = ["name", "name_ja", "text", "printings__collector_number"]
    filter_horizontal = ["attributes"]
    inlines = [PrintingInline, ErratumInline]

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        # A Gate Ruler card's rules are its own columns: the form stays as it was for them.
        return ["fields"] if obj is not None and obj.game == default_game_slug() else []

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A card keeps its game: its fields, decks and errata are that game's.
        return ["game"] if obj is not None else []

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        # Every game's card types and the games themselves (Card.clean checks the pair and the fields).
        if db_field.name == "type":
            kwargs["choices"] = type_choices()
        if db_field.name == "game":
            kwargs["widget"] = forms.Select(choices=game_choices())
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # A rules field edited by hand: announced, so the decks playing the card are re-judged.
        if change and set(form.changed_data) & _CARD_RULES_FIELDS:
            cards_changed_send_on_commit(sender=CardAdmin, card_ids={form.instance.pk})


_CARD_RULES_FIELDS = {"type", "faction", "attributes", "level", "cnt", "legend", "text", "game", "fields"}


class _RevisionRevalidates:
    """Saving or deleting a ruler's or geas's revision in the admin re-judges that ruler's (geas's) decks."""

    def revision_changed(self, revision: RulerRevision | GeasRevision) -> None:
        since = revision_change_date(revision.effective_from)
        if isinstance(revision, RulerRevision):
            rules_changed_send_on_commit(sender=type(self), ruler_ids={revision.ruler_id}, since=since)
        else:
            rules_changed_send_on_commit(sender=type(self), geas_ids={revision.geas_id}, since=since)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)  # type: ignore[misc]
        if isinstance(obj, RulerRevision | GeasRevision):
            self.revision_changed(obj)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        super().delete_model(request, obj)  # type: ignore[misc]
        if isinstance(obj, RulerRevision | GeasRevision):
            self.revision_changed(obj)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)  # type: ignore[misc]
        for revision in [*formset.new_objects, *(obj for obj, _ in formset.changed_objects), *formset.deleted_objects]:
            if isinstance(revision, RulerRevision | GeasRevision):
                self.revision_changed(revision)


@admin.register(Erratum)
class ErratumAdmin(admin.ModelAdmin):
    """Every erratum; imports record them, an admin may only correct the effective date."""

    list_display = ["card", "field", "old_display", "new_display", "effective_date", "job", "created_at"]
    list_filter = ["field", "effective_date"]
    list_select_related = ["card", "job"]
    search_fields = ["card__name", "card__printings__collector_number"]
    fields = ["card", "field", "old_display", "new_display", "effective_date", "job", "created_at"]
    readonly_fields = ["card", "field", "old_display", "new_display", "job", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Erratum]:
        # The job's link, never its stored file.
        return super().get_queryset(request).select_related("card", "job").defer("job__file_content")

    @admin.display(description="old value")
    def old_display(self, erratum: Erratum) -> str:
        return erratum.old_display

    @admin.display(description="new value")
    def new_display(self, erratum: Erratum) -> str:
        return erratum.new_display


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Import jobs: "Import card set" uploads a file as a job; a job's page shows its progress, then its result."""

    list_display = ["id", "file_name", "status", "mode", "progress", "created_by", "created_at", "finished_at"]
    list_display_links = ["id", "file_name"]
    list_filter = ["status", "dry_run"]
    list_select_related = ["created_by"]
    search_fields = ["file_name", "file_sha256"]
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[ImportJob]:
        # Never load the stored files (up to IMPORT_MAX_BYTES each) to list jobs.
        return super().get_queryset(request).defer("file_content")

    # A job is a record of what happened: created by the upload form, never edited.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_upload_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(f"{self.opts.app_label}.add_{self.opts.model_name}")

    @admin.display(description="mode", ordering="dry_run")
    def mode(self, job: ImportJob) -> str:
        return "dry run" if job.dry_run else "apply (only new)" if job.only_new else "apply"

    @admin.display(description="rows")
    def progress(self, job: ImportJob) -> str:
        return f"{job.rows_done}/{job.rows_total}"

    def get_urls(self) -> list[URLPattern]:
        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("import/", self.admin_site.admin_view(self.upload_view), name=f"{name}_import"),
            path("<int:job_id>/progress/", self.admin_site.admin_view(self.progress_view), name=f"{name}_progress"),
            *super().get_urls(),
        ]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        extra_context = {**(extra_context or {}), "can_upload": self.has_upload_permission(request)}
        return super().changelist_view(request, extra_context)

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """The "Import card set" form: a valid upload becomes a queued job, then its page."""
        if not self.has_upload_permission(request):
            raise PermissionDenied
        form = ImportUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                job = import_job_create(
                    file=upload,
                    file_name=upload.name,
                    user=request.user,
                    dry_run=form.dry_run,
                    errata_effective_date=form.cleaned_data["errata_effective_date"],
                )
            except ImportFileError as exc:
                for error in exc.errors:
                    form.add_error("file", str(error))
            else:
                if import_job_waiting_for_broker(job=job):
                    messages.warning(request, str(QUEUED_WAITING_FOR_BROKER))
                same = import_job_same_file_applied(job=job)
                if same is not None:
                    messages.info(
                        request,
                        f"Import #{same.pk} already applied this same file on "
                        f"{timezone.localtime(same.finished_at or same.created_at):%Y-%m-%d %H:%M}; "
                        "this run should find nothing to change.",
                    )
                return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", job.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Import card set",
            "form": form,
            "runs_inline": settings.CELERY_TASK_ALWAYS_EAGER,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/cards/importjob/import_form.html", context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The job's page: progress while it runs (polled with htmx), then counts, diff and error report."""
        job = self._job_or_404(request, object_id)
        context = {
            **self.admin_site.each_context(request),
            **_job_context(job),
            "opts": self.opts,
            "title": str(job),
            "original": job,
            "has_delete_permission": self.has_delete_permission(request, job),
        }
        return TemplateResponse(request, "admin/cards/importjob/detail.html", context)

    def progress_view(self, request: HttpRequest, job_id: int) -> HttpResponse:
        """The progress fragment htmx polls; a plain request gets the whole page instead."""
        job = self._job_or_404(request, str(job_id))
        if not request.htmx:  # type: ignore[attr-defined]
            return HttpResponseRedirect(
                reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[job.pk])
            )
        # admin_view() already marks it never_cache: every poll sees the job as it is now.
        return TemplateResponse(request, "admin/cards/importjob/detail.html#job-status", _job_context(job))

    def _job_or_404(self, request: HttpRequest, object_id: str) -> ImportJob:
        if not self.has_view_permission(request):
            raise PermissionDenied
        job = import_job_get(job_id=int(object_id)) if object_id.isdigit() else None
        if job is None:
            raise Http404("No such import job.")
        return job


def _shown(value: object) -> str:
    # Text values quoted, so a change of spacing or an empty text is visible.
    return f"“{value}”" if isinstance(value, str) else field_value_display(value)


_DIFF_SECTIONS = (
    ("new_sets", gettext_lazy("New sets")),
    ("changed_sets", gettext_lazy("Changed sets")),
    ("new_factions", gettext_lazy("New factions")),
    ("new_attributes", gettext_lazy("New attributes")),
    ("new_cards", gettext_lazy("New cards")),
    ("changed_cards", gettext_lazy("Changed cards (old → new)")),
    ("new_printings", gettext_lazy("New printings")),
    ("changed_printings", gettext_lazy("Changed printings (old → new)")),
)


def _job_context(job: ImportJob) -> dict[str, Any]:
    sections = []
    for key, title in _DIFF_SECTIONS:
        section = (job.diff or {}).get(key) or {"total": 0, "items": []}
        if section["total"]:
            items = [
                {
                    "title": item.get("name") or item.get("collector_number") or item.get("code"),
                    "changes": [{**c, "old": _shown(c["old"]), "new": _shown(c["new"])} for c in item["changes"]],
                }
                if "changes" in item
                else item
                for item in section["items"]
            ]
            hidden = section["total"] - len(items)
            sections.append({"key": key, "title": title, "total": section["total"], "items": items, "more": hidden})
    report = job.error_report or []
    return {
        "job": job,
        "diff_sections": sections,
        "error_report": report,
        "errors_hidden": max(0, (job.counts or {}).get("bad_rows", len(report)) - len(report)),
        "recoveries": _recoveries(job),
        "waiting_for_broker": import_job_waiting_for_broker(job=job),
        "poll_every": "1s",
        # With no REDIS_URL (the embedded default) the job runs inside the upload's request: it has
        # finished before its page loads, so the page says so instead of promising live progress.
        "runs_inline": settings.CELERY_TASK_ALWAYS_EAGER,
    }


def _recoveries(job: ImportJob) -> list[dict[str, Any]]:
    """The job's recoveries (cards.import_jobs.import_jobs_reap) with their times as datetimes, to show in local time."""

    def when(value: str | None) -> datetime | None:
        return datetime.fromisoformat(value) if value else None

    return [
        {**entry, "heartbeat_at": when(entry.get("heartbeat_at")), "detected_at": when(entry.get("detected_at"))}
        for entry in job.recoveries or []
    ]


@admin.register(Printing)
class PrintingAdmin(admin.ModelAdmin):
    list_display = ["collector_number", "card", "card_set", "rarity"]
    list_select_related = ["card", "card_set"]
    search_fields = ["collector_number", "card__name"]


class RulerRevisionInline(admin.StackedInline):
    model = RulerRevision
    extra = 0


@admin.register(Ruler)
class RulerAdmin(_RevisionRevalidates, admin.ModelAdmin):
    list_display = ["code", "name", "name_ja", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RulerRevisionInline]
    actions = ["rejudge_decks"]

    @admin.action(description="Re-judge the decks of the selected rulers")
    def rejudge_decks(self, request: HttpRequest, queryset: QuerySet[Ruler]) -> None:
        rules_changed_send_on_commit(sender=RulerAdmin, ruler_ids=set(queryset.values_list("pk", flat=True)))
        self.message_user(request, "Re-judging queued; My decks shows the new verdicts when it is done.")


# A revision's editable fields after the ruler or geas it belongs to (the model lists theirs last).
_REVISION_FIELDS = ["effective_from", "document", "source", "data"]


@admin.register(RulerRevision)
class RulerRevisionAdmin(_RevisionRevalidates, admin.ModelAdmin):
    list_display = ["ruler", "effective_from", "document", "updated_at"]
    fields = ["ruler", *_REVISION_FIELDS]
    list_filter = ["document", "ruler"]


class GeasRevisionInline(admin.StackedInline):
    model = GeasRevision
    extra = 0


@admin.register(Geas)
class GeasAdmin(_RevisionRevalidates, admin.ModelAdmin):
    list_display = ["name", "ruler", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [GeasRevisionInline]
    actions = ["rejudge_decks"]

    @admin.action(description="Re-judge the decks with the selected geases")
    def rejudge_decks(self, request: HttpRequest, queryset: QuerySet[Geas]) -> None:
        rules_changed_send_on_commit(sender=GeasAdmin, geas_ids=set(queryset.values_list("pk", flat=True)))
        self.message_user(request, "Re-judging queued; My decks shows the new verdicts when it is done.")


@admin.register(GeasRevision)
class GeasRevisionAdmin(_RevisionRevalidates, admin.ModelAdmin):
    list_display = ["geas", "effective_from", "document", "updated_at"]
    fields = ["geas", *_REVISION_FIELDS]


@admin.register(RulesDocument)
class RulesDocumentAdmin(admin.ModelAdmin):
    """The documents of data/rules.json, as load_rules last read them (dump_rules writes them back)."""

    list_display = ["key", "title", "effective_from", "position"]
