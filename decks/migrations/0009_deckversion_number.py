from django.db import migrations, models

# Each stored version gets the number players read: its rank among its deck's versions by save
# counter (1, 2, 3 …), so the history written before has no gaps either. One set-based statement
# (a correlated count over the (deck, version) unique index), the same SQL on PostgreSQL and SQLite.
NUMBER_EXISTING = """
UPDATE decks_deckversion SET number = (
    SELECT COUNT(*) FROM decks_deckversion AS earlier
    WHERE earlier.deck_id = decks_deckversion.deck_id AND earlier.version <= decks_deckversion.version
)
"""


class Migration(migrations.Migration):
    """Versions without gaps: DeckVersion.number, what "Version k of N" and /d/<id>/v/<k>/ use."""

    dependencies = [
        ("decks", "0008_deck_trashed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="deckversion",
            name="number",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunSQL(NUMBER_EXISTING, reverse_sql=migrations.RunSQL.noop),
        migrations.AlterField(
            model_name="deckversion",
            name="number",
            field=models.PositiveIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="deckversion",
            constraint=models.UniqueConstraint(fields=("deck", "number"), name="deck_version_number_unique"),
        ),
    ]
