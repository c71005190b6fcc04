"""A round keeps when it was first closed (``Round.first_closed_at``): a round reopened for
results takes from a table only the boards it had unlocked before then, since closing showed the
others' cards and travellers. A closed round was first closed no later than ``closed_at``; a
round reopened before this migration was closed at its earliest ``round_closed`` audit entry."""

from django.db import migrations, models


def first_closes(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    closes: dict[tuple[int, int], object] = {}
    for event_id, changes, when in (
        AuditEntry.objects.filter(action="round_closed")
        .order_by("created_at", "pk")
        .values_list("event_id", "changes", "created_at")
        .iterator(chunk_size=500)
    ):
        number = (changes or {}).get("round", [None, None])[-1]
        if isinstance(number, int):
            closes.setdefault((event_id, number), when)
    changed = []
    for rnd in Round.objects.iterator(chunk_size=500):
        first = closes.get((rnd.event_id, rnd.number))
        candidates = [t for t in (first, rnd.closed_at) if t is not None]
        if candidates:
            rnd.first_closed_at = min(candidates)
            changed.append(rnd)
    Round.objects.bulk_update(changed, ["first_closed_at"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0018_play_records_keep_the_events_ruleset")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="first_closed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="first closed at"),
        ),
        migrations.RunPython(first_closes, migrations.RunPython.noop),
    ]
