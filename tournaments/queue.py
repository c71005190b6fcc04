"""Queueing background work: what services call, without importing the tasks.

Services write and then ask for work here; the tasks (``tasks.py``) import the services. Tasks
are found by name in the Celery app's registry at call time, so no module imports back.
"""

import logging
import time

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.utils import timezone

from tournaments import redis_outage
from tournaments.models import Event
from tournaments.prepared import Prepared
from tournaments.rows import update_pk
from tournaments.scoring_io import stale_events

log = logging.getLogger(__name__)

STANDINGS_QUEUED = "standings:queued:{}"
STANDINGS_LOCK = "standings:lock:{}"  # held by the task while it recomputes


def _task(name: str, module: str = "tasks"):  # noqa: ANN202 - a Celery task
    full = f"tournaments.{module}.{name}"
    if full not in current_app.tasks:
        # A web process imports no task module itself: let Celery's autodiscovery load them.
        current_app.loader.import_default_modules()
    return current_app.tasks[full]


def _after_commit(name: str, *args: object, module: str = "tasks") -> None:
    """Queue task ``name`` once the current transaction commits. A broker that cannot be
    reached loses the task, never the request that asked for it: its data is committed, and
    its answer must not be an error saying nothing was stored (docs/operations.md, "When
    Redis dies mid-event", says how each lost task is made up for)."""

    def enqueue() -> None:
        if not redis_outage.available():
            log.warning("could not queue %s%r: Redis does not answer", name, args)
            return
        try:
            _task(name, module).delay(*args)
        except Exception:  # noqa: BLE001 - the broker is down: what was stored stands
            redis_outage.failed(f"queuing {name}{args!r}")

    transaction.on_commit(enqueue)


def generate_boards(event: Event) -> None:
    """Deal the event's boards in the background, after the current transaction commits."""
    _after_commit("generate_boards", event.pk)


def propose_round_after(event: Event, number: int) -> None:
    """Queue the proposal of the round after ``number`` (which closed, or whose rulings
    ended), after commit; none after the last round. A lost task loses nothing: the
    organiser's Propose does the same."""
    if number < event.rounds_count:
        _after_commit("propose_pairings", event.pk, number + 1)


def request_analysis(event: Event) -> None:
    """Queue the perfect-play analysis of the event's boards and play records not yet analysed,
    after commit, on the ``analysis`` queue (``tasks_analysis``).

    Skipped when tasks run in-process (the demo, no Redis): a solve takes seconds to minutes
    and would hold up the request that dealt the boards or closed the round; there
    ``manage.py analyse_event`` does it. A broker outage loses nothing either: the next
    request (a round closing) queues whatever is still missing.
    """
    if not settings.ANALYSIS_AUTO or current_app.conf.task_always_eager:
        return
    _after_commit("analyse_event", event.pk, module="tasks_analysis")


def request_record_analysis(play_record_id: int) -> None:
    """Queue the card costs of a play record just stored, after commit, as
    :func:`request_analysis` does (and skipped where it is): the referee's desk needs them
    while the round is still open."""
    if not settings.ANALYSIS_AUTO or current_app.conf.task_always_eager:
        return
    _after_commit("analyse_record", play_record_id, module="tasks_analysis")


def request_standings(event: Event) -> None:
    """After commit, mark the standings stale and queue one recomputation.

    Bursts coalesce: while a recomputation is queued and not yet started, further requests
    queue nothing more, and a process marks an event at most once a second. If the broker is
    down the request is kept in the database (``standings_requested_at``) and the next request
    or ``catch_up_standings`` picks it up.
    """
    event_id = event.pk
    # One request per event per transaction: a transaction that stores fifty results (an import,
    # the demo) queues one recomputation, not fifty. Django drops the callbacks of a rolled-back
    # transaction, so a request is never lost by being skipped here.
    # (A callback that already ran does not count: tests that run each request's callbacks
    # inside one transaction find them still listed.)
    connection = transaction.get_connection()
    if any(
        getattr(entry[1], "standings_event", None) == event_id
        and not getattr(entry[1], "ran", False)
        for entry in connection.run_on_commit
    ):
        return

    def enqueue() -> None:
        enqueue.ran = True  # type: ignore[attr-defined]
        # The mark is the backstop of a request the broker loses (catch_up_standings finds it).
        # After commit, not inside the result's transaction: every table of the event writes
        # this one row, and holding its lock until commit would serialise all submissions.
        # Under a burst a process writes it at most once a second per event, and again
        # whenever the queuing fails. Before queuing: a recomputation run in-process (the
        # demo) must come after it.
        marked = _mark_due(event_id) and _try_mark_stale(event_id)
        queued = _queue_recompute(event_id, countdown=settings.STANDINGS_COALESCE_SECONDS)
        if not queued and not marked:
            _try_mark_stale(event_id)

    enqueue.standings_event = event_id  # type: ignore[attr-defined]
    transaction.on_commit(enqueue)


MARK_EVERY_S = 1.0
_MARKED_AT: dict[int, float] = {}  # per event, the monotonic time this process last marked it


