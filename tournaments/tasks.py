"""Celery tasks: thin wrappers that take ids, recompute from scratch, and so are safe to repeat."""

import logging
import random
import uuid

from celery import Task, shared_task
from celery.contrib.django.task import DjangoTask
from django.conf import settings
from django.core.cache import cache

from tournaments.models import Event
from tournaments.queue import STANDINGS_LOCK, STANDINGS_QUEUED
from tournaments.scoring_io import stale_events
from tournaments.services import ServiceError
from tournaments.services.events import boards_generate
from tournaments.services.mailings import (
    registration_email_send,
    reminders_send,
    results_mails_send,
)
from tournaments.services.pairings import pairings_propose
from tournaments.services.ratings import ratings_recompute, ratings_update
from tournaments.services.standings import standings_recompute
from tournaments.services.webhooks import deliveries_lost, delivery_attempt

log = logging.getLogger(__name__)

STANDINGS_RUNS = "standings:runs:{}"  # how many recomputations ran (operations and tests read it)
STANDINGS_OVERLAP = "standings:overlap:{}"
RATINGS_RUNS = "ratings:runs:{}"  # rating runs per event, whatever their outcome (tests read it)
# How long a standings lock lives. A run killed with the lock held (worker lost, OOM, SIGKILL)
# blocks the next runs of that event this long; its redelivered message keeps retrying until
# then (see ``lock_retry_delays``). Settable as ``settings.STANDINGS_LOCK_TIMEOUT`` or the
# environment variable of the same name; keep it above the longest recomputation.
# A busy lock is nearly always a run in progress, a second or two from its end: waiting up to
# 30 s behind it (as the waits doubling from 1 s did) could only delay the standings. Many
# short waits outlast a lock left behind by a killed worker as well.
LOCK_RETRY_MAX_SECONDS = 2


def lock_timeout() -> int:
    return int(settings.STANDINGS_LOCK_TIMEOUT)


def lock_retry_delays(timeout: int) -> list[int]:
    """Waits between tries while the lock is busy: 1 s, then 2 s each time.

    There are enough of them that, even at the low end of the jitter (half of each wait), they
    outlast the lock's lifetime: a lock left behind by a killed worker expires before the
    redelivered recomputation gives up, so the standings do not stay stale.
    """
    cap = max(1, min(LOCK_RETRY_MAX_SECONDS, timeout))
    delays: list[int] = []
    while sum(delays) / 2 < timeout + 5:
        delays.append(min(2 ** len(delays), cap))
    return delays


class LockBusy(Exception):
    """Another worker holds the lock for this event; retry shortly."""


class BaseTask(DjangoTask):
    """Queued after commit (``delay_on_commit``), retried with backoff when a lock is busy."""

    autoretry_for = (LockBusy,)
    retry_backoff = 1
    retry_backoff_max = 30
    retry_jitter = True
    max_retries = 8
    acks_late = True


@shared_task(base=BaseTask, bind=True)
def generate_boards(self: Task, event_id: int) -> int:
    event = Event.objects.get(pk=event_id)
    return boards_generate(event=event)


@shared_task(base=BaseTask, bind=True)
def propose_pairings(self: Task, event_id: int, round_number: int) -> int:
    """Pair round ``round_number`` once its previous round has closed: the tables proposed, or
    0 when the round exists already (proposed by hand meanwhile: left as it is) or cannot be
    paired (the method has no such round, too few pairs: the dashboard says why)."""
    try:
        return pairings_propose(event_id, round_number, replace=False)
    except (ServiceError, Event.DoesNotExist) as exc:
        log.info("round %s of event %s not proposed: %s", round_number, event_id, exc)
        return 0


