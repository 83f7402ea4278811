# Statistics became its own app (decks.stats): its eight models leave the decks app's state here
# and enter the stats app's in stats/0001. State only: the tables (decks_statisticsrun, …) stay,
# with their rows, indexes and foreign keys; the stats models name them in Meta.db_table.

from django.db import migrations

# Figure rows reference their run: the run goes last, so the state never holds a dangling reference.
MOVED = [
    'StatisticsChange',
    'CardInclusion',
    'CardPairing',
    'FactionShare',
    'LevelCurvePoint',
    'MonthlyRulerShare',
    'RulerShare',
    'StatisticsRun',
]


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0004_public_list_indexes'),
        ('stats', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]
