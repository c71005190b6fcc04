"""The rounds a pair reinstated before 0023 missed while it was withdrawn: 0023 added the field
empty, so such a pair counted as placed in them (the tournament file lacked ``missed=`` and the
checker reported the program's own pairings as differences). Each reinstatement the audit trail
records without its ``missed_rounds`` (the code before 0023) names the pair and the round it
withdrew after: the rounds started since then that neither seated, rested nor gave the pair the
bye, up to a withdrawal still standing, are the rounds it missed, as ``reinstate_plan`` finds
them now."""

from django.db import migrations
from django.db.models import Q


def backfill(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    Entry = apps.get_model("tournaments", "Entry")
    Round = apps.get_model("tournaments", "Round")
    for audit in AuditEntry.objects.filter(action="entry_reinstated").order_by("pk"):
        changes = audit.changes or {}
        if "missed_rounds" in changes:
            continue  # recorded by the code that keeps them
        try:
            number = changes["entry"][1]
            withdrew_after = changes["withdrawn_after_round"][0]
        except (KeyError, IndexError, TypeError):
            continue
        entry = Entry.objects.filter(event_id=audit.event_id, number=number).first()
        if entry is None or not isinstance(withdrew_after, int):
            continue
        rounds = Round.objects.filter(event_id=audit.event_id, number__gt=withdrew_after).exclude(
            status="pending"
        )
        if entry.withdrawn_after_round is not None:
            rounds = rounds.filter(number__lte=entry.withdrawn_after_round)
        missed = rounds.exclude(
            Q(tables__ns=entry) | Q(tables__ew=entry) | Q(bye=entry) | Q(rests=entry)
        ).values_list("number", flat=True)
        merged = sorted(set(entry.missed_rounds or []) | set(missed))
        if merged != (entry.missed_rounds or []):
            entry.missed_rounds = merged
            entry.save(update_fields=["missed_rounds"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0024_account_token"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
