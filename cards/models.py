"""The card catalog (sets, cards, printings) and the rules (rulers, geases, revisions).

A card's rules identity is its name: every printing of a name is the same card for copy
limits, so rules fields live on Card and per-print facts on Printing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from .folding import card_search_text, fold
from .games import default_game_slug


class CardType(models.TextChoices):
    UNIT = "unit", _("Unit")
    EVENT = "event", _("Event")
    FIELD = "field", _("Field")
    ENERGY = "energy", _("Energy")


class Faction(models.Model):
    name = models.CharField(max_length=100, unique=True)
    name_ja = models.CharField(max_length=100, blank=True)
    slug = models.SlugField(max_length=100, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.slug:
            self.slug = slugify(self.name) or slugify(self.name_ja, allow_unicode=True)
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class Attribute(models.Model):
    name = models.CharField(max_length=100, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class CardSet(models.Model):
    code = models.CharField(max_length=20, unique=True)
    name = models.CharField(max_length=200)
    # The game whose cards the set prints (a slug of data/games/*.json).
    game = models.CharField(max_length=40, default=default_game_slug, db_index=True)
    release_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["release_date", "code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


# The columns search reads, all folded (cards.folding), written together by Card.save and the importer.
SEARCH_COLUMNS = ("search_text", "search_name", "search_name_ja")


def card_search_columns(*, name: str, name_ja: str, text: str) -> dict[str, str]:
    """The values of SEARCH_COLUMNS for a card's names and text."""
    return {
        "search_text": card_search_text(name=name, name_ja=name_ja, text=text),
        "search_name": fold(name),
        "search_name_ja": fold(name_ja) if name_ja else "",
    }


class Card(models.Model):
    # A name is one card across the site (decks and their text lists name cards): two games
    # cannot both have a card of the same name (the importer says so, naming the other game).
    name = models.CharField(max_length=200, unique=True)
    name_ja = models.CharField(max_length=200, blank=True)
    # The choices are Gate Ruler's; another game's types (data/games/<slug>.json) are longer
    # ("kingdom-ruler") and checked by the importer and clean() against the card's game.
    type = models.CharField(max_length=20, choices=CardType.choices)
    # The game the card belongs to (a slug of data/games/*.json) and its values of that game's
    # card_fields ({"colours": ["red"], "cost": 2, ...}); Gate Ruler's cards keep their own
    # columns (faction, level, ...) and an empty `fields`.
    game = models.CharField(max_length=40, default=default_game_slug, db_index=True)
    fields = models.JSONField(default=dict, blank=True)
    faction = models.ForeignKey(Faction, null=True, blank=True, on_delete=models.PROTECT, related_name="cards")
    attributes = models.ManyToManyField(Attribute, blank=True, related_name="cards")
    level = models.IntegerField(null=True, blank=True)
    atk = models.IntegerField(null=True, blank=True)
    hp = models.IntegerField(null=True, blank=True)
    stk = models.IntegerField(null=True, blank=True)
    cnt = models.BooleanField(default=False)
    legend = models.BooleanField(default=False)
    text = models.TextField(blank=True)
    # Folded names and text (cards.folding.card_search_text), kept in step by the importer.
    search_text = models.TextField(blank=True, editable=False)
    # The folded English and Japanese names ("" without one), in columns of their own: name search
    # and the exact-name ranking read them as stored, with no splitting of search_text per row.
    search_name = models.TextField(blank=True, editable=False, db_index=True)
    search_name_ja = models.TextField(blank=True, editable=False, db_index=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                # Gate Ruler's rule; the other games' cards have no Gate Ruler level.
                condition=models.Q(type=CardType.ENERGY) | models.Q(level__isnull=False) | ~models.Q(game="gate-ruler"),
                name="card_level_required_unless_energy",
            ),
        ]
        indexes = [models.Index(fields=["type", "level"])]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        for column, value in card_search_columns(name=self.name, name_ja=self.name_ja, text=self.text).items():
            setattr(self, column, value)
        if self.fields is None:  # the admin's blank JSON field: no game fields
            self.fields = {}
        super().save(*args, **kwargs)

    def clean_fields(self, exclude: Any = None) -> None:
        # The type's choices are the default game's; another game's type is checked by clean().
        if self.game != default_game_slug():
            exclude = {*(exclude or ()), "type"}
        super().clean_fields(exclude=exclude)

    def clean(self) -> None:
        from .games import UnknownGameError, game_get
        from .importers.parsing import card_fields_errors

        try:
            game = game_get(self.game)
        except UnknownGameError as exc:
            raise ValidationError({"game": str(exc)}) from exc
        if game.default:
            if self.type != CardType.ENERGY and self.level is None:
                raise ValidationError({"level": "Only energy cards have no level."})
            return
        if not isinstance(self.fields, dict):
            raise ValidationError({"fields": "expected an object of the game's card fields"})
        errors: dict[str, list[str]] = {}
        for error in card_fields_errors(game, self.type, self.fields):
            key = "type" if error.field == "type" else "fields"
            errors.setdefault(key, []).append(error.message if key == "type" else f"{error.field}: {error.message}")
        if errors:
            raise ValidationError(errors)


