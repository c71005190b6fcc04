import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Club
from tournaments.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute the player ratings of clubs from scratch over their whole history (every "
        "finished event of the club, in order of date). All clubs unless --club is given."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", type=int, action="append", default=[], help="a club's id")

    def handle(self, *args, **options) -> None:
        clubs = Club.objects.all()
        if options["club"]:
            clubs = clubs.filter(pk__in=options["club"])
            missing = set(options["club"]) - set(clubs.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no club with id {', '.join(map(str, sorted(missing)))}")
        for club in clubs.order_by("pk"):
            started = time.monotonic()
            count = ratings_recompute(club.pk)
            took = time.monotonic() - started
            self.stdout.write(f"{club.name}: {count} events rated in {took:.1f} s")
