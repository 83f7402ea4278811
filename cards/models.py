"""The card catalog (sets, cards, printings) and the rules (rulers, geases, revisions).

A card's rules identity is its name: every printing of a name is the same card for copy
limits, so rules fields live on Card and per-print facts on Printing.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import slugify

from .folding import card_search_text


class CardType(models.TextChoices):
    UNIT = "unit", "Unit"
    EVENT = "event", "Event"
    FIELD = "field", "Field"
    ENERGY = "energy", "Energy"


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
    release_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["release_date", "code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Card(models.Model):
    name = models.CharField(max_length=200, unique=True)
    name_ja = models.CharField(max_length=200, blank=True)
    type = models.CharField(max_length=10, choices=CardType.choices)
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

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(type=CardType.ENERGY) | models.Q(level__isnull=False),
                name="card_level_required_unless_energy",
            ),
        ]
        indexes = [models.Index(fields=["type", "level"])]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_text = card_search_text(name=self.name, name_ja=self.name_ja, text=self.text)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        if self.type != CardType.ENERGY and self.level is None:
            raise ValidationError({"level": "Only energy cards have no level."})


class Printing(models.Model):
    collector_number = models.CharField(max_length=40, unique=True)
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="printings")
    rarity = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["collector_number"]

    def __str__(self) -> str:
        return f"{self.collector_number} {self.card.name}"


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


class RulerRevision(models.Model):
    """Everything the rules say of a ruler from one date on (the whole ruler object of data/rules.json)."""

    ruler = models.ForeignKey(Ruler, on_delete=models.CASCADE, related_name="revisions")
    effective_from = models.DateField()
    document = models.CharField(
        max_length=100,
        help_text="Key of the rules document, e.g. appendix-a-2023-12-04.",
    )
    source = models.CharField(max_length=200, blank=True)
    data = models.JSONField()
    # Hash of the data as load_rules last wrote it: a different hash now means an admin edited it.
    loaded_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

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


class GeasRevision(models.Model):
    geas = models.ForeignKey(Geas, on_delete=models.CASCADE, related_name="revisions")
    effective_from = models.DateField()
    document = models.CharField(max_length=100)
    source = models.CharField(max_length=200, blank=True)
    data = models.JSONField()
    # Hash of the data as load_rules last wrote it: a different hash now means an admin edited it.
    loaded_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

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