class Printing(models.Model):
    collector_number = models.CharField(max_length=40, unique=True)
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="printings")
    rarity = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["collector_number"]

    def __str__(self) -> str:
        return f"{self.collector_number} {self.card.name}"


class RulesDocument(models.Model):
    """A document of data/rules.json (rulebook, appendix): what dump_rules needs to write the file back.

    Its rulers' and geases' revisions refer to it by key (RulerRevision.document).
    """

    key = models.CharField(max_length=100, unique=True)
    title = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=200, blank=True)
    effective_from = models.DateField()
    position = models.PositiveSmallIntegerField(default=0, help_text="Order in data/rules.json.")

    class Meta:
        ordering = ["position", "effective_from", "key"]

    def __str__(self) -> str:
        return self.key


class Ruler(models.Model):
    """A ruler's identity; its stats and deck rules change over time, see RulerRevision."""

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=100, unique=True)
    name_ja = models.CharField(max_length=100, blank=True)
    code = models.CharField(max_length=20, blank=True, help_text="Letter and number, e.g. D-4 or EX-I.")
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order in the comprehensive rules.")

    class Meta:
        ordering = ["position", "name"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}".strip()


class RulesRevision(models.Model):
    """What a ruler's or a geas's revision holds: its rules data from one date on, and how load_rules wrote it."""

    effective_from = models.DateField()
    document = models.CharField(
        max_length=100,
        help_text="Key of the rules document, e.g. appendix-a-2023-12-04.",
    )
    source = models.CharField(max_length=200, blank=True)
    data = models.JSONField()
    # Hash of the data as load_rules last wrote it: a different hash now means an admin edited it.
    loaded_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    # The data as load_rules last wrote it, as JSON text in the file's key order (PostgreSQL's
    # jsonb keeps no key order), and its place in its document: dump_rules writes the file back
    # byte for byte from these. Empty and null for a revision added in the admin.
    loaded_json = models.TextField(blank=True, editable=False)
    position = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class RulerRevision(RulesRevision):
    """Everything the rules say of a ruler from one date on (the whole ruler object of data/rules.json)."""

    ruler = models.ForeignKey(Ruler, on_delete=models.CASCADE, related_name="revisions")

    class Meta:
        ordering = ["ruler__position", "-effective_from"]
        constraints = [models.UniqueConstraint(fields=["ruler", "effective_from"], name="ruler_revision_unique_date")]

    def __str__(self) -> str:
        return f"{self.ruler.name} from {self.effective_from}"

    def clean(self) -> None:
        from decks.rules.ruleset import RulesDataError, parse_ruler

        try:
            parse_ruler(self.data)
        except RulesDataError as exc:
            raise ValidationError({"data": str(exc)}) from exc


class Geas(models.Model):
    """An oath that patches one ruler's rules."""

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=100, unique=True)
    ruler = models.ForeignKey(Ruler, on_delete=models.CASCADE, related_name="geases")

    class Meta:
        ordering = ["ruler__position", "name"]
        verbose_name_plural = "geases"

    def __str__(self) -> str:
        return self.name


class GeasRevision(RulesRevision):
    geas = models.ForeignKey(Geas, on_delete=models.CASCADE, related_name="revisions")

    class Meta:
        ordering = ["geas__name", "-effective_from"]
        constraints = [models.UniqueConstraint(fields=["geas", "effective_from"], name="geas_revision_unique_date")]

    def __str__(self) -> str:
        return f"{self.geas.name} from {self.effective_from}"

    def clean(self) -> None:
        from decks.rules.ruleset import RulesDataError, parse_geas

        try:
            parse_geas(self.data)
        except RulesDataError as exc:
            raise ValidationError({"data": str(exc)}) from exc


