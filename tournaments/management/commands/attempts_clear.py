import ipaddress

from django.core.management.base import BaseCommand, CommandError

from tournaments import ratelimit


def _address(typed: str) -> str:
    """What the counters count for ``typed`` (``ratelimit.client_key``): an address as a log
    shows it, or a network within what is counted (an IPv6 /64 or longer, an IPv4 /32);
    else a CommandError (a wider network would clear nothing)."""
    try:
        return ratelimit.client_key(str(ipaddress.ip_address(typed)))
    except ValueError:
        pass
    try:
        network = ipaddress.ip_network(typed, strict=False)
    except ValueError:
        raise CommandError(f"--address {typed!r} is not an IP address.") from None
    if network.version == 6 and network.prefixlen >= 64:
        return ratelimit.client_key(str(network.network_address))
    if network.version == 4 and network.prefixlen == 32:
        return str(network.network_address)
    raise CommandError(
        f"--address {typed!r}: attempts are counted per IPv4 address and per IPv6 /64 "
        "network; name one of those."
    )


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
        addresses = [(a.strip(), _address(a.strip())) for a in options["address"]]
        if not usernames and not addresses:
            raise CommandError("Name at least one --username or --address.")
        if "" in usernames:
            raise CommandError("--username is empty.")
        try:
            for username in usernames:
                ratelimit.forget(limit=ratelimit.LOGIN_ACCOUNT, ident=username.casefold())
                self.stdout.write(f"cleared the password attempts of account {username!r}")
            for address, counted_as in addresses:
                for limit in (ratelimit.LOGIN_CLIENT, ratelimit.TABLE_CODE, ratelimit.VERIFY):
                    ratelimit.forget(limit=limit, ident=counted_as)
                also = f" (counted as {counted_as})" if counted_as != address else ""
                self.stdout.write(f"cleared the attempts of address {address}{also}")
        except ratelimit.CountersUnavailable:
            raise CommandError(
                "Redis does not answer: the attempts counted there were not cleared (those "
                "counted in the database were). Try again once Redis is back."
            ) from None
