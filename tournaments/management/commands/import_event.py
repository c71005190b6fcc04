import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, no_translations

from tournaments.actors import Actor
from tournaments.jsonio import JSONRejected, read_json
from tournaments.services import ServiceError
from tournaments.services.archive import event_import

# An archive read from a file may be as large as the event (a few MB for a big one).
MAX_BYTES = 256 * 1024 * 1024
MAX_DEPTH = 32


class Command(BaseCommand):
    help = (
        "Re-create a finished event from its archive (GET /api/v1/events/{id}/archive or "
        "manage.py export_event; docs/formats.md). Nothing is stored unless every play record "
        "replays to its archived verdict and the standings recomputed here equal the archived "
        "ones. The account given by --user becomes the event's organiser."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the archive, a JSON file ('-' for standard input)")
        parser.add_argument("--user", required=True, help="the username of the new organiser")

    @no_translations  # the operator's messages in one language, the docs' (English)
    def handle(self, *args, **options) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no account named {options['user']!r}")
        path = options["file"]
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            document = read_json(raw, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)
            if not isinstance(document, dict):
                raise CommandError("an archive is a JSON object")
            event = event_import(document=document, actor=Actor(user=user))
        except JSONRejected as exc:
            raise CommandError(exc.message) from None
        except ServiceError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise CommandError(f"{where}{exc.message}") from None
        self.stdout.write(
            f"imported event {event.pk}: {event.name} ({event.entries.count()} pairs, "
            f"{event.rounds.count()} rounds)"
        )
