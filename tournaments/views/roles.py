"""Who runs the event: the organisers appoint and remove co-organisers and referees, by account
or by invitation link; whoever holds a link accepts it here (tournaments.services.roles)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors
from tournaments.forms_roles import AcceptForm, AppointForm, InviteForm
from tournaments.models import Event, RoleInvitation
from tournaments.services import ServiceError
from tournaments.services import roles as svc
from tournaments.views.organiser import _actor, _event


def invitation_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("invitation_accept", args=[token]))


def _roles_page(event: Event) -> HttpResponse:
    return redirect("tournaments:event_roles", event.pk)


def _page(
    request: HttpRequest,
    event: Event,
    *,
    appoint: AppointForm | None = None,
    invite: InviteForm | None = None,
    new_link: dict[str, str] | None = None,
) -> HttpResponse:
    bound = [f for f in (appoint, invite) if f is not None and f.is_bound and f.errors]
    return render(
        request,
        "tournaments/roles.html",
        {
            "event": event,
            "roles": selectors.event_roles(event),
            "can_change": event.is_organiser(request.user),
            "appoint": appoint or AppointForm(),
            "invite": invite or InviteForm(),
            "new_link": new_link,
            "rounds": selectors.event_rounds(event),
        },
        status=400 if bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_roles(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's organisers, referees and pending invitations; a POST appoints an account."""
    if request.method == "GET":
        return _page(request, _event(request, pk))
    event = _event(request, pk, change=True)
    form = AppointForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user = svc.role_grant(
                event=event, actor=_actor(request), identifier=data["who"], role=data["role"]
            )
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                svc.sentence(data["role"], "now") % {"user": user.get_username()},
            )
            return _roles_page(event)
    return _page(request, event, appoint=form)


@login_required
@require_POST
def role_invite(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _page(request, event, invite=form)
    try:
        made = svc.invitation_create(
            event=event,
            actor=_actor(request),
            role=form.cleaned_data["role"],
            email=form.cleaned_data["email"],
        )
    except ServiceError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return _page(request, event, invite=form)
    # Shown in this answer only (not kept for a redirect: the database keeps no link, only its
    # fingerprint, and a session is stored there too); the answer is never cached.
    response = _page(
        request,
        event,
        new_link={
            "url": invitation_url(request, made.token),
            "role": made.invitation.get_role_display(),
            "expires": made.invitation.expires_at.isoformat(),
        },
    )
    add_never_cache_headers(response)
    return response


def _posted(request: HttpRequest) -> bool:
    return request.method == "POST"


@login_required
@require_http_methods(["GET", "POST"])
def role_remove(request: HttpRequest, pk: int, role: str, user_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    # Looked up among the role's holders: any other account id is a 404, whether or not such
    # an account exists (an organiser must not be able to list the site's accounts by id).
    if role not in svc.Role.values:
        raise Http404
    user = get_object_or_404(svc.holders(event, role), pk=user_pk)
    actor = _actor(request)
    try:
        plan = svc.removal_plan(event, actor, user, role)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _roles_page(event)
    if _posted(request):
        try:
            svc.role_remove(event=event, actor=actor, user=user, role=role)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return _roles_page(event)
        messages.success(
            request,
            svc.sentence(role, "no_longer") % {"user": user.get_username()},
        )
        if plan.self_removal and not event.is_referee(request.user):
            return redirect("tournaments:event_list")
        return _roles_page(event)
    return render(
        request,
        "tournaments/confirm_role_remove.html",
        {"event": event, "plan": plan},
    )


@login_required
@require_http_methods(["GET", "POST"])
def invitation_revoke(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    invitation = get_object_or_404(RoleInvitation, pk=invitation_pk, event=event)
    if not invitation.pending:
        messages.error(
            request, _("This invitation is no longer pending (accepted, revoked or expired).")
        )
        return _roles_page(event)
    if _posted(request):
        try:
            svc.invitation_revoke(invitation=invitation, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The invitation is revoked: its link no longer works."))
        return _roles_page(event)
    return render(
        request,
        "tournaments/confirm_invitation_revoke.html",
        {"event": event, "invitation": invitation},
    )


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Whoever holds the link: with their account if logged in, or with a new one."""
    invitation = svc.invitation_for_token(token)
    if invitation is None:
        return render(request, "registration/invitation_gone.html", status=404)
    user = request.user if request.user.is_authenticated else None
    form = AcceptForm(request.POST if _posted(request) and user is None else None)
    context: dict[str, Any] = {"invitation": invitation, "event": invitation.event, "form": form}
    if _posted(request) and (user is not None or form.is_valid()):
        data = form.cleaned_data if user is None else {}
        try:
            user = svc.invitation_accept(
                token=token,
                user=user,
                username=data.get("username", ""),
                password=data.get("password1", ""),
            )
        except ServiceError as exc:
            if user is None and exc.field in form.fields:
                form.add_error(exc.field, exc.message)
            else:
                messages.error(request, exc.message)
                return render(request, "registration/invitation_gone.html", status=404)
        else:
            if not request.user.is_authenticated:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                svc.sentence(invitation.role, "welcome") % {"event": invitation.event.name},
            )
            return redirect("tournaments:event_dashboard", invitation.event_id)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "registration/invitation.html", context, status=status)
