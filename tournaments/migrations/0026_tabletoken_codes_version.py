"""A table token remembers the table's codes version it was issued under, so that a token issued
while the organiser gave the table new codes (after they deleted its tokens) does not act with
the old code. Tokens issued before keep working: they take their table's current version."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def backfill(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    TableToken = apps.get_model("tournaments", "TableToken")
    TableToken.objects.update(
        codes_version=Subquery(
            Table.objects.filter(pk=OuterRef("table_id")).values("codes_version")[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0025_entry_missed_rounds_backfill")]

    operations = [
        migrations.AddField(
            model_name="tabletoken",
            name="codes_version",
            field=models.PositiveIntegerField(default=1, editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