def _mark_due(event_id: int) -> bool:
    return time.monotonic() - _MARKED_AT.get(event_id, float("-inf")) >= MARK_EVERY_S


def _mark_stale(event_id: int) -> None:
    update_pk(Event, event_id, standings_requested_at=timezone.now())
    if len(_MARKED_AT) > 1000:
        _MARKED_AT.clear()
    _MARKED_AT[event_id] = time.monotonic()


def _try_mark_stale(event_id: int) -> bool:
    try:
        _mark_stale(event_id)
    except DatabaseError:
        # The result is committed; the standings still see it as a change (stale_events).
        log.error("could not mark standings stale for event %s", event_id, exc_info=True)
        return False
    return True


# Per event, the monotonic time until which the recomputation this process queued cannot have
# started (its countdown runs): until then a new request is already covered by it, without
# asking the cache. Only for a real worker: a task run in-process starts at once.
_QUEUED_UNTIL: dict[int, float] = {}


def _tasks_run_in_process() -> bool:
    return bool(current_app.conf.task_always_eager)


def _queue_recompute(event_id: int, *, countdown: float) -> bool:
    """Queue one recomputation unless one is queued and not started; False if it could not."""
    now = time.monotonic()
    if _QUEUED_UNTIL.get(event_id, 0.0) > now:
        return True
    if not redis_outage.available():
        return False
    key = STANDINGS_QUEUED.format(event_id)
    try:
        if not cache.add(key, timezone.now().isoformat(), timeout=60):
            return True  # queued by another request, not started yet
    except Exception:  # noqa: BLE001 - a cache outage must never lose a stored result
        redis_outage.failed(f"standings of event {event_id} (they stay stale)")
        return False
    try:
        _task("recompute_standings").apply_async((event_id,), countdown=countdown)
    except Exception:  # noqa: BLE001 - a broker outage must never lose a stored result
        redis_outage.failed(f"standings of event {event_id} (they stay stale)")
        try:
            cache.delete(key)  # nothing is queued: the next request must try again
        except Exception:  # noqa: BLE001
            pass
        return False
    if not _tasks_run_in_process():
        if len(_QUEUED_UNTIL) > 1000:
            _QUEUED_UNTIL.clear()
        _QUEUED_UNTIL[event_id] = now + countdown
    return True


def _in_flight(event_id: int) -> bool:
    if not redis_outage.available():
        return False  # nothing can be known to be queued
    try:
        return bool(
            cache.get_many([STANDINGS_QUEUED.format(event_id), STANDINGS_LOCK.format(event_id)])
        )
    except Exception:  # noqa: BLE001 - the cache is down: nothing can be known to be queued
        redis_outage.failed(f"standings of event {event_id}")
        return False


FRESH, UPDATING, OUT_OF_DATE = "fresh", "updating", "out_of_date"

# Asked by every page that shows standings: compiled once (tournaments.prepared).
_STALE = Prepared(lambda pk: stale_events().filter(pk=pk).values_list("pk", flat=True)[:1], pk=int)


def standings_state(event: Event) -> str:
    """What the pages say of the standings: FRESH, UPDATING or OUT_OF_DATE.

    UPDATING only while a recomputation is queued or running. Stale standings with none in
    flight (a request lost while the broker was down, a worker killed, a set-up without beat)
    get one queued here and now, so that "being recomputed" never sticks; with in-process
    tasks it runs before this returns. OUT_OF_DATE: stale, and nothing could be queued (the
    broker is down): the page says so instead of promising a recomputation.
    """
    if not _STALE.all(pk=event.pk):
        return FRESH
    if _in_flight(event.pk):
        return UPDATING
    queued = _queue_recompute(event.pk, countdown=0)
    if not _STALE.all(pk=event.pk):
        event.refresh_from_db(fields=["standings_updated_at"])  # what the page shows
        return FRESH
    return UPDATING if queued and _in_flight(event.pk) else OUT_OF_DATE


def update_ratings(event: Event) -> None:
    """Take a finished event into its club's ratings, after the current transaction commits."""
    _after_commit("update_ratings", event.pk)


def recompute_ratings(club_id: int) -> None:
    """Recompute a club's ratings from scratch, after the current transaction commits."""
    _after_commit("recompute_ratings", club_id)


def registration_email(registration, kind: str) -> None:  # noqa: ANN001 - a Registration
    """Send one of a registration's e-mails in the background, after commit."""
    _after_commit("send_registration_email", registration.pk, kind)


def deliver_webhook(delivery) -> None:  # noqa: ANN001 - a WebhookDelivery
    """Send a webhook delivery in the background, after commit (``tasks.deliver_webhook``).

    A broker outage must never fail what emitted it: the delivery stays "being sent" with no
    attempt, and the organiser re-sends it from the webhooks page.
    """
    _after_commit("deliver_webhook", delivery.pk)


def checkin_reminders(event: Event) -> None:
    """Send the check-in reminders of the event in the background, after commit."""
    _after_commit("send_checkin_reminders", event.pk)


def results_emails(event: Event) -> None:
    """Send each player's results of a finished and published event, after commit (the task
    sends nothing twice, so finishing and publishing may both ask)."""
    _after_commit("send_results_emails", event.pk)
