
import django.db.models.deletion
import tournaments.models
from django.db import migrations, models


def give_ew_codes(apps, schema_editor):
    """The old single table code becomes NS's; EW gets a fresh one, unique like the others."""
    Table = apps.get_model("tournaments", "Table")
    in_use = set(Table.objects.values_list("code_ns", flat=True))
    for table in Table.objects.all():
        code = tournaments.models.new_table_code()
        while code in in_use:
            code = tournaments.models.new_table_code()
        in_use.add(code)
        table.code_ew = code
        table.save(update_fields=["code_ew"])


def unlock_entered_boards(apps, schema_editor):
    """A table that had entered a result could see the board's cards: keep it so."""
    BoardResult = apps.get_model("tournaments", "BoardResult")
    BoardUnlock = apps.get_model("tournaments", "BoardUnlock")
    rows = BoardResult.objects.values_list("table_id", "board_id", "entered_by", "created_at")
    for table_id, board_id, actor, created_at in rows:
        unlock = BoardUnlock.objects.create(
            table_id=table_id, board_id=board_id, reason="result", actor=actor
        )
        BoardUnlock.objects.filter(pk=unlock.pk).update(created_at=created_at)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='BoardUnlock',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.CharField(choices=[('result', 'Result stored'), ('declared', 'Declared played')], max_length=10, verbose_name='reason')),
                ('actor', models.CharField(max_length=120, verbose_name='who')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='when')),
            ],
            options={
                'ordering': ['created_at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='TableToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('side', models.CharField(max_length=2)),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.RemoveConstraint(
            model_name='table',
            name='table_code_unique',
        ),
        migrations.RenameField(model_name='table', old_name='code', new_name='code_ns'),
        migrations.AddField(
            model_name='event',
            name='corrected_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='round',
            name='ruling_open',
            field=models.BooleanField(default=False, verbose_name='reopened for rulings'),
        ),
        migrations.AlterField(
            model_name='table',
            name='code_ns',
            field=models.CharField(db_index=True, default=tournaments.models.new_table_code, max_length=6, verbose_name='NS code'),
        ),
        migrations.AddField(
            model_name='table',
            name='code_ew',
            field=models.CharField(db_index=True, default='', max_length=6, verbose_name='EW code'),
        ),
        migrations.RunPython(give_ew_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='table',
            name='code_ew',
            field=models.CharField(db_index=True, default=tournaments.models.new_table_code, max_length=6, verbose_name='EW code'),
        ),
        migrations.AddField(
            model_name='table',
            name='codes_version',
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AlterField(
            model_name='dispute',
            name='reason',
            field=models.CharField(choices=[('conflict', 'The two pairs entered different results'), ('illegal_play', 'The play record has an illegal card'), ('record_mismatch', 'A short result contradicts a play record'), ('player_request', 'A player asked for a referee'), ('referee_review', 'A referee reviews the board'), ('correction', 'The organiser corrects a result after the event')], max_length=20, verbose_name='reason'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(fields=('round', 'code_ns'), name='table_code_ns_unique'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(fields=('round', 'code_ew'), name='table_code_ew_unique'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('code_ns', models.F('code_ew')), _negated=True), name='table_two_codes'),
        ),
        migrations.AddField(
            model_name='boardunlock',
            name='board',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='unlocks', to='tournaments.board'),
        ),
        migrations.AddField(
            model_name='boardunlock',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='unlocks', to='tournaments.table'),
        ),
        migrations.AddField(
            model_name='tabletoken',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tokens', to='tournaments.table'),
        ),
        migrations.AddConstraint(
            model_name='boardunlock',
            constraint=models.UniqueConstraint(fields=('table', 'board'), name='one_unlock_per_table_board'),
        ),
        migrations.RunPython(unlock_entered_boards, migrations.RunPython.noop),
    ]
