from django.core.management.base import BaseCommand, CommandError

from tournaments import ratelimit


class Command(BaseCommand):
    help = (
        "Give a locked-out account or address its attempts back (the current and previous "
        "window of the attempt counter), e.g. an organiser whose username someone kept guessing."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", action="append", default=[], help="an account")
        parser.add_argument("--address", action="append", default=[], help="a client address")

    def handle(self, *args, **options) -> None:
        if not options["username"] and not options["address"]:
            raise CommandError("Name at least one --username or --address.")
        for username in options["username"]:
            ratelimit.forget(limit=ratelimit.LOGIN_ACCOUNT, ident=username.strip().casefold())
            self.stdout.write(f"cleared the password attempts of account {username!r}")
        for address in options["address"]:
            counted_as = ratelimit.client_key(address.strip())
            for limit in (ratelimit.LOGIN_CLIENT, ratelimit.TABLE_CODE, ratelimit.VERIFY):
                ratelimit.forget(limit=limit, ident=counted_as)
            also = f" (counted as {counted_as})" if counted_as != address.strip() else ""
            self.stdout.write(f"cleared the attempts of address {address.strip()}{also}")
