"""The organiser's pages: thin views that parse, call one service, and render.

Organisers of an event may change it; its referees may look. Every refusal of a service
becomes a message on the page, never an error page.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import queue, scoring_io, selectors
from tournaments.actors import Actor
from tournaments.clock import round_clock
from tournaments.dates import local_time
from tournaments.forms import (
    PRESET_LABELS,
    PRESETS,
    ByeRequestForm,
    CsvConfirmForm,
    CsvUploadForm,
    EntryForm,
    EventForm,
    SwapForm,
    apply_preset,
)
from tournaments.models import BoardResult, ByeRequest, Club, Event, Round
from tournaments.services import ServiceError, changes, clubs, late_entries, pairings
from tournaments.services import disputes as dispute_services
from tournaments.services import events as svc
from tournaments.views.live import live_response

EDITABLE_STATUSES = (Event.Status.DRAFT, Event.Status.REGISTRATION)


# --- helpers -------------------------------------------------------------------------------------


def _event(request: HttpRequest, pk: int, *, change: bool = False) -> Event:
    """The event, if the user organises it (``change``) or at least referees it; 403 otherwise."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    allowed = event.is_organiser(request.user) if change else event.is_referee(request.user)
    if not allowed:
        raise PermissionDenied(_("You are not an organiser of this event."))
    return event


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("event", "bye__pair"), event=event, number=number
    )


def _actor(request: HttpRequest) -> Actor:
    return Actor(user=request.user)


def _error_text(exc: Exception) -> str:
    if isinstance(exc, ServiceError):
        return exc.message
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc)


