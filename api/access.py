"""Who may read what through the API, as querysets (one query per list, no N+1).

- Events: published ones, plus those the user organises, referees or plays in (a table token:
  its own event); staff see every event. Anything else is a 404.
- Results: everyone who can see the event, once the round is closed; before that only the
  organisers and referees of the event, the players of that table (or its table token), staff.
- A result's submissions and play-record verdicts: organisers, referees, the table's players.
  A play record: whoever ``results.hands_visible`` allows (staff too follow the card rule).
- Disputes: organisers and referees of the event, the table's players or token, staff.

An object that exists but is not for this reader is a 401 for an anonymous reader and a 403 for
an authenticated one (a table or player outside their table).
"""

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request

from api.authentication import TableUser
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, Event, Round, Table


def actor_for(request: Request) -> Actor:
    user = request.user
    if isinstance(user, TableUser):
        return user.actor
    return Actor(user=user)


def is_staff(request: Request) -> bool:
    user = request.user
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser))


def _user(request: Request) -> Any:
    user = request.user
    if isinstance(user, TableUser) or not user.is_authenticated:
        return None
    return user


def plays_q(user: Any, prefix: str = "") -> Q:
    """Tables (through ``prefix``) where a pair of the user's sits."""
    q = Q()
    for side in ("ns", "ew"):
        for player in ("player1", "player2"):
            q |= Q(**{f"{prefix}{side}__pair__{player}__user": user})
    return q


def staff_events_q(user: Any, prefix: str = "") -> Q:
    """Events (through ``prefix``) the user organises or referees."""
    return Q(**{f"{prefix}organisers": user}) | Q(**{f"{prefix}referees": user})


def _event_ids_run_by(user: Any) -> QuerySet[Event]:
    return Event.objects.filter(staff_events_q(user)).values("pk")


def visible_events(request: Request) -> QuerySet[Event]:
    qs = Event.objects.select_related("club")
    if is_staff(request):
        return qs
    q = Q(published=True)
    user = _user(request)
    if isinstance(request.user, TableUser):
        q |= Q(pk=request.user.table.round.event_id)
    elif user is not None:
        played = Table.objects.filter(plays_q(user)).values("round__event_id")
        q |= Q(pk__in=_event_ids_run_by(user)) | Q(pk__in=played)
    return qs.filter(q)


def visible_results(request: Request) -> QuerySet[BoardResult]:
    qs = BoardResult.objects.select_related(
        "table__round__event", "board", "table__ns__pair", "table__ew__pair"
    )
    if is_staff(request):
        return qs
    q = Q(
        table__round__status=Round.Status.CLOSED,
        table__round__event__in=visible_events(request).values("pk"),
    )
    user = _user(request)
    if isinstance(request.user, TableUser):
        q |= Q(table=request.user.table)
    elif user is not None:
        q |= Q(table__round__event__in=_event_ids_run_by(user)) | Q(
            table__in=Table.objects.filter(plays_q(user)).values("pk")
        )
    return qs.filter(q)


def visible_disputes(request: Request) -> QuerySet[Dispute]:
    qs = Dispute.objects.select_related("result__table__round__event", "result__board", "referee")
    if is_staff(request):
        return qs
    user = _user(request)
    if isinstance(request.user, TableUser):
        return qs.filter(result__table=request.user.table)
    if user is None:
        return qs.none()
    return qs.filter(
        Q(result__table__round__event__in=_event_ids_run_by(user))
        | Q(result__table__in=Table.objects.filter(plays_q(user)).values("pk"))
    )


def refuse(request: Request, message: str | None = None) -> None:
    """401 for an anonymous reader, 403 for anyone else."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    raise PermissionDenied(message or _("This belongs to another table."))


def sees_details(request: Request, result: BoardResult) -> bool:
    """Submissions and verdicts (which show cards): the event's organisers and referees, and
    the table's players; not staff as such, who follow the card rule like everyone."""
    actor = actor_for(request)
    table = result.table
    return actor.is_referee(table.round.event) or actor.sits_at(table)
