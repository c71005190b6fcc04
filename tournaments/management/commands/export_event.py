import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.archive import event_archive
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Write an event's archive (docs/formats.md, the event archive) to standard output; "
        "the seed is in it only once the event is finished."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("event", type=int, help="the event's id")

    def handle(self, *args, **options) -> None:
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"no event with id {options['event']}")
        document = event_archive(event, exported_at=timezone.now())
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
