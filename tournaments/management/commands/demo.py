import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from tournaments import site
from tournaments.demo import DemoRefused, build_demo, table_codes


class Command(BaseCommand):
    help = "Build (once) the demonstration club, users and event, and print the logins."

    def add_arguments(self, parser: CommandParser) -> None:
        # No request exists yet: the links printed here name the address runserver will use
        # (`make demo` passes HOST and PORT); SITE_URL, when set, wins.
        parser.add_argument("--host", default=os.environ.get("HOST", ""))
        parser.add_argument("--port", type=int, default=os.environ.get("PORT") or None)

    def handle(self, *args, **options) -> None:
        configured = settings.SITE_URL
        if not (configured or "").strip():
            # The e-mails the demo's registrations send (printed on the console) are made
            # without a request: without this they would name the default port.
            settings.SITE_URL = site.site_url(host=options["host"], port=options["port"])
        try:
            report = build_demo()
        except DemoRefused as exc:
            raise CommandError(str(exc)) from None
        finally:
            settings.SITE_URL = configured
        out = self.stdout
        out.write(self.style.SUCCESS("Botifarra Duplicate demo is ready."))
        for note in report.notes:
            out.write(note)
        out.write("\nLogins (username / password):")
        for username, password, role in report.logins:
            out.write(f"  {username:<10} / {password}   {role}")
        event = report.event
        if event is not None:
            base = site.site_url(host=options["host"], port=options["port"])
            out.write(f"\nEvent: {event.name}  {base}{event.get_absolute_url()}")
            out.write(f"Public page: {base}/e/{event.pk}/")
            out.write(
                "Director's console (round 2 in progress, live): "
                f"{base}{reverse('tournaments:round_detail', args=[event.pk, 2])}"
            )
            out.write(f"Room screen (projector): {base}{reverse('public:screen', args=[event.pk])}")
            out.write(
                "Organisers and referees (a co-organiser appointed, an invitation pending): "
                f"{base}{reverse('tournaments:event_roles', args=[event.pk])}"
            )
            if report.invitation_token:
                link = reverse("invitation_accept", args=[report.invitation_token])
                out.write(f"  the pending referee's invitation link (shown once): {base}{link}")
            else:
                out.write("  (the invitation link was printed when the demo was built)")
            out.write(f"Crosstable: {base}{reverse('public:crosstable', args=[event.pk])}")
            out.write(
                f"Pairings list of round 2: {base}{reverse('public:pairings', args=[event.pk])}"
                "?round=2"
            )
            out.write(f"Check the boards: {base}{reverse('public:check_boards', args=[event.pk])}")
            if report.evening is not None:
                out.write(
                    f"Club evening (round 2's pairings wait for the organiser): "
                    f"{base}{reverse('tournaments:round_detail', args=[report.evening.pk, 2])}"
                )
            if report.round_robin is not None:
                out.write(
                    "Round robin club evening (round 3 proposed, one pair resting): "
                    f"{base}{reverse('tournaments:round_detail', args=[report.round_robin.pk, 3])}"
                )
            if report.teams is not None:
                out.write(
                    "Team event (two rounds played), the team standings: "
                    f"{base}{reverse('public:team_standings', args=[report.teams.pk])}"
                )
            if report.league is not None:
                out.write(
                    "Club league (three match days played): "
                    f"{base}{reverse('leagues:league', args=[report.league.pk])}"
                )
            if report.groups is not None:
                out.write(
                    "Groups and knockout (semi-finals in progress), the bracket: "
                    f"{base}{reverse('public:groups', args=[report.groups.pk])}"
                )
            if report.season is not None:
                club = report.season.club_id
                season_url = reverse("clubs:season", args=[club, report.season.pk])
                out.write(
                    f"The club (ratings, seasons): {base}{reverse('clubs:club', args=[club])}"
                )
                out.write(f"Season of six finished evenings: {base}{season_url}")
            if report.open_event is not None:
                signup = reverse("public:register", args=[report.open_event.pk])
                out.write(f"Open championship taking sign-ups: {base}{signup}")
            codes = table_codes(event)
            if codes:
                out.write(f"Codes of the open round, one per side (enter them at {base}/table/):")
                for table in codes:
                    out.write(
                        f"  table {table.number}: NS {table.code_ns}  EW {table.code_ew}  "
                        f"({table.ns.pair.name} v {table.ew.pair.name})"
                    )
