"""The one attempt counter: table codes, passwords and the request budget of ``POST verify``,
counted the same way by the web pages, the API and the admin.

Count first, then decide. Every attempt adds one to its window with an atomic increment and is
refused when the value *that increment returned* is above the limit, so N parallel attempts can
never get more than ``limit`` through (a read followed by a write could: every reader sees the
old count). A right secret gives its unit back (:meth:`Attempt.give_back`), so a room full of
tables behind one router can all join; wrong ones keep theirs until the window ends.

Windows are fixed (``period`` seconds, aligned on the clock). The counter lives in Redis when
``REDIS_URL`` is set, and in the database (:class:`~tournaments.models.AttemptCounter`, one
upsert per attempt) when it is not, or when Redis does not answer: guessing gets no easier while
Redis is down. A database count made inside a request's transaction that a refusal rolls back
(an ``Idempotency-Key``'s) is made again after it (``tournaments.kept``).

What is counted under which key (docs/operations.md, "Guessing"):

- table codes: per client address, one budget for the web form and the API;
- passwords (site login, API account token, admin login): per client address, then per
  username; the username's counter moves only while the address's allows the attempt, so a
  client that is already refused cannot push someone else's account over its limit;
- ``POST verify``: per account, table token or address (every request counts).

The client address is ``REMOTE_ADDR`` as ``config.proxies`` leaves it (taken from
``X-Forwarded-For`` only behind the configured number of trusted proxies). Identifiers are
hashed with the secret key before they become keys: the store holds no address or username.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import redis
from django.conf import settings
from django.db import connection
from django.db.models import F
from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from tournaments import kept, redis_outage
from tournaments.models import AttemptCounter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """At most ``limit`` attempts per fixed window of ``period`` seconds."""

    scope: str
    limit: int
    period: int = 60


TABLE_CODE = Limit("table-code", 20)
LOGIN_CLIENT = Limit("login-client", 10)
LOGIN_ACCOUNT = Limit("login-account", 30, 15 * 60)
VERIFY = Limit("verify", 120)
SIGNUP = Limit("signup", 10, 60 * 60)  # sign-ups of pairs from one address per hour

REDIS_PREFIX = "botifarra:attempts:"


def _now() -> float:
    return time.time()


def _slot(period: int) -> int:
    return int(_now()) // period


def client_ip(request: HttpRequest) -> str:
    """Who the counters count: the client's IPv4 address, or its IPv6 /64 network.

    REMOTE_ADDR, which config.proxies.TrustedProxyMiddleware sets from X-Forwarded-For only
    behind TRUSTED_PROXIES proxies: a header any client can send must not make a new client.
    A single IPv6 subscriber holds a whole /64 (2**64 addresses): counted address by address,
    one connection would guess table codes without end."""
    return client_key(request.META.get("REMOTE_ADDR") or "unknown")


def client_key(address: str) -> str:
    """What an address is counted as (``client_ip``): an IPv6 address's /64 network, an
    IPv4-mapped address's IPv4 one; anything else (a network typed as such) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address


@dataclass(frozen=True)
class Counted:
    """One counter after its increment: the value the increment returned, and where it lives."""

    limit: Limit
    key: str
    hits: int
    backend: str  # "redis" or "database"
    retry_after: int

    @property
    def over(self) -> bool:
        return self.hits > self.limit.limit


@dataclass
class Attempt:
    """An attempt already counted; refused when any of its counters went over the limit."""

    counted: list[Counted] = field(default_factory=list)

    @property
    def blocked(self) -> bool:
        return any(c.over for c in self.counted)

    @property
    def retry_after(self) -> int:
        """Seconds until the refusing window ends (0 when the attempt is allowed)."""
        return max((c.retry_after for c in self.counted if c.over), default=0)

    def give_back(self) -> None:
        """The attempt does not count: a right secret (right attempts never add up), or a
        sign-up refused for what it holds (the limit counts the pairs signed up)."""
        if self.blocked:
            return
        for c in self.counted:
            _add(c.key, -1, c.limit, backend=c.backend)
        self.counted = []


def _key(limit: Limit, ident: str) -> str:
    digest = salted_hmac("tournaments.ratelimit", f"{limit.scope}\0{ident}").hexdigest()[:32]
    return f"{limit.scope}:{digest}:{_slot(limit.period)}"


def count(*, limit: Limit, ident: str) -> Counted:
    """Add one attempt of ``ident`` to its current window of ``limit``."""
    key = _key(limit, ident)
    hits, backend = _add(key, 1, limit)
    counted = Counted(
        limit=limit,
        key=key,
        hits=hits,
        backend=backend,
        retry_after=max(1, limit.period - int(_now()) % limit.period),
    )
    if hits == limit.limit + 1:
        log.warning("attempt limit %s reached (%s attempts)", limit.scope, limit.limit)
    return counted


