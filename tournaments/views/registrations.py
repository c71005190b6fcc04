"""Public sign-up (/e/<pk>/register/), a pair's registration by its secret link, and the
organiser's list with check-in (/manage/<pk>/registrations/)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import ratelimit
from tournaments.forms_registrations import SignupForm
from tournaments.models import Event, Registration
from tournaments.services import ServiceError
from tournaments.services import registrations as svc
from tournaments.views.organiser import _actor, _event


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    is_open = event.status == Event.Status.REGISTRATION
    if not (is_open or event.published or event.is_organiser(request.user)):
        raise Http404(_("No such event."))  # an unpublished event stays unknown
    form = SignupForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        tried = ratelimit.signup_attempt(request=request) if form.is_valid() else None
        if tried is not None and tried.blocked:
            form.add_error(
                None,
                _("Too many sign-ups from this address: try again in %(minutes)s minutes.")
                % {"minutes": tried.retry_after // 60 + 1},
            )
            status = 429
        elif form.is_valid():
            try:
                registration = svc.registration_signup(
                    event=event, language=get_language() or "", **form.cleaned_data
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
                status = 409
            else:
                return redirect("public:registration", event.pk, registration.token)
        else:
            status = 400
    taken = event.registrations.filter(status=Registration.Status.CONFIRMED).count()
    response = render(
        request,
        "registrations/signup.html",
        {"event": event, "form": form, "open": is_open, "taken": taken},
        status=status,
    )
    if status == 429:
        response["Retry-After"] = str(tried.retry_after if tried else 60)
    return response


@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """What the pair's e-mail links to: its status; POST withdraws it (the page is the
    confirmation)."""
    reg = get_object_or_404(Registration.objects.select_related("event"), event_id=pk, token=token)
    if request.method == "POST":
        try:
            svc.registration_withdraw(registration=reg)
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("public:registration", pk, token)
    waiting_before = (
        reg.event.registrations.filter(
            status=Registration.Status.WAITING, created_at__lt=reg.created_at
        ).count()
        if reg.status == Registration.Status.WAITING
        else None
    )
    return render(
        request,
        "registrations/registration.html",
        {"event": reg.event, "registration": reg, "waiting_before": waiting_before},
    )


@login_required
@require_GET
def registration_list(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    return render(
        request,
        "registrations/list.html",
        {"event": event, "registrations": event.registrations.select_related("entry")},
    )


@login_required
@require_POST
def check_in(request: HttpRequest, pk: int, registration_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    reg = get_object_or_404(Registration, pk=registration_pk, event=event)
    try:
        svc.registration_check_in(registration=reg, actor=_actor(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:registrations", event.pk)
