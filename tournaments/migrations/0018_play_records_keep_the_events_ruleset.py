"""Play records stored before the fix of tournaments.play.canonical carry the default ruleset,
lliure, when the table left ``ruleset`` out, even in an obligada event: they no longer replayed
against their own board (the referee's replay, the archive's import). A record naming another
ruleset than its event's was refused (play-record.md), so every stored difference is that
default: each gets its event's ruleset."""

from django.db import migrations


def keep_the_events_ruleset(apps, schema_editor):
    PlayRecord = apps.get_model("tournaments", "PlayRecord")
    changed = []
    rows = PlayRecord.objects.select_related("result__table__round__event").exclude(result=None)
    for row in rows.iterator(chunk_size=500):
        ruleset = row.result.table.round.event.ruleset
        if isinstance(row.record, dict) and row.record.get("ruleset") != ruleset:
            row.record = dict(row.record, ruleset=ruleset)
            changed.append(row)
    PlayRecord.objects.bulk_update(changed, ["record"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_table_reads_use_the_unique_index")]

    operations = [migrations.RunPython(keep_the_events_ruleset, migrations.RunPython.noop)]
