"""A play record keeps what the table sent (``received``, the JSON text, keys in the order sent)
beside its canonical form (``record``): issue #5 and docs/api.md promise the record "as
received", and the canonical form drops the hands and any key outside play-record.md. What rows
stored before this received is lost; their canonical record is the best there is."""

import json

from django.db import migrations, models


def received_from_record(apps, schema_editor):
    PlayRecord = apps.get_model("tournaments", "PlayRecord")
    for pr in PlayRecord.objects.only("pk", "record").iterator():
        PlayRecord.objects.filter(pk=pr.pk).update(
            received=json.dumps(pr.record, ensure_ascii=False)
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0019_round_first_closed_at")]

    operations = [
        # The one-off default only fills the column; every row gets its record just after.
        migrations.AddField(
            model_name="playrecord",
            name="received",
            field=models.TextField(default=""),
            preserve_default=False,
        ),
        migrations.RunPython(received_from_record, migrations.RunPython.noop),
    ]
