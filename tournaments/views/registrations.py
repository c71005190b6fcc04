"""Public sign-up (/e/<pk>/register/), a pair's registration by its secret link, the check-in
link of its QR code (/e/<pk>/check-in/<token>/), and the organiser's list with check-in, fees,
solo players to match and the reminders (/manage/<pk>/registrations/)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import queue, ratelimit
from tournaments.forms_registrations import MatchForm, SignupForm
from tournaments.models import Event, Registration
from tournaments.qr import qr_svg
from tournaments.services import ServiceError
from tournaments.services import registrations as svc
from tournaments.services.mailings import checkin_link
from tournaments.site import site_url
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
                ngettext(
                    "Too many sign-ups from this address: try again in %(minutes)s minute.",
                    "Too many sign-ups from this address: try again in %(minutes)s minutes.",
                    tried.retry_after // 60 + 1,
                )
                % {"minutes": tried.retry_after // 60 + 1},
            )
            status = 429
        elif form.is_valid():
            try:
                registration = svc.registration_signup(
                    event=event, language=get_language() or "", **form.service_fields()
                )
            except ServiceError as exc:
                if tried is not None:
                    tried.give_back()  # the limit counts pairs signed up, not refusals
                # A name the service refuses is that field's error; a closed sign-up the page's.
                field = exc.field if exc.field in form.fields else None
                form.add_error(field, exc.message)
                status = 400 if field else 409
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


def _registration_page(
    request: HttpRequest,
    reg: Registration,
    *,
    status: int = 200,
    can_withdraw: bool,
    checkin_page: bool = False,
) -> HttpResponse:
    pair = svc.pair_registration(reg)
    waiting_before = (
        pair.event.registrations.filter(
            status=Registration.Status.WAITING, paired_at__lt=pair.paired_at
        ).count()
        if pair.status == Registration.Status.WAITING
        else None
    )
    event = pair.event
    show_qr = (
        pair.status == Registration.Status.CONFIRMED
        and pair.entry_id is None
        and event.status in Event.BEFORE_START
    )
    link = checkin_link(pair, base=site_url(request)) if show_qr else ""
    return render(
        request,
        "registrations/registration.html",
        {
            "event": event,
            "registration": pair,
            "own": reg,
            "waiting_before": waiting_before,
            "can_withdraw": can_withdraw
            and pair.status not in (Registration.Status.WITHDRAWN, Registration.Status.MATCHED)
            and event.status in Event.BEFORE_START,
            "checkin_link": link,
            "qr": qr_svg(link, title=_("Check-in QR code")) if link else "",
            # The QR code's link opened by someone not organising the event (logged out?).
            "checkin_page": checkin_page and not request.user.is_authenticated,
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """What the pair's e-mail links to: its status and check-in QR code; POST withdraws it
    (the page is the confirmation)."""
    reg = get_object_or_404(
        Registration.objects.select_related("event", "matched_into", "entry"),
        event_id=pk,
        token=token,
    )
    if request.method == "POST":
        try:
            svc.registration_withdraw(registration=reg)
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("public:registration", pk, token)
    return _registration_page(request, reg, can_withdraw=True)


@require_http_methods(["GET", "POST"])
def check_in_link(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """The check-in QR code's link. An organiser of the event (logged in) gets a confirmation
    page whose button checks the pair in; anyone else sees the registration only."""
    try:
        reg = svc.registration_by_checkin_token(event_id=pk, token=token)
    except Registration.DoesNotExist:
        raise Http404(_("No such registration.")) from None
    event = reg.event
    if not event.is_organiser(request.user):
        if request.method == "POST":
            raise PermissionDenied(_("Only the event's organisers can check pairs in."))
        return _registration_page(request, reg, can_withdraw=False, checkin_page=True)
    status = 200
    if request.method == "POST":
        try:
            svc.registration_check_in(registration=reg, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 409
        else:
            return redirect("public:check_in", pk, token)
        reg.refresh_from_db()
    return render(
        request,
        "registrations/check_in.html",
        {"event": event, "registration": reg},
        status=status,
    )


@login_required
@require_GET
def registration_list(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    regs = list(
        event.registrations.exclude(status=Registration.Status.MATCHED)
        .select_related("entry")
        .prefetch_related("matched_solos")
    )
    solos = [r for r in regs if r.status == Registration.Status.SOLO]
    return render(
        request,
        "registrations/list.html",
        {
            "event": event,
            "registrations": [r for r in regs if r.status != Registration.Status.SOLO],
            "solos": solos,
            "can_change": event.status in Event.BEFORE_START,
        },
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


@login_required
@require_POST
def mark_paid(request: HttpRequest, pk: int, registration_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    reg = get_object_or_404(Registration, pk=registration_pk, event=event)
    svc.registration_mark_paid(
        registration=reg, actor=_actor(request), paid=request.POST.get("paid") == "1"
    )
    return redirect(
        f"{reverse('tournaments:registrations', args=[event.pk])}#registration-{reg.pk}"
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_solos(request: HttpRequest, pk: int) -> HttpResponse:
    """The confirmation page of matching two solo sign-ups into a pair; POST matches them."""
    event = _event(request, pk, change=True)
    data = request.POST if request.method == "POST" else request.GET
    form = MatchForm(data, event=event)
    if not form.is_valid():
        messages.error(request, " ".join(m for errs in form.errors.values() for m in errs))
        return redirect("tournaments:registrations", event.pk)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    if request.method == "POST":
        try:
            pair = svc.registration_match(first=first, second=second, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("%(pair)s are now a pair; both were told by e-mail.") % {"pair": pair}
            )
        return redirect("tournaments:registrations", event.pk)
    return render(
        request,
        "registrations/confirm_match.html",
        {"event": event, "first": first, "second": second, "full": svc.is_full(event)},
    )


@login_required
@require_POST
def send_reminders(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    if event.status not in Event.BEFORE_START:
        messages.error(request, _("The event has started: check-in reminders are no longer sent."))
        return redirect("tournaments:registrations", event.pk)
    queue.checkin_reminders(event)
    messages.success(
        request,
        _(
            "The check-in reminders are being sent to the confirmed pairs not checked in yet "
            "(each pair gets one reminder)."
        ),
    )
    return redirect("tournaments:registrations", event.pk)