# Retries on a busy lock are its own (``lock_retry_delays``), not the base's eight.
@shared_task(base=BaseTask, bind=True, autoretry_for=())
def recompute_standings(self: Task, event_id: int) -> int:
    token = uuid.uuid4().hex
    lock = STANDINGS_LOCK.format(event_id)
    timeout = lock_timeout()
    if not cache.add(lock, token, timeout=timeout):
        delays = lock_retry_delays(timeout)
        delay = delays[min(self.request.retries, len(delays) - 1)]
        raise self.retry(
            exc=LockBusy(event_id),
            countdown=delay * random.uniform(0.5, 1.0),
            max_retries=len(delays),
        )
    try:
        # From here on, new results need a new run: let the next request queue one.
        cache.delete(STANDINGS_QUEUED.format(event_id))
        counted = standings_recompute(event_id)
        _incr(STANDINGS_RUNS.format(event_id))
        return counted
    finally:
        # Two runs can only overlap if the lock expired under this one (a run longer than the
        # lock timeout): then the lock is no longer ours. Recorded so that it cannot go unseen.
        # (A counter of active runs cannot tell: a killed run never decrements it.)
        if cache.get(lock) == token:
            cache.delete(lock)
        else:
            log.error(
                "standings lock of event %s expired during a recomputation; runs may have "
                "overlapped: raise STANDINGS_LOCK_TIMEOUT",
                event_id,
            )
            cache.set(STANDINGS_OVERLAP.format(event_id), 1, timeout=None)


def _incr(key: str, delta: int = 1) -> int:
    cache.add(key, 0, timeout=None)
    return cache.incr(key, delta)


@shared_task(base=BaseTask, bind=True)
def catch_up_standings(self: Task) -> int:
    """Queue a recomputation for every event whose standings are stale (after an outage)."""
    count = 0
    for event in stale_events():
        recompute_standings.delay(event.pk)
        count += 1
    return count


@shared_task(base=BaseTask, bind=True)
def update_ratings(self: Task, event_id: int) -> str:
    """Take a finished event into its club's ratings (a no-op when it is in already)."""
    outcome = ratings_update(event_id)
    _incr(RATINGS_RUNS.format(event_id))
    return outcome


@shared_task(base=BaseTask, bind=True)
def recompute_ratings(self: Task, club_id: int) -> int:
    """Recompute a club's ratings from scratch over its whole history."""
    return ratings_recompute(club_id)


# An SMTP server that is down, times out or refuses for now (4xx) is retried, a few times, with
# backoff; an address refused for good (5xx) is passed over (services/mailings.py).
@shared_task(base=BaseTask, bind=True, autoretry_for=(OSError,), max_retries=5)
def send_registration_email(self: Task, registration_id: int, kind: str) -> int:
    return registration_email_send(registration_id, kind)


# Its retries are its own: the back-off (WEBHOOK_RETRY_BASE_SECONDS, doubling) and the number of
# tries (WEBHOOK_MAX_ATTEMPTS) are settings, and a receiver's refusal is not an exception.
@shared_task(base=BaseTask, bind=True, autoretry_for=())
def deliver_webhook(self: Task, delivery_id: int) -> str:
    """One try at a webhook delivery; on failure, the next one later. Without a worker (tasks
    in-process: the demo) a delivery is tried once, in the request: re-send it from the page."""
    delay = delivery_attempt(
        delivery_id, tries=self.request.retries + 1, may_retry=not self.request.is_eager
    )
    if delay is None:
        return "done"
    raise self.retry(countdown=delay, max_retries=settings.WEBHOOK_MAX_ATTEMPTS)


@shared_task(base=BaseTask, bind=True, autoretry_for=(OSError,), max_retries=5)
def send_checkin_reminders(self: Task, event_id: int) -> int:
    """The check-in reminder to each confirmed pair not yet reminded (never twice)."""
    return reminders_send(event_id)


@shared_task(base=BaseTask, bind=True, autoretry_for=(OSError,), max_retries=5)
def send_results_emails(self: Task, event_id: int) -> int:
    """Each player's personal results of a finished, published event (never twice)."""
    return results_mails_send(event_id)


@shared_task(base=BaseTask, bind=True)
def catch_up_webhooks(self: Task) -> int:
    """Queue again the webhook deliveries that no task will try any more (beat, every 5 min)."""
    lost = deliveries_lost()
    for delivery_id in lost:
        deliver_webhook.delay(delivery_id)
    return len(lost)