def attempt(*counters: tuple[Limit, str]) -> Attempt:
    """Count one attempt under each ``(limit, ident)`` in turn, stopping at the first refusal."""
    result = Attempt()
    for limit, ident in counters:
        result.counted.append(count(limit=limit, ident=ident))
        if result.blocked:
            break
    return result


def table_code_attempt(*, request: HttpRequest) -> Attempt:
    return attempt((TABLE_CODE, client_ip(request)))


def signup_attempt(*, request: HttpRequest) -> Attempt:
    return attempt((SIGNUP, client_ip(request)))


def login_attempt(*, request: HttpRequest, username: str) -> Attempt:
    return attempt(
        (LOGIN_CLIENT, client_ip(request)),
        (LOGIN_ACCOUNT, (username or "").strip().casefold()),
    )


class CountersUnavailable(Exception):
    """Redis did not answer: the windows it holds were not cleared (the database's were)."""


def forget(*, limit: Limit, ident: str) -> None:
    """Clear ``ident``'s current and previous windows (an operator's unlock), in the database
    and in Redis; Redis is asked even while this process leaves it alone (an operator wants to
    know), and :class:`CountersUnavailable` says it did not answer."""
    slot = _slot(limit.period)
    keys = [_key(limit, ident).rsplit(":", 1)[0] + f":{s}" for s in (slot, slot - 1)]
    AttemptCounter.objects.filter(key__in=keys).delete()
    if not settings.REDIS_URL:
        return
    redis_outage.reset()
    client = _redis_client()
    assert client is not None
    try:
        client.delete(*(REDIS_PREFIX + k for k in keys))
    except redis.RedisError as exc:
        redis_outage.failed("attempt counters")
        raise CountersUnavailable from exc


def purge_expired() -> int:
    """Delete the database windows that have ended; how many were deleted."""
    deleted, _by_model = AttemptCounter.objects.filter(expires_at__lt=_utcnow()).delete()
    return deleted


# --- storage ---------------------------------------------------------------------------------

_clients: dict[str, redis.Redis] = {}


def _utcnow() -> datetime:
    return datetime.fromtimestamp(_now(), tz=UTC)


def _redis_client() -> redis.Redis | None:
    """The counters' Redis client; None without Redis, or while it does not answer
    (``redis_outage``): the database counts meanwhile."""
    url = settings.REDIS_URL
    if not url or not redis_outage.available():
        return None
    client = _clients.get(url)
    if client is None:
        timeout = settings.REDIS_SOCKET_TIMEOUT
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        _clients[url] = client
    return client


def _add(key: str, delta: int, limit: Limit, *, backend: str | None = None) -> tuple[int, str]:
    """Add ``delta`` to ``key`` atomically; (the value after it, the backend that holds it)."""
    # Windows live two periods: long enough for any window a test or a slow request still reads.
    ttl = 2 * limit.period
    if backend in (None, "redis"):
        client = _redis_client()
        if client is not None:
            try:
                with client.pipeline(transaction=True) as pipe:
                    pipe.incrby(REDIS_PREFIX + key, delta)
                    pipe.expire(REDIS_PREFIX + key, ttl)
                    value, _ok = pipe.execute()
                return int(value), "redis"
            except redis.RedisError:
                redis_outage.failed("attempt counters (the database counts meanwhile)")
    if delta < 0:
        _db_decrease(key, delta)
        kept.redo_if_rolled_back(lambda: _db_decrease(key, delta))
        return 0, "database"
    expires_at = _utcnow() + timedelta(seconds=ttl)
    hits = _db_increment(key, delta, expires_at)
    # Counted inside a request's transaction, the attempt must outlive its rollback.
    kept.redo_if_rolled_back(lambda: _db_increment(key, delta, expires_at))
    if hits == delta:  # a new window: a good moment to drop the ended ones
        purge_expired()
    return hits, "database"


def _db_decrease(key: str, delta: int) -> None:
    AttemptCounter.objects.filter(key=key, hits__gt=0).update(hits=F("hits") + delta)


def _db_increment(key: str, delta: int, expires_at: datetime) -> int:
    # One statement, atomic on PostgreSQL and SQLite alike: concurrent attempts on one key
    # serialise on its row and each gets its own value back.
    q = connection.ops.quote_name
    table = q(AttemptCounter._meta.db_table)
    sql = (
        f"INSERT INTO {table} ({q('key')}, {q('hits')}, {q('expires_at')}) VALUES (%s, %s, %s) "
        f"ON CONFLICT ({q('key')}) DO UPDATE SET {q('hits')} = {table}.{q('hits')} + %s "
        f"RETURNING {q('hits')}"
    )
    field_ = AttemptCounter._meta.get_field("expires_at")
    stored = field_.get_db_prep_value(expires_at, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, delta, stored, delta])
        return int(cursor.fetchone()[0])