class ImportJob(models.Model):
    """One uploaded set file and its import: queued, run by a Celery worker, then its result.

    The file itself is stored here (file_content): the database and Redis are the only
    state shared between machines, so a worker anywhere can read what the web process got.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="card_import_jobs",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    file_name = models.CharField(max_length=255)
    file_sha256 = models.CharField(max_length=64, db_index=True)
    file_size = models.PositiveBigIntegerField()
    file_content = models.BinaryField(editable=False)
    dry_run = models.BooleanField(default=False, help_text="Compute the diff only; write nothing to the catalog.")
    # `make data` on every start: add what the catalog lacks, never revert what an admin imported since.
    only_new = models.BooleanField(
        default=False,
        help_text="Add missing sets, cards and printings only; leave existing ones as they are.",
    )
    errata_effective_date = models.DateField(
        null=True,
        blank=True,
        help_text="Effective date of the errata this import records; empty: the set's release date.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    rows_total = models.PositiveIntegerField(default=0)
    rows_done = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True)
    # Every bad row (up to a cap): [{"file", "row", "field", "message"}].
    error_report = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    # New sets, cards and printings, changed fields per card (old -> new): see services.CatalogPlan.diff.
    diff = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped while the job works; a running job whose heartbeat is older than the lease is stale.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Which claim owns the job: a worker that lost its lease can no longer write.
    attempts = models.PositiveSmallIntegerField(default=0)
    celery_task_id = models.CharField(max_length=255, blank=True)
    # Each time the reaper found the job's worker gone: [{"attempt", "heartbeat_at", "detected_at",
    # "outcome": "retried" | "failed"}] (ISO times), shown on the job's admin page.
    recoveries = models.JSONField(default=list, blank=True, editable=False)

    # A running job whose heartbeat is older than this lost its worker: it is retried or failed.
    # Six heartbeats (cards.import_jobs.HEARTBEAT_EVERY, a thread of the worker's own) long, so
    # a slow query or two never costs a live job its lease; with the reaper's beat every 30 s
    # (settings.CELERY_BEAT_SCHEDULE) a killed worker's job is retried within 90 s.
    LEASE = timedelta(seconds=60)
    # Claims of one job before a lost worker means failure rather than another retry.
    MAX_ATTEMPTS = 3

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"Import #{self.pk} {self.file_name}"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)

    @property
    def is_stale(self) -> bool:
        """Running, but no heartbeat for the lease: its worker has probably stopped."""
        return (
            self.status == self.Status.RUNNING
            and self.heartbeat_at is not None
            and self.heartbeat_at < timezone.now() - self.LEASE
        )

    @property
    def percent(self) -> int:
        if self.status == self.Status.SUCCEEDED:
            return 100
        if not self.rows_total:
            return 0
        return min(100, self.rows_done * 100 // self.rows_total)


class ImportJobFile(models.Model):
    """One file of a job that imports several at once (manage.py import_cards FILE...), in the order given.

    A job with such rows imports them together, all or nothing, as one catalog change; the
    job's own file fields then describe the whole (names, total size, checksum of all). A
    job without them (an admin upload) imports its own file_content.
    """

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="files")
    position = models.PositiveSmallIntegerField()
    # As given on the command line: error messages name the file by it.
    name = models.TextField()
    content = models.BinaryField()

    class Meta:
        ordering = ["job", "position"]
        constraints = [models.UniqueConstraint(fields=["job", "position"], name="cards_importjobfile_position")]

    def __str__(self) -> str:
        return self.name


class Erratum(models.Model):
    """A change an import made to a rules field of an existing card: the card's errata history."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="errata")
    field = models.CharField(max_length=20)
    # JSON values as the import format has them: attributes a list, missing values null.
    old_value = models.JSONField(null=True, blank=True)
    new_value = models.JSONField(null=True, blank=True)
    # The date the admin gave for the import, else the release date of the card's newest set in it.
    effective_date = models.DateField(null=True, blank=True)
    job = models.ForeignKey(ImportJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="errata")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # Newest first; an undated erratum (a set without a release date) after the dated ones.
        ordering = ["card", models.F("effective_date").desc(nulls_last=True), "-created_at", "-id"]
        verbose_name_plural = "errata"
        constraints = [
            # Belt and braces for idempotency: one job records a field of a card once.
            models.UniqueConstraint(
                fields=["job", "card", "field"],
                condition=models.Q(job__isnull=False),
                name="erratum_unique_per_job",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card_id} {self.field} ({self.effective_date or 'undated'})"

    @property
    def old_display(self) -> str:
        return field_value_display(self.old_value)

    @property
    def new_display(self) -> str:
        return field_value_display(self.new_value)


def field_value_display(value: object) -> str:
    """A rules-field value as people read it (a plain string: templates escape it)."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):  # a card's game fields (Card.fields)
        return "\n".join(f"{k}: {field_value_display(v)}" for k, v in value.items())
    return str(value)


class CatalogVersion(models.Model):
    """One row whose token changes with every write to the cards or the rules (cards.catalog).

    Web workers keep the catalog's card facts and the rules revisions in memory; comparing this
    token (one primary-key read) tells each process when its copy is stale, whichever process
    wrote. A fresh random token rather than a counter: a rolled-back write restores the old
    token, and a counter would then hand out the same number twice for different data.
    """

    token = models.CharField(max_length=32)

    def __str__(self) -> str:
        return self.token
