from __future__ import annotations

from django.db import migrations, models


def fill_search_text(apps, schema_editor):
    from cards.folding import card_search_text

    Card = apps.get_model("cards", "Card")
    cards = list(Card.objects.only("pk", "name", "name_ja", "text"))
    for card in cards:
        card.search_text = card_search_text(name=card.name, name_ja=card.name_ja, text=card.text)
    Card.objects.bulk_update(cards, ["search_text"], batch_size=1000)


def create_trigram_indexes(apps, schema_editor):
    # Free-text search is a substring match; on PostgreSQL a trigram GIN index makes it fast.
    # SQLite scans, which is fine at demo sizes.
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS cards_card_search_text_trgm ON cards_card USING gin (search_text gin_trgm_ops)"
    )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS cards_card_search_text_trgm")


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="search_text",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.RunPython(fill_search_text, migrations.RunPython.noop),
        migrations.RunPython(create_trigram_indexes, drop_trigram_indexes),
    ]
