# Statistics became its own app (decks.stats, label "stats"); its tables stay where decks/0003 made them.
#
# State only: the models appear in this app under their old table names (Meta.db_table), and
# decks/0005 removes them from the decks app's state; neither touches the database. A fresh
# database gets the tables from decks/0003 first (the dependency below), an existing one
# already has them, rows included.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('cards', '0005_catalog_version'),
        ('decks', '0004_public_list_indexes'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='StatisticsChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('deck_id', models.BigIntegerField()),
                        ('changed_at', models.DateTimeField(db_index=True)),
                    ],
                    options={
                        'db_table': 'decks_statisticschange',
                    },
                ),
                migrations.CreateModel(
                    name='StatisticsRun',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('succeeded', 'Succeeded'), ('failed', 'Failed')], max_length=10)),
                        ('trigger', models.CharField(choices=[('schedule', 'Schedule'), ('stale', 'Public decks saved'), ('admin', 'Admin'), ('command', 'Command')], default='schedule', max_length=10)),
                        ('started_at', models.DateTimeField()),
                        ('computed_at', models.DateTimeField(blank=True, null=True)),
                        ('decks', models.PositiveIntegerField(default=0)),
                        ('seconds', models.FloatField(blank=True, null=True)),
                        ('error', models.TextField(blank=True)),
                    ],
                    options={
                        'db_table': 'decks_statisticsrun',
                        'ordering': ['-id'],
                        'get_latest_by': 'id',
                        'indexes': [models.Index(fields=['status', '-id'], name='statistics_run_latest')],
                    },
                ),
                migrations.CreateModel(
                    name='RulerShare',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('decks', models.PositiveIntegerField()),
                        ('share', models.FloatField()),
                        ('avg_size', models.FloatField()),
                        ('avg_cnt', models.FloatField()),
                        ('ruler', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.ruler')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ruler_shares', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_rulershare',
                        'ordering': ['-decks'],
                        'indexes': [models.Index(fields=['run', 'ruler'], name='decks_ruler_run_id_264f35_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='MonthlyRulerShare',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('month', models.DateField()),
                        ('decks', models.PositiveIntegerField()),
                        ('share', models.FloatField()),
                        ('ruler', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.ruler')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='monthly_shares', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_monthlyrulershare',
                        'ordering': ['month', '-decks'],
                        'indexes': [models.Index(fields=['run', 'month'], name='decks_month_run_id_ea988e_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='LevelCurvePoint',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('level', models.IntegerField()),
                        ('avg_copies', models.FloatField()),
                        ('ruler', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.ruler')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='level_curve', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_levelcurvepoint',
                        'ordering': ['level'],
                        'indexes': [models.Index(fields=['run', 'ruler'], name='decks_level_run_id_bb73aa_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='FactionShare',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('decks', models.PositiveIntegerField()),
                        ('share', models.FloatField()),
                        ('faction', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.faction')),
                        ('other_faction', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.faction')),
                        ('ruler', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.ruler')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='faction_shares', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_factionshare',
                        'ordering': ['-decks'],
                        'indexes': [models.Index(fields=['run', 'ruler'], name='decks_facti_run_id_f21d1c_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='CardPairing',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('decks', models.PositiveIntegerField()),
                        ('share', models.FloatField()),
                        ('lift', models.FloatField()),
                        ('rank', models.PositiveSmallIntegerField()),
                        ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.card')),
                        ('other_card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.card')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_pairings', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_cardpairing',
                        'ordering': ['rank'],
                        'indexes': [models.Index(fields=['run', 'card', 'rank'], name='decks_cardp_run_id_53a1ad_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='CardInclusion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('decks', models.PositiveIntegerField()),
                        ('inclusion', models.FloatField()),
                        ('avg_copies', models.FloatField()),
                        ('card', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.card')),
                        ('ruler', models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cards.ruler')),
                        ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_inclusions', to='stats.statisticsrun')),
                    ],
                    options={
                        'db_table': 'decks_cardinclusion',
                        'ordering': ['-decks'],
                        'indexes': [models.Index(fields=['run', 'ruler', '-decks'], name='decks_cardi_run_id_03804b_idx'), models.Index(fields=['run', 'card'], name='decks_cardi_run_id_b80750_idx')],
                    },
                ),
            ],
        ),
    ]
