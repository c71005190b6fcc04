"""Player and partnership pages, the privacy setting and the merge of duplicates (/players/)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import player_selectors as sel
from tournaments import policy
from tournaments.actors import Actor
from tournaments.forms_players import MergeForm, VisibilityForm
from tournaments.models import Player
from tournaments.services import ServiceError
from tournaments.services import players as svc


def _access(request: HttpRequest, pk: int) -> policy.PlayerAccess:
    """The player as this reader may see them; 404 when the player keeps their page private
    (the same answer as for no such player: the page does not say who exists)."""
    player = get_object_or_404(Player, pk=pk)
    access = policy.PlayerAccess(Actor(user=request.user), player)
    if not access.page:
        raise Http404(_("No such player."))
    return access


@require_GET
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    access = _access(request, pk)
    page = sel.player_page(access.player, access)
    actor = Actor(user=request.user)
    return render(
        request,
        "players/player.html",
        {
            "page": page,
            "player": access.player,
            "visibility_form": VisibilityForm(initial={"visibility": access.player.visibility})
            if access.full
            else None,
            "may_merge": policy.may_merge_into(actor, access.player),
        },
    )


@require_GET
def partnership_page(request: HttpRequest, pk: int, partner: int) -> HttpResponse:
    first = _access(request, pk)
    second = _access(request, partner)
    if first.player.pk == second.player.pk:
        raise Http404(_("No such player."))
    page = sel.player_page(first.player, first)
    both = sel.partnership_page(page, second.player)
    allowed = set(second.events().values_list("pk", flat=True))
    both.events = [e for e in both.events if e.event.pk in allowed]
    return render(request, "players/partnership.html", {"page": both})


@login_required
@require_POST
def player_visibility(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    if not policy.PlayerAccess(Actor(user=request.user), player).full:
        raise Http404(_("No such player."))
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the options."))
        return redirect("players:player", pk)
    try:
        svc.player_visibility_set(
            player=player,
            actor=Actor(user=request.user),
            visibility=form.cleaned_data["visibility"],
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("players:player", pk)
    messages.success(request, _("Saved."))
    return redirect("players:player", pk)


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the duplicate (GET ?other=N), see what moves, confirm (POST)."""
    keep = get_object_or_404(Player, pk=pk)
    actor = Actor(user=request.user)
    if not policy.may_merge_into(actor, keep):
        raise Http404(_("No such player."))
    data = (
        request.POST
        if request.method == "POST"
        else (request.GET if "other" in request.GET else None)
    )
    form = MergeForm(data)
    plan = None
    status = 200
    if form.is_bound and form.is_valid():
        other = form.cleaned_data["other"]
        try:
            if other is None:
                raise svc.merge_refused()
            plan = svc.merge_plan(keep=keep, other=other, actor=actor)
        except ServiceError as exc:
            form.add_error("other", exc.message)
    if request.method == "POST" and plan is not None and plan.ok and request.POST.get("confirm"):
        try:
            svc.players_merge(keep=keep, other=plan.other, actor=actor)
        except ServiceError as exc:
            form.add_error("other", exc.message)
        else:
            messages.success(
                request,
                _("%(other)s is now %(keep)s.") % {"other": plan.other.name, "keep": keep.name},
            )
            return redirect("players:player", keep.pk)
    if form.is_bound and form.errors:
        status = 400
    elif plan is not None and not plan.ok:
        status = 409
    candidates = Player.objects.filter(pk__in=_mergeable(actor, keep))
    return render(
        request,
        "players/merge.html",
        {"keep": keep, "form": form, "plan": plan, "candidates": candidates},
        status=status,
    )


def _mergeable(actor: Actor, keep: Player) -> list[int]:
    """Players the actor may merge into ``keep`` among those of the same name."""
    same = Player.objects.filter(name__iexact=keep.name).exclude(pk=keep.pk)
    return [p.pk for p in same if policy.may_merge_players(actor, keep, p)]
