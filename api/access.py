"""The API's readers as actors of ``tournaments.policy``, which decides who sees what.

An object that exists but is not for this reader is a 401 for an anonymous reader and a 403 for
an authenticated one (a table or player outside their table).
"""

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request

from api.principals import TableUser
from tournaments import policy
from tournaments.actors import Actor
from tournaments.models import BoardResult, Dispute, Event


def actor_for(request: Request) -> Actor:
    user = request.user
    if isinstance(user, TableUser):
        return user.actor
    return Actor(user=user)


def visible_events(request: Request) -> QuerySet[Event]:
    return policy.visible_events(actor_for(request))


def listed_events(request: Request) -> QuerySet[Event]:
    return policy.listed_events(actor_for(request))


def visible_results(request: Request) -> QuerySet[BoardResult]:
    return policy.visible_results(actor_for(request))


def visible_disputes(request: Request) -> QuerySet[Dispute]:
    return policy.visible_disputes(actor_for(request))


def refuse(request: Request, message: str | None = None) -> None:
    """401 for an anonymous reader, 403 for anyone else."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    raise PermissionDenied(message or _("This belongs to another table."))


def sees_details(request: Request, result: BoardResult) -> bool:
    return policy.sees_submissions(actor_for(request), result)
