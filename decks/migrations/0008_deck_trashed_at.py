from django.db import migrations, models


class Migration(migrations.Migration):
    """Deleting a deck moves it to its owner's trash (restorable for 30 days) instead of deleting it at once."""

    dependencies = [
        ("decks", "0007_deck_game"),
    ]

    operations = [
        # Deck.objects leaves trashed decks out; Deck.everything (declared first) sees them all.
        migrations.AlterModelOptions(
            name="deck",
            options={"default_manager_name": "objects", "ordering": ["-updated_at"]},
        ),
        migrations.AddField(
            model_name="deck",
            name="trashed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(
                condition=models.Q(("trashed_at__isnull", False)), fields=["trashed_at"], name="deck_trashed"
            ),
        ),
    ]
