from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse

from tournaments.demo import build_demo, table_codes


class Command(BaseCommand):
    help = "Build (once) the demonstration club, users and event, and print the logins."

    def handle(self, *args, **options) -> None:
        report = build_demo()
        out = self.stdout
        out.write(self.style.SUCCESS("Botifarra Duplicate demo is ready."))
        for note in report.notes:
            out.write(note)
        out.write("\nLogins (username / password):")
        for username, password, role in report.logins:
            out.write(f"  {username:<10} / {password}   {role}")
        event = report.event
        if event is not None:
            base = settings.SITE_URL.rstrip("/")
            out.write(f"\nEvent: {event.name}  {base}{event.get_absolute_url()}")
            out.write(f"Public page: {base}/e/{event.pk}/")
            out.write(
                "Director's console (round 2 in progress, live): "
                f"{base}{reverse('tournaments:round_detail', args=[event.pk, 2])}"
            )
            out.write(f"Room screen (projector): {base}{reverse('public:screen', args=[event.pk])}")
            if report.evening is not None:
                out.write(
                    f"Club evening (round 2's pairings wait for the organiser): "
                    f"{base}{reverse('tournaments:round_detail', args=[report.evening.pk, 2])}"
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
