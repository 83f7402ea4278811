# The moved models' content types follow them from app label "decks" to "stats", so the
# permissions granted on them (view/…_statisticsrun) and the admin's history of their rows stay
# attached. On a fresh database there is nothing to rename yet: post_migrate creates them as "stats".

from django.db import migrations

MODELS = [
    'statisticsrun',
    'statisticschange',
    'rulershare',
    'factionshare',
    'cardinclusion',
    'cardpairing',
    'levelcurvepoint',
    'monthlyrulershare',
]


def _relabel(apps, schema_editor, old, new):
    content_type = apps.get_model('contenttypes', 'ContentType')
    types = content_type.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        # A row already under the new label (post_migrate ran in between) wins; the old one is left.
        if not types.filter(app_label=new, model=model).exists():
            types.filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, 'decks', 'stats')


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, 'stats', 'decks')


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('stats', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
