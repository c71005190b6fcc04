from django.core.management.base import BaseCommand, CommandError

from tournaments import play
from tournaments.models import Event
from tournaments.services.analysis import event_analyse


class Command(BaseCommand):
    help = (
        "Analyse an event's boards and play records now, in this process (what each trump "
        "makes with perfect play, the par, what each card cost): for set-ups without an "
        "analysis worker, such as the demo. What is already analysed is kept."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("event", type=int, help="the event's id")

    def handle(self, *args, **options) -> None:
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"There is no event {options['event']}.")
        pending = event_analyse(event=event)
        self.stdout.write(
            f"analysed {len(pending.boards)} boards and {len(pending.records)} play records "
            f"of event {event.pk} (solver: {play.SOLVER})"
        )
