import ipaddress

from django.core.management.base import BaseCommand, CommandError

from tournaments import ratelimit


def _address(typed: str) -> str:
    """A client address (IPv4 or IPv6) or network as typed, checked; else a CommandError."""
    try:
        ipaddress.ip_network(typed, strict=False)
    except ValueError:
        raise CommandError(f"--address {typed!r} is not an IP address or network.") from None
    return typed


class Command(BaseCommand):
    help = (
        "Give a locked-out account or address its attempts back (the current and previous "
        "window of the attempt counter), e.g. an organiser whose username someone kept guessing."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", action="append", default=[], help="an account")
        parser.add_argument(
            "--address", action="append", default=[], help="a client address (IPv4 or IPv6)"
        )

    def handle(self, *args, **options) -> None:
        usernames = [u.strip() for u in options["username"]]
        addresses = [_address(a.strip()) for a in options["address"]]
        if not usernames and not addresses:
            raise CommandError("Name at least one --username or --address.")
        if "" in usernames:
            raise CommandError("--username is empty.")
        try:
            for username in usernames:
                ratelimit.forget(limit=ratelimit.LOGIN_ACCOUNT, ident=username.casefold())
                self.stdout.write(f"cleared the password attempts of account {username!r}")
            for address in addresses:
                counted_as = ratelimit.client_key(address)
                for limit in (ratelimit.LOGIN_CLIENT, ratelimit.TABLE_CODE, ratelimit.VERIFY):
                    ratelimit.forget(limit=limit, ident=counted_as)
                also = f" (counted as {counted_as})" if counted_as != address else ""
                self.stdout.write(f"cleared the attempts of address {address}{also}")
        except ratelimit.CountersUnavailable:
            raise CommandError(
                "Redis does not answer: the attempts counted there were not cleared (those "
                "counted in the database were). Try again once Redis is back."
            ) from None
