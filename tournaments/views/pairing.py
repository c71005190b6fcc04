"""The organiser's pairing page: the method and its options, the seeding ratings and the
prohibited pairings (thin views: forms parse, services decide)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors
from tournaments.forms_pairing import ForbiddenPairForm, PairingMethodForm, RatingsForm
from tournaments.models import Event, ForbiddenPair
from tournaments.services import ServiceError, pairing_rules
from tournaments.services import events as svc
from tournaments.views.organiser import EDITABLE_STATUSES, _actor, _attempt, _error_text, _event


def _page(
    request: HttpRequest,
    event: Event,
    *,
    method_form: PairingMethodForm | None = None,
    ratings_form: RatingsForm | None = None,
    forbidden_form: ForbiddenPairForm | None = None,
    status: int = 200,
) -> HttpResponse:
    locked = event.status not in EDITABLE_STATUSES
    entries = list(event.entries.select_related("pair__club").order_by("number"))
    active = [e for e in entries if not e.withdrawn]
    can_change = event.is_organiser(request.user)
    swiss = event.format == Event.Format.SWISS
    return render(
        request,
        "tournaments/pairing_method.html",
        {
            "event": event,
            "can_change": can_change,
            "locked": locked,
            "method_form": method_form or PairingMethodForm(instance=event, locked=locked),
            "ratings_form": ratings_form or RatingsForm(entries=entries),
            "show_ratings": event.seeding == Event.Seeding.RATING,
            "forbidden": ForbiddenPair.objects.filter(event=event).select_related(
                "low__pair", "high__pair"
            ),
            "forbidden_form": forbidden_form or ForbiddenPairForm(entries=active),
            "rounds": selectors.event_rounds(event),
            "swiss": swiss,
            "can_unforbid": can_change and event.status != Event.Status.FINISHED,
            "can_forbid": can_change
            and not event.is_team_event  # its matches pair teams, not pairs
            and swiss  # a round robin or groups draw every round at the start
            and event.status != Event.Status.FINISHED
            and len(active) > 1,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def pairing_method(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "GET":
        return _page(request, _event(request, pk))
    event = _event(request, pk, change=True)
    locked = event.status not in EDITABLE_STATUSES
    form = PairingMethodForm(request.POST, instance=Event.objects.get(pk=pk), locked=locked)
    if locked:
        messages.error(request, _("The pairing method cannot change once the event has started."))
        return redirect("tournaments:pairing_method", pk)
    if form.is_valid():
        try:
            svc.event_update(event=event, actor=_actor(request), **form.cleaned_data)
        except (ServiceError, ValidationError) as exc:
            form.add_error(getattr(exc, "field", None), _error_text(exc))
        else:
            messages.success(request, _("Pairing method saved."))
            return redirect("tournaments:pairing_method", pk)
    return _page(request, event, method_form=form, status=400)


@login_required
@require_POST
def ratings(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    entries = list(event.entries.select_related("pair").order_by("number"))
    form = RatingsForm(request.POST, entries=entries)
    if not form.is_valid():
        return _page(request, event, ratings_form=form, status=400)
    changed = _attempt(
        request,
        lambda: pairing_rules.ratings_set(
            event=event, actor=_actor(request), ratings=form.ratings()
        ),
        _("Ratings saved."),
    )
    if changed is None:
        return _page(request, event, ratings_form=form, status=400)
    return redirect("tournaments:pairing_method", pk)


@login_required
@require_POST
def forbidden_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    active = list(event.entries.filter(withdrawn_after_round__isnull=True).select_related("pair"))
    form = ForbiddenPairForm(request.POST, entries=active)
    if not form.is_valid():
        return _page(request, event, forbidden_form=form, status=400)
    try:
        pairing_rules.forbidden_add(
            event=event,
            actor=_actor(request),
            a=form.cleaned_data["entry_a"],
            b=form.cleaned_data["entry_b"],
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _page(request, event, forbidden_form=form, status=400)
    messages.success(request, _("The two pairs will not be paired against each other."))
    return redirect("tournaments:pairing_method", pk)


@login_required
@require_http_methods(["GET", "POST"])
def forbidden_remove(request: HttpRequest, pk: int, forbidden_pk: int) -> HttpResponse:
    """Confirm, then let two pairs meet again."""
    event = _event(request, pk, change=True)
    pair = get_object_or_404(
        ForbiddenPair.objects.select_related("low__pair", "high__pair", "event"),
        pk=forbidden_pk,
        event=event,
    )
    if request.method == "POST" and _attempt(
        request,
        lambda: pairing_rules.forbidden_remove(pair=pair, actor=_actor(request)),
        _("The two pairs may be paired against each other again."),
    ):
        return redirect("tournaments:pairing_method", pk)
    return render(
        request, "tournaments/confirm_forbidden_remove.html", {"event": event, "pair": pair}
    )