def _attempt(request: HttpRequest, action: Callable[[], Any], success: str) -> Any:
    """Run a service call; its refusal becomes an error message. Returns the result or None."""
    try:
        value = action()
    except (ServiceError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return None
    messages.success(request, success)
    return value if value is not None else True


def _url(name: str, *args: object, query: str = "") -> str | None:
    """A link into another area; None while that area does not define it (the link is hidden)."""
    try:
        return reverse(name, args=args) + query
    except NoReverseMatch:
        return None


def _dashboard(event: Event) -> HttpResponse:
    return redirect("tournaments:event_dashboard", event.pk)


def _round_page(event: Event, number: int) -> HttpResponse:
    return redirect("tournaments:round_detail", event.pk, number)


@dataclass
class NextStep:
    label: str
    url: str
    method: str = "post"  # "post": a button that acts; "get": a link to a page that explains
    note: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    needs_boards: bool = False


def next_step(event: Event, rounds: list[Round], counts: selectors.EventCounts) -> NextStep | None:
    """The one thing the organiser should do next, as a single prominent button."""
    pk = event.pk
    if event.status == Event.Status.DRAFT:
        return NextStep(
            _("Open registration"),
            reverse("tournaments:registration_open", args=[pk]),
            note=_("Then register the pairs (you may also register them now)."),
        )
    if event.status == Event.Status.REGISTRATION and event.is_team_event:
        teams = event.teams.count()
        if teams < 2:
            return NextStep(
                _("Register teams"),
                reverse("tournaments:teams", args=[pk]),
                "get",
                note=_("At least two teams are needed to start."),
            )
        return NextStep(
            _("Start the event"),
            reverse("tournaments:event_start", args=[pk]),
            "get",
            note=_("%(n)s teams registered. Starting closes registration and deals the boards.")
            % {"n": teams},
        )
    if event.status == Event.Status.REGISTRATION:
        if counts.pairs < 2:
            return NextStep(
                _("Register pairs"),
                reverse("tournaments:entries", args=[pk]),
                "get",
                note=_("At least two pairs are needed to start."),
            )
        return NextStep(
            _("Start the event"),
            reverse("tournaments:event_start", args=[pk]),
            "get",
            note=_("%(n)s pairs registered. Starting closes registration and deals the boards.")
            % {"n": counts.pairs},
        )
    if event.status == Event.Status.RUNNING:
        last = rounds[-1] if rounds else None
        if last is None or (last.status == Round.Status.PENDING and not last.table_count):
            number = last.number if last else 1
            return NextStep(
                _("Propose round %(n)s") % {"n": number},
                reverse("tournaments:round_propose", args=[pk, number]),
                note=_(
                    "The program pairs the round; you can check and swap pairs before opening it."
                ),
            )
        if last.status == Round.Status.PENDING:
            return NextStep(
                _("Open round %(n)s") % {"n": last.number},
                reverse("tournaments:round_open", args=[pk, last.number]),
                note=_("Opening gives each table its code to enter results."),
                needs_boards=True,
            )
        if last.status == Round.Status.OPEN:
            return NextStep(
                _("Close round %(n)s") % {"n": last.number},
                reverse("tournaments:round_close", args=[pk, last.number]),
                note=_("When every table has finished and confirmed its results."),
            )
        following = last.number + 1
        outlook = (
            pairings.round_outlook(event, following) if following <= event.rounds_count else None
        )
        has_next = outlook is not None and outlook.exists
        if has_next and last.ruling_open:
            return NextStep(
                _("End the rulings on round %(n)s") % {"n": last.number},
                reverse("tournaments:round_detail", args=[pk, last.number]),
                "get",
                note=_("The next round is paired when they end."),
            )
        if has_next and outlook.no_table:
            return NextStep(
                _("Finish the event"),
                reverse("tournaments:event_finish", args=[pk]),
                "get",
                note=outlook.no_table,
            )
        if has_next:
            if event.format == Event.Format.ROUND_ROBIN:
                note = _("Round %(n)s follows the round robin's schedule.") % {"n": following}
            elif event.format == Event.Format.GROUPS:
                note = _("Round %(n)s follows the groups' schedule, then the knockout bracket.") % {
                    "n": following
                }
            else:
                note = _("Pairs are paired from the standings after round %(n)s.") % {
                    "n": last.number
                }
            return NextStep(
                _("Propose round %(n)s") % {"n": following},
                reverse("tournaments:round_propose", args=[pk, following]),
                note=note,
            )
        return NextStep(
            _("Finish the event"),
            reverse("tournaments:event_finish", args=[pk]),
            "get",
            note=_("Every round is closed."),
        )
    if not event.published:
        return NextStep(
            _("Publish the results pages"),
            reverse("tournaments:event_publish", args=[pk]),
            note=_("Publishing shows the results pages to everyone."),
            fields={"published": "1"},
        )
    public = _url("public:event", pk)
    if public:
        return NextStep(
            _("See the public pages"), public, "get", note=_("The event is finished and published.")
        )
    return None


# --- events --------------------------------------------------------------------------------------


@login_required
@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    events = list(selectors.events_for_user(request.user))
    organised = selectors.organised_ids(request.user)
    for event in events:
        event.role = (
            _("organiser") if request.user.is_superuser or event.pk in organised else _("referee")
        )
    leagues = request.user.organised_leagues.order_by("-starts", "name")
    return render(
        request, "tournaments/event_list.html", {"events": events, "leagues": list(leagues)}
    )


def _event_form_page(request: HttpRequest, form: EventForm, event: Event | None) -> HttpResponse:
    return render(
        request,
        "tournaments/event_form.html",
        {
            "form": form,
            "event": event,
            "presets": PRESET_LABELS,
            "clubs": _clubs_of(request.user),
        },
        status=400 if form.is_bound and form.errors else 200,  # sent back to be corrected
    )


def _clubs_of(user) -> Any:
    """The clubs the form suggests: those the user may create events for."""
    clubs = Club.objects.all() if user.is_superuser else user.organised_clubs.all()
    return clubs.values_list("name", flat=True)


def _event_form_error(form: EventForm, exc: Exception) -> None:
    field = getattr(exc, "field", None)
    form.add_error("club_name" if field == "club" else None, _error_text(exc))


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _event_form_page(request, EventForm(), None)
    if request.POST.get("preset") in PRESETS:
        form = EventForm(apply_preset(request.POST, request.POST["preset"]))
        form.errors.clear()  # a preset only fills in values: no complaints yet
        return _event_form_page(request, form, None)
    form = EventForm(request.POST)
    if form.is_valid():
        try:
            with transaction.atomic():
                actor = _actor(request)
                event = svc.event_create(
                    actor=actor,
                    club=clubs.club_for(name=form.cleaned_data["club_name"], actor=actor),
                    **form.service_fields(),
                )
        except (ServiceError, ValidationError) as exc:
            _event_form_error(form, exc)
        else:
            messages.success(
                request, _("Event created. Next: open registration and register the pairs.")
            )
            return _dashboard(event)
    return _event_form_page(request, form, None)


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    locked = event.status not in EDITABLE_STATUSES
    if request.method == "GET":
        return _event_form_page(request, EventForm(instance=event, locked=locked), event)
    if request.POST.get("preset") in PRESETS and not locked:
        form = EventForm(apply_preset(request.POST, request.POST["preset"]), instance=event)
        form.errors.clear()
        return _event_form_page(request, form, event)
    form = EventForm(request.POST, instance=Event.objects.get(pk=event.pk), locked=locked)
    if form.is_valid():
        try:
            svc.event_update(
                event=event,
                actor=_actor(request),
                club_name=form.cleaned_data["club_name"],
                **form.service_fields(),
            )
        except (ServiceError, ValidationError) as exc:
            _event_form_error(form, exc)
        else:
            messages.success(request, _("Event saved."))
            return _dashboard(event)
    return _event_form_page(request, form, event)


@login_required
@require_GET
def event_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    can_change = event.is_organiser(request.user)
    rounds = selectors.event_rounds(event)
    counts = selectors.event_counts(event)
    step = next_step(event, rounds, counts) if can_change else None
    return render(
        request,
        "tournaments/event_dashboard.html",
        {
            "event": event,
            "can_change": can_change,
            "rounds": rounds,
            "counts": counts,
            "step": step,
            "standings_state": queue.standings_state(event),
            "links": {
                "referee": _url("referee:queue", pk),
                "public": _url("public:event", pk),
                "standings": _url("public:standings", pk),
                # docs/formats.md: a team event has no tournament file.
                "tournament_file": _url("public:export_tournament_file", pk)
                if can_change and event.seed_revealed and not event.is_team_event
                else None,
                "archive": _url("api:event_archive", pk) if can_change else None,
            },
            "can_finish": can_change
            and event.status == Event.Status.RUNNING
            and not any(r.status == Round.Status.OPEN for r in rounds)
            and not (step and step.url == reverse("tournaments:event_finish", args=[pk])),
        },
    )


@login_required
@require_GET
def event_progress(request: HttpRequest, pk: int) -> JsonResponse:
    """What the dashboard polls every 2 s while the boards are dealt and standings computed."""
    event = _event(request, pk)
    counts = selectors.event_counts(event)
    return JsonResponse(
        {
            "status": event.status,
            "pairs": counts.pairs,
            "boards_ready": counts.boards_ready,
            "total_boards": counts.total_boards,
            "boards_done": event.status != Event.Status.RUNNING or counts.boards_done,
            "standings_state": queue.standings_state(event),
            "standings_updated_at": (
                event.standings_updated_at.isoformat() if event.standings_updated_at else None
            ),
            # As the page shows it: the site's time zone, the language's format.
            "standings_updated_label": (
                local_time(event.standings_updated_at) if event.standings_updated_at else None
            ),
        }
    )


@login_required
@require_POST
def registration_open(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    _attempt(
        request,
        lambda: svc.registration_open(event=event, actor=_actor(request)),
        _("Registration is open: register the pairs."),
    )
    return _dashboard(event)


@login_required
@require_http_methods(["GET", "POST"])
def event_start(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    if request.method == "POST" and _attempt(
        request,
        lambda: svc.event_start(event=event, actor=_actor(request)),
        _("The event has started: the boards are being dealt."),
    ):
        return _dashboard(event)
    counts = selectors.event_counts(event)
    return render(request, "tournaments/confirm_start.html", {"event": event, "counts": counts})


@login_required
@require_http_methods(["GET", "POST"])
def event_finish(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    if request.method == "POST" and _attempt(
        request,
        lambda: svc.event_finish(event=event, actor=_actor(request)),
        _("The event is finished; its seed is now public."),
    ):
        return _dashboard(event)
    rounds = selectors.event_rounds(event)
    if request.method == "GET" and (
        opened := next((r for r in rounds if r.status == Round.Status.OPEN), None)
    ):
        messages.error(request, _("Close the open round first."))
        return _round_page(event, opened.number)
    return render(
        request,
        "tournaments/confirm_finish.html",
        {
            "event": event,
            "rounds": rounds,
            "played": sum(r.status == Round.Status.CLOSED for r in rounds),
            "proposed": [r.number for r in rounds if r.status == Round.Status.PENDING],
        },
    )


@login_required
@require_POST
def event_publish(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    published = request.POST.get("published") == "1"
    _attempt(
        request,
        lambda: svc.event_publish(event=event, actor=_actor(request), published=published),
        _("The results pages are public.") if published else _("The results pages are hidden."),
    )
    return _dashboard(event)


# --- pairs ---------------------------------------------------------------------------------------


def _entries_page(
    request: HttpRequest,
    event: Event,
    *,
    form: EntryForm | None = None,
    csv_form: CsvUploadForm | None = None,
    bye_form: ByeRequestForm | None = None,
    status: int = 200,
) -> HttpResponse:
    can_change = event.is_organiser(request.user)
    return render(
        request,
        "tournaments/entries.html",
        {
            "event": event,
            "entries": selectors.event_entries(event),
            "can_change": can_change,
            "can_register": can_change and event.status in EDITABLE_STATUSES,
            "can_register_late": can_change and event.status == Event.Status.RUNNING,
            "late_round": late_entries.next_unopened_round(event),
            "late_refused": late_entries.late_entries_refused(event),
            "bye_requests": selectors.event_bye_requests(event),
            "bye_form": bye_form or ByeRequestForm(event=event),
            "can_request_byes": can_change
            and not event.is_team_event  # a team's pairs sit out by its line-up
            and event.status in (Event.Status.REGISTRATION, Event.Status.RUNNING),
            "form": form or EntryForm(),
            "csv_form": csv_form or CsvUploadForm(),
            "clubs": Club.objects.values_list("name", flat=True),
            "rounds": selectors.event_rounds(event),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "GET":
        return _entries_page(request, _event(request, pk))
    event = _event(request, pk, change=True)
    form = EntryForm(request.POST)
    if form.is_valid():
        try:
            if late_entries.late_entry_possible(event) and not request.POST.get("confirmed"):
                late_entries.late_entry_check(event=event, **form.cleaned_data)
                return _ask_late_entry(request, event, form.cleaned_data)
            register = (
                late_entries.late_entry_register
                if event.status == Event.Status.RUNNING
                else svc.entry_register
            )
            entry = register(event=event, actor=_actor(request), **form.cleaned_data)
        except (ServiceError, ValidationError) as exc:
            if event.status not in (*EDITABLE_STATUSES, Event.Status.RUNNING):
                # Finished meanwhile (a confirmation page was open): no form to show it beside.
                messages.error(request, _error_text(exc))
                return redirect("tournaments:entries", event.pk)
            field = getattr(exc, "field", None)  # beside the player it is about, if a field
            form.add_error(field if field in form.fields else None, _error_text(exc))
        else:
            messages.success(
                request,
                _("Pair %(n)s registered: %(name)s") % {"n": entry.number, "name": entry.pair.name},
            )
            if entry.joins_round:
                messages.info(
                    request,
                    _("It plays from round %(k)s and starts with %(mp)s match points.")
                    % {"k": entry.joins_round, "mp": event.late_entry_points},
                )
            return redirect("tournaments:entries", event.pk)
    return _entries_page(request, event, form=form, status=400)


def _ask_late_entry(request: HttpRequest, event: Event, data: dict[str, Any]) -> HttpResponse:
    players = data["name"] or svc.pair_display_name(data["player1"], data["player2"])
    joins = late_entries.next_unopened_round(event)
    return _ask_late_change(
        request,
        event,
        joins,
        heading=_("Register a late entry?"),
        plan=[
            _("Register %(players)s as a late entry.") % {"players": players},
            _("It plays from round %(k)s and starts with %(mp)s match points.")
            % {"k": joins, "mp": event.late_entry_points},
        ],
        confirm_label=_("Register the late entry"),
    )


@login_required
@require_POST
def bye_request_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    form = ByeRequestForm(event=event, data=request.POST)
    if not form.is_valid():
        return _entries_page(request, event, bye_form=form, status=400)
    entry, number = form.cleaned_data["entry"], form.cleaned_data["round_number"]
    sits_out = _("Pair %(n)s sits out round %(r)s and scores %(mp)s match points for it.") % {
        "n": entry.number,
        "r": number,
        "mp": event.requested_bye_points,
    }
    try:
        if not request.POST.get("confirmed"):
            late_entries.bye_request_check(entry=entry, round_number=number)
            return _ask_late_change(
                request,
                event,
                number,
                heading=_("Record a requested bye?"),
                plan=[sits_out],
                confirm_label=_("Record the requested bye"),
            )
        late_entries.bye_request_add(entry=entry, actor=_actor(request), round_number=number)
    except ServiceError as exc:
        if event.is_team_event or event.status not in (
            Event.Status.REGISTRATION,
            Event.Status.RUNNING,
        ):
            messages.error(request, exc.message)  # as above: the page shows no bye form
            return redirect("tournaments:entries", event.pk)
        # The refusal beside its field: "round" is the form's round_number, "entry" its pair.
        field = {"round": "round_number", "entry": "entry"}.get(exc.field or "")
        form.add_error(field, exc.message)
        return _entries_page(request, event, bye_form=form, status=400)
    messages.success(request, sits_out)
    return redirect("tournaments:entries", event.pk)


def _ask_late_change(
    request: HttpRequest,
    event: Event,
    number: int,
    *,
    heading: str,
    plan: list[str],
    confirm_label: str,
) -> HttpResponse:
    """The page that asks before a late entry or a requested bye touching round ``number``:
    what will happen, and whether it drops that round's proposed pairing (with any change made
    to it by hand). Its form sends the same fields again with ``confirmed``."""
    fields = [
        (key, value)
        for key, values in request.POST.lists()
        if key not in ("csrfmiddlewaretoken", "confirmed")
        for value in values
    ]
    return render(
        request,
        "tournaments/confirm_late_change.html",
        {
            "event": event,
            "round": number,
            "drops_proposal": late_entries.proposal_pending(event, number),
            "heading": heading,
            "plan": plan,
            "confirm_label": confirm_label,
            "fields": fields,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def bye_request_remove(request: HttpRequest, pk: int, request_pk: int) -> HttpResponse:
    """Confirm (it drops the round's proposal, if there is one), then take the bye back."""
    event = _event(request, pk, change=True)
    bye = get_object_or_404(
        ByeRequest.objects.select_related("entry__pair"), pk=request_pk, entry__event=event
    )
    if request.method == "POST":
        _attempt(
            request,
            lambda: late_entries.bye_request_remove(request=bye, actor=_actor(request)),
            _("The requested bye is taken back."),
        )
        return redirect("tournaments:entries", event.pk)
    proposed = late_entries.proposal_pending(event, bye.round_number)
    return render(
        request,
        "tournaments/confirm_bye_request_remove.html",
        {"event": event, "bye": bye, "proposed": proposed},
    )


@login_required
@require_POST
def entries_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Step 1: read the file and show what would be registered; nothing is stored yet."""
    event = _event(request, pk, change=True)
    form = CsvUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _entries_page(request, event, csv_form=form, status=400)
    return _csv_preview(request, event, form.cleaned_data["csv_text"])


def _csv_preview(request: HttpRequest, event: Event, text: str, status: int = 200) -> HttpResponse:
    """What the file would register, with its lines in the box below it, to correct one line
    without pasting the whole list again."""
    return render(
        request,
        "tournaments/entries_preview.html",
        {
            "event": event,
            "preview": svc.pairs_csv_parse(text, event=event),
            "confirm_form": CsvConfirmForm(initial={"csv_text": text}),
            "csv_form": CsvUploadForm(initial={"text": text}),
        },
        status=status,
    )


@login_required
@require_POST
def entries_import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Step 2: register every pair of the previewed file (or none when a line is wrong)."""
    event = _event(request, pk, change=True)
    form = CsvConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The file was lost on the way: upload it again."))
        return redirect("tournaments:entries", event.pk)
    text = form.cleaned_data["csv_text"]
    try:
        created = svc.entries_import_csv(event=event, actor=_actor(request), text=text)
    except (ServiceError, ValidationError) as exc:
        messages.error(request, _error_text(exc))
        return _csv_preview(request, event, text, status=400)
    messages.success(
        request,
        ngettext("%(n)s pair registered.", "%(n)s pairs registered.", len(created))
        % {"n": len(created)},
    )
    return redirect("tournaments:entries", event.pk)


# --- rounds --------------------------------------------------------------------------------------


def _previous_round(event: Event, number: int) -> Round | None:
    return event.rounds.filter(number=number - 1).first() if number > 1 else None


def _pairing_gate_message(event: Event, number: int, *, paired: bool = False) -> str:
    """Why round ``number`` cannot be paired yet, or "" when it can (or, ``paired``, has its
    tables already: a round un-opened while the one before is open for rulings keeps them)."""
    if number == 1:
        return ""
    previous = _previous_round(event, number)
    if previous is not None and previous.status == Round.Status.CLOSED:
        return (
            svc.rulings_open_message(previous.number) if previous.ruling_open and not paired else ""
        )
    try:
        missing = scoring_io.pairing_gate(event, number)
    except ServiceError as exc:
        return exc.message
    if missing:
        return _(
            "Pairings wait for round %(p)s: results are missing or unconfirmed at tables "
            "%(t)s. Then close round %(p)s."
        ) % {"p": number - 1, "t": ", ".join(str(t.number) for t in missing)}
    return _("Close round %(p)s first.") % {"p": number - 1}


def _possible(check: Callable[[Round], object], rnd: Round | None, status: str) -> bool:
    """Whether a change of ``rnd`` is allowed now (its service's own check says so)."""
    if rnd is None or rnd.status != status:
        return False
    try:
        check(rnd)
    except ServiceError:
        return False
    return True


def _propose(event: Event, actor: Actor, number: int) -> int:
    return pairings.pairings_propose(event.pk, number, actor=actor)


@login_required
@require_GET
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk)
    if not 1 <= number <= event.rounds_count:
        return _dashboard(event) if event.rounds_count else redirect("tournaments:event_list")
    can_change = event.is_organiser(request.user)
    rnd = (
        Round.objects.select_related("event", "bye__pair")
        .filter(event=event, number=number)
        .first()
    )
    rows = selectors.round_tables(rnd) if rnd else []
    gate_message = ""
    if event.status == Event.Status.RUNNING and (rnd is None or rnd.status == Round.Status.PENDING):
        gate_message = _pairing_gate_message(event, number, paired=bool(rows))
    swap_form = None
    if (
        can_change
        and rnd
        and rnd.status == Round.Status.PENDING
        and rows
        and not event.is_team_event
    ):
        swap_form = SwapForm(rnd=rnd, entries=selectors.round_entries(rnd))
    counts = selectors.event_counts(event)
    return render(
        request,
        "tournaments/round_detail.html",
        _console_context(event, rnd, rows, can_change)
        | {
            "number": number,
            "boards": list(event.board_numbers(number)),
            "gate_message": gate_message,
            # An unavoidable rematch or a second bye, said before the round is opened.
            "pairing_warnings": scoring_io.pairing_warnings(rnd)
            if rnd and rnd.status == Round.Status.PENDING and rows
            else [],
            "swap_form": swap_form,
            "counts": counts,
            "standings_state": queue.standings_state(event),
            "can_reopen": can_change and _possible(changes.reopen_plan, rnd, Round.Status.CLOSED),
            "can_unopen": can_change and _possible(changes.unopen_check, rnd, Round.Status.OPEN),
            "links": {
                "table_cards": _url("public:table_cards", pk, number),
                "hand_records": _url("public:hand_records", pk, query=f"?round={number}"),
                "round_results": _url("public:round_results", pk, number),
                "standings": _url("public:standings", pk),
                "referee": _url("referee:queue", pk),
            },
            "rounds": selectors.event_rounds(event),
        },
    )


def _console_context(
    event: Event, rnd: Round | None, rows: list[selectors.TableRow], can_change: bool
) -> dict[str, Any]:
    live = rnd is not None and rnd.status == Round.Status.OPEN
    return {
        "event": event,
        "rnd": rnd,
        "rows": rows,
        "boards": list(rnd.board_numbers) if rnd else [],
        "can_change": can_change,
        # Everyone who sees the console referees the event (organisers do too).
        "rulings_open": rnd is not None and dispute_services.round_rulings_open(rnd),
        "disputes": selectors.round_disputes(rnd) if rnd else [],
        "clock": round_clock(rnd) if rnd else None,
        "late_tables": selectors.tables_after_time(rnd) if rnd else [],
        "live_url": _url("tournaments:round_console", event.pk, rnd.number) if live else None,
    }


@login_required
@require_GET
def round_console(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's tables and open disputes, for the round page to refresh itself (ETag)."""
    event = _event(request, pk)
    rnd = _round(event, number)
    organiser = event.is_organiser(request.user)
    return live_response(
        request,
        selectors.round_version(rnd),
        lambda: render(
            request,
            "tournaments/_console.html",
            _console_context(event, rnd, selectors.round_tables(rnd), organiser)
            | {"number": number},
        ),
        shared=f"console:{rnd.pk}:{int(organiser)}",
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_propose(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """POST pairs the round; GET asks first, when it would replace a proposal (maybe one
    changed by hand)."""
    event = _event(request, pk, change=True)
    if request.method == "GET":
        proposal = event.rounds.filter(number=number, status=Round.Status.PENDING).first()
        if proposal is None or not proposal.tables.exists():
            return _round_page(event, number)
        return render(request, "tournaments/confirm_repair.html", {"event": event, "rnd": proposal})
    # Pairing takes well under a second, so the request can wait for it.
    _attempt(
        request,
        lambda: _propose(event, _actor(request), number),
        _("Round %(n)s is proposed: check the pairings, then open it.") % {"n": number},
    )
    return _round_page(event, number)


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    form = SwapForm(request.POST, rnd=rnd, entries=selectors.round_entries(rnd))
    if not form.is_valid():
        for error in form.errors.get("__all__", []) or [_("Choose two pairs of this round.")]:
            messages.error(request, error)
        return _round_page(event, number)
    a, b = form.cleaned_data["entry_a"], form.cleaned_data["entry_b"]
    if not form.cleaned_data["confirm"]:
        try:
            warnings = scoring_io.pairing_warnings(rnd, swap=(a, b))
        except ServiceError as exc:
            messages.error(request, exc.message)
            return _round_page(event, number)
        if warnings:
            names = {e.pk: e for e in selectors.round_entries(rnd)}
            return render(
                request,
                "tournaments/confirm_swap.html",
                {
                    "event": event,
                    "rnd": rnd,
                    "warnings": warnings,
                    "entry_a": names[a],
                    "entry_b": names[b],
                },
            )
    _attempt(
        request,
        lambda: svc.round_swap(rnd=rnd, actor=_actor(request), entry_a=a, entry_b=b),
        _("The two pairs swapped places."),
    )
    return _round_page(event, number)


@login_required
@require_POST
def round_open(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    _attempt(
        request,
        lambda: svc.round_open(rnd=rnd, actor=_actor(request)),
        _("Round %(n)s is open: give each table its code.") % {"n": number},
    )
    return _round_page(event, number)


@login_required
@require_http_methods(["GET", "POST"])
def round_close(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """POST closes when every result is in; otherwise this page lists what is missing and asks."""
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    if request.method == "POST":
        accept = request.POST.get("accept_missing") == "1"
        try:
            svc.round_close(rnd=rnd, actor=_actor(request), accept_missing=accept)
        except ServiceError as exc:
            messages.error(request, exc.message)
            if exc.field != "results":
                return _round_page(event, number)
        else:
            messages.success(
                request,
                _("Round %(n)s is closed; the standings are being updated.") % {"n": number},
            )
            return _round_page(event, number)
    if rnd.status != Round.Status.OPEN:
        messages.error(request, _("Only an open round can be closed."))
        return _round_page(event, number)
    return render(
        request,
        "tournaments/confirm_close.html",
        {
            "event": event,
            "rnd": rnd,
            "missing": selectors.round_outstanding(rnd),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def table_new_codes(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    """Confirm, then give a table new codes (the old ones and their phones stop working)."""
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    obj = get_object_or_404(rnd.tables.select_related("ns__pair", "ew__pair"), number=table)
    if request.method == "POST" and _attempt(
        request,
        lambda: svc.table_new_codes(table=obj, actor=_actor(request)),
        _("Table %(t)s has new codes: give each pair its own.") % {"t": table},
    ):
        return _round_page(event, number)
    return render(
        request, "tournaments/confirm_new_codes.html", {"event": event, "rnd": rnd, "table": obj}
    )


@login_required
@require_POST
def round_rulings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """POST ``reopen=1`` with a reason reopens a closed round for rulings; ``reopen=0`` ends."""
    event = _event(request, pk, change=True)
    rnd = _round(event, number)
    reopen = request.POST.get("reopen") == "1"
    if not reopen and not rnd.ruling_open:
        # Nothing to end (the service answers it as done, for a retried request).
        messages.info(request, _("Rulings on round %(n)s are not open.") % {"n": number})
        return _round_page(event, number)
    _attempt(
        request,
        lambda: svc.round_rulings(
            rnd=rnd, actor=_actor(request), reopen=reopen, reason=request.POST.get("reason", "")
        ),
        _(
            "Round %(n)s is reopened for rulings; a proposal for the next round, if any, is "
            "dropped and made anew when the rulings end."
        )
        % {"n": number}
        if reopen
        else _("Rulings on round %(n)s are closed; the standings are being updated.")
        % {"n": number},
    )
    return _round_page(event, number)


@login_required
@require_http_methods(["GET", "POST"])
def result_correct(request: HttpRequest, pk: int, result_pk: int) -> HttpResponse:
    """After the event: say why a result is corrected, then rule on it at the referee's desk."""
    event = _event(request, pk, change=True)
    result = get_object_or_404(
        BoardResult.objects.select_related("table__round", "board"),
        pk=result_pk,
        table__round__event=event,
    )
    error, status = "", 200
    reason = request.POST.get("reason", "")[:1000]
    if request.method == "POST":
        try:
            dispute = dispute_services.correction_open(
                result=result, actor=_actor(request), reason=reason
            )
        except ServiceError as exc:
            error, status = exc.message, exc.status  # the reason typed stays in the form
        else:
            return redirect("referee:dispute", pk=dispute.pk)
    return render(
        request,
        "tournaments/confirm_correction.html",
        {"event": event, "result": result, "error": error, "reason": reason},
        status=status,
    )
