"""Statistics' tables: figures over public decks, precomputed by decks.stats.services.statistics_recompute.

One StatisticsRun and its rows are written in one transaction. A figure row whose `ruler` is
null is over all rulers. Pages read the rows of the newest succeeded run; the run before it is
kept too, so a page that read the run id just before a new run committed still finds its rows.

The tables were created by the decks app (decks/migrations/0003_statistics.py) and keep their
names (`db_table`): moving the models into this app changed no table (stats/migrations/0001).
"""

from __future__ import annotations

from django.db import models


class StatisticsRun(models.Model):
    class Status(models.TextChoices):
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", "Schedule"
        STALE = "stale", "Public decks saved"
        ADMIN = "admin", "Admin"
        COMMAND = "command", "Command"

    status = models.CharField(max_length=10, choices=Status.choices)
    trigger = models.CharField(max_length=10, choices=Trigger.choices, default=Trigger.SCHEDULE)
    started_at = models.DateTimeField()
    # The figures describe the public decks as they were at this moment (the transaction's snapshot).
    computed_at = models.DateTimeField(null=True, blank=True)
    decks = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        db_table = "decks_statisticsrun"
        ordering = ["-id"]
        get_latest_by = "id"
        indexes = [models.Index(fields=["status", "-id"], name="statistics_run_latest")]

    def __str__(self) -> str:
        return f"Statistics #{self.pk} ({self.status})"


class StatisticsChange(models.Model):
    """A public deck saved after the figures were computed: the figures are stale until the next run.

    Appended by a save (a row, no lock shared with other saves); removed by the run that counts it.
    """

    deck_id = models.BigIntegerField()  # not a foreign key: the log outlives a deleted deck
    changed_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "decks_statisticschange"

    def __str__(self) -> str:
        return f"deck {self.deck_id} at {self.changed_at}"


class RulerShare(models.Model):
    """Decks of a ruler (or, ruler null, of all rulers): count, share of all public decks, averages."""

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="ruler_shares")
    ruler = models.ForeignKey("cards.Ruler", null=True, on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    share = models.FloatField()
    # Copies in the main deck, per deck: all cards, and CNT cards.
    avg_size = models.FloatField()
    avg_cnt = models.FloatField()

    class Meta:
        db_table = "decks_rulershare"
        ordering = ["-decks"]
        indexes = [models.Index(fields=["run", "ruler"])]

    def __str__(self) -> str:
        return f"{self.ruler_id or 'all'}: {self.decks} decks"


class FactionShare(models.Model):
    """Share of the decks (of a ruler, or all) whose main deck plays a faction (and, paired, another too)."""

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="faction_shares")
    ruler = models.ForeignKey("cards.Ruler", null=True, on_delete=models.CASCADE, related_name="+")
    faction = models.ForeignKey("cards.Faction", on_delete=models.CASCADE, related_name="+")
    # Null: the faction alone; else the pair (faction, other_faction) with faction's id the smaller.
    other_faction = models.ForeignKey("cards.Faction", null=True, on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    share = models.FloatField()

    class Meta:
        db_table = "decks_factionshare"
        ordering = ["-decks"]
        indexes = [models.Index(fields=["run", "ruler"])]

    def __str__(self) -> str:
        return f"{self.faction_id}+{self.other_faction_id or '-'} ({self.ruler_id or 'all'}): {self.decks}"


class CardInclusion(models.Model):
    """How many decks (of a ruler, or all) play a card in the main deck, and how many copies they play."""

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="card_inclusions")
    ruler = models.ForeignKey("cards.Ruler", null=True, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey("cards.Card", on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    inclusion = models.FloatField()  # decks / decks of the scope
    avg_copies = models.FloatField()  # copies per deck that plays it

    class Meta:
        db_table = "decks_cardinclusion"
        ordering = ["-decks"]
        indexes = [models.Index(fields=["run", "ruler", "-decks"]), models.Index(fields=["run", "card"])]

    def __str__(self) -> str:
        return f"card {self.card_id} ({self.ruler_id or 'all'}): {self.decks} decks"


class CardPairing(models.Model):
    """A card most often played with `card` (over all public decks), ranked by lift.

    lift = decks(both) × decks / (decks(card) × decks(other)): 1 when the two are played
    together as often as chance says, so staples played with everything do not lead.
    """

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="card_pairings")
    card = models.ForeignKey("cards.Card", on_delete=models.CASCADE, related_name="+")
    other_card = models.ForeignKey("cards.Card", on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    share = models.FloatField()  # decks(both) / decks(card): how often `card`'s decks play the other
    lift = models.FloatField()
    rank = models.PositiveSmallIntegerField()

    class Meta:
        db_table = "decks_cardpairing"
        ordering = ["rank"]
        indexes = [models.Index(fields=["run", "card", "rank"])]

    def __str__(self) -> str:
        return f"card {self.card_id} with {self.other_card_id}: lift {self.lift:.2f}"


class LevelCurvePoint(models.Model):
    """Average copies of a level in the main deck, per deck (of a ruler, or all)."""

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="level_curve")
    ruler = models.ForeignKey("cards.Ruler", null=True, on_delete=models.CASCADE, related_name="+")
    level = models.IntegerField()
    avg_copies = models.FloatField()

    class Meta:
        db_table = "decks_levelcurvepoint"
        ordering = ["level"]
        indexes = [models.Index(fields=["run", "ruler"])]

    def __str__(self) -> str:
        return f"level {self.level} ({self.ruler_id or 'all'}): {self.avg_copies:.2f}"


class MonthlyRulerShare(models.Model):
    """Decks of a ruler among the public decks created in one month (the first day names the month)."""

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="monthly_shares")
    month = models.DateField()
    ruler = models.ForeignKey("cards.Ruler", on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    share = models.FloatField()

    class Meta:
        db_table = "decks_monthlyrulershare"
        ordering = ["month", "-decks"]
        indexes = [models.Index(fields=["run", "month"])]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} ruler {self.ruler_id}: {self.decks}"


class GameCardShare(models.Model):
    """A game besides Gate Ruler (its figures are the tables above): its public decks, and the cards
    they play by part of the deck: the identity section (the Kingdom-Ruler, the Hero) or the main deck.

    A `decks` row (card null) counts the game's public decks; a card's row counts the decks that
    play it in that part, its share of the game's decks and its average copies there.
    """

    class Part(models.TextChoices):
        DECKS = "decks", "Public decks"
        IDENTITY = "identity", "Identity card"
        MAIN = "main", "Main deck"

    run = models.ForeignKey(StatisticsRun, on_delete=models.CASCADE, related_name="game_card_shares")
    game = models.CharField(max_length=40)
    part = models.CharField(max_length=10, choices=Part.choices)
    card = models.ForeignKey("cards.Card", null=True, on_delete=models.CASCADE, related_name="+")
    decks = models.PositiveIntegerField()
    share = models.FloatField()
    avg_copies = models.FloatField()

    class Meta:
        # Named as its siblings are (the figures' tables keep the decks_ prefix they were created with).
        db_table = "decks_gamecardshare"
        ordering = ["-decks"]
        indexes = [models.Index(fields=["run", "game", "part"])]

    def __str__(self) -> str:
        return f"{self.game} {self.part} {self.card_id or 'all'}: {self.decks} decks"
