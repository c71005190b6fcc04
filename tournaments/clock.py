"""The round's clock as the pages show it: not started, running, paused or over, and the seconds
left. The organiser moves it through ``services.clock``; the pages count down in the browser from
the seconds the server gave (static/js/clock.js), so a wrong clock on a phone changes nothing.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

from django.http import HttpResponse
from django.utils import timezone

from tournaments.models import Round

NONE, NOT_STARTED, RUNNING, PAUSED, OVER = "none", "not_started", "running", "paused", "over"
SERVER_NOW = "X-Server-Now"


def stamped(response: HttpResponse) -> HttpResponse:
    """A live page's answer with the server's time (ms since the epoch): the page's clock
    counts from it, also when the page was loaded before the clock started, or the fragment was
    rendered earlier for another viewer (static/js/clock.js)."""
    response[SERVER_NOW] = str(int(timezone.now().timestamp() * 1000))
    return response


@dataclass(frozen=True)
class Clock:
    state: str
    seconds_left: int = 0
    ends_at: datetime.datetime | None = None
    now: datetime.datetime | None = None

    @property
    def ends_ms(self) -> int | None:
        """When a running clock ends, in ms since the epoch (what the pages count down to)."""
        return int(self.ends_at.timestamp() * 1000) if self.ends_at else None

    @property
    def now_ms(self) -> int | None:
        return int(self.now.timestamp() * 1000) if self.now else None

    @property
    def shown(self) -> bool:
        return self.state != NONE

    @property
    def over(self) -> bool:
        return self.state == OVER

    @property
    def minutes_seconds(self) -> str:
        """The time left as m:ss (the page's text before the script counts down)."""
        return f"{self.seconds_left // 60}:{self.seconds_left % 60:02d}"


def round_clock(rnd: Round, *, now: datetime.datetime | None = None) -> Clock:
    """The clock of an open round (NONE for a round without one, or not open)."""
    if rnd.status != Round.Status.OPEN:
        return Clock(NONE)
    now = now or timezone.now()
    if rnd.clock_ends_at is not None:
        left = math.ceil((rnd.clock_ends_at - now).total_seconds())
        if left <= 0:
            return Clock(OVER, 0, rnd.clock_ends_at, now)
        return Clock(RUNNING, left, rnd.clock_ends_at, now)
    if rnd.clock_left is not None:
        return Clock(PAUSED, rnd.clock_left)
    minutes = rnd.event.round_minutes
    if minutes:
        return Clock(NOT_STARTED, minutes * 60)
    return Clock(NONE)
