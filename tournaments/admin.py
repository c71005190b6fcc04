"""The admin follows ``tournaments.policy``: staff see a board's cards, its results, records and
rulings only where the policy lets them (their own events, or closed rounds of published or
finished events); codes and tokens are never shown here."""

from django.contrib import admin
from django.contrib.admin.views.main import ERROR_FLAG
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Q
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpResponseRedirect
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from tournaments import policy
from tournaments.forms_login import AdminLoginForm
from tournaments.models import (
    AccountToken,
    AuditEntry,
    Board,
    BoardResult,
    Club,
    Dispute,
    Entry,
    Event,
    Pair,
    Player,
    PlayerMerge,
    PlayRecord,
    Registration,
    Round,
    Ruling,
    Season,
    StandingsSnapshot,
    Submission,
    Table,
)

# The admin's login counts its attempts with the site's and the API's (tournaments.ratelimit).
admin.site.login_form = AdminLoginForm


class ProjectAdmin(admin.ModelAdmin):
    """Filters by the query string only on what the list offers to filter by.

    Django lets a changelist filter on any field of its model (``?seed__startswith=a``): whether a
    row stays in the list is then an oracle, and one character at a time a staff account with
    nothing but the view permission would read an event's secret seed.
    """

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        offered = {self.date_hierarchy} if self.date_hierarchy else set()
        for entry in self.list_filter:
            if isinstance(entry, str):
                offered.add(entry.split(LOOKUP_SEP, 1)[0])
            elif isinstance(entry, tuple | list):
                offered.add(entry[0].split(LOOKUP_SEP, 1)[0])
        if lookup.split(LOOKUP_SEP, 1)[0] not in offered:
            return False
        return super().lookup_allowed(lookup, value, request)

    def changelist_view(self, request, extra_context=None):
        # Django builds a date from ?date__year=… and catches only ValueError: a year of ten
        # digits overflowed (a 500). Anything but a short number is a bad lookup, as Django
        # answers other ones.
        if self.date_hierarchy:
            for part in ("year", "month", "day"):
                value = request.GET.get(f"{self.date_hierarchy}__{part}")
                if value is not None and not _short_number(value, 4):
                    return HttpResponseRedirect(f"{request.path}?{ERROR_FLAG}=1")
        return super().changelist_view(request, extra_context)

    def get_changeform_initial_data(self, request):
        # An add form is pre-filled from the query string, and a relation's widget looks the
        # value up as an id (?club=abc was a 500): a value that cannot be an id is left out.
        initial = super().get_changeform_initial_data(request)
        for name, value in list(initial.items()):
            try:
                field = self.model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            ids = value if isinstance(value, list) else [value]
            if field.is_relation and not all(_short_number(str(v), 18) for v in ids):
                del initial[name]
        return initial


def _short_number(value: str, digits: int) -> bool:
    return value.isascii() and value.isdigit() and len(value) <= digits


class ReadOnlyAdmin(ProjectAdmin):
    """Append-only records: visible, never edited or deleted through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PolicyAdmin(ProjectAdmin):
    """Rows whose board (through ``board_path``) the user may see, per ``policy.boards_shown``."""

    board_path = "board"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.board_path}__in": policy.boards_shown(request.user)})


class PolicyReadOnlyAdmin(PolicyAdmin, ReadOnlyAdmin):
    pass


@admin.register(Club)
class ClubAdmin(ProjectAdmin):
    """Staff decide who acts for a club: its organisers create events in its name."""

    list_display = ["name", "city"]
    search_fields = ["name", "city", "organisers__username"]
    filter_horizontal = ["organisers"]


@admin.register(Player)
class PlayerAdmin(ProjectAdmin):
    list_display = ["name", "licence", "club", "user", "visibility"]
    list_filter = ["club", "visibility"]
    search_fields = ["name", "licence", "user__username"]
    autocomplete_fields = ["user", "club"]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "merged_name", "merged_id", "kept_name", "actor"]
    search_fields = ["merged_name", "kept_name", "actor"]


@admin.register(Season)
class SeasonAdmin(ProjectAdmin):
    list_display = ["name", "club", "starts", "ends", "point_table", "best", "rank_by"]
    list_filter = ["club"]


@admin.register(Registration)
class RegistrationAdmin(ProjectAdmin):
    """The pair's links stay with the pair: the withdraw token and the check-in token act
    without an account (a view permission must not become the power to withdraw a pair)."""

    list_display = ["event", "player1", "player2", "email", "status", "checked_in_at"]
    list_filter = ["status"]
    search_fields = ["player1", "player2", "email", "event__name"]
    exclude = ["token", "checkin_token"]
    readonly_fields = ["entry", "checked_in_at"]


# DRF's own page lists every account's API token in full (a staff account with the view
# permission would act as any account, superusers included) and lets staff make one for anyone.
admin.site.unregister(TokenProxy)


@admin.register(AccountToken)
class AccountTokenAdmin(ProjectAdmin, TokenAdmin):
    """Who holds an API token, and since when: enough to revoke a lost one (delete it; the
    account gets a new one at its next ``auth/token``). The key is never shown."""

    list_display = ["user", "created"]
    fields = ["user", "created"]
    readonly_fields = ["user", "created"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Pair)
class PairAdmin(ProjectAdmin):
    """A stored pair's players are read-only: they change through the organiser's
    substitution, which the audit trail keeps (here, every event it played would silently
    name other players)."""

    list_display = ["name", "player1", "player2", "club"]
    list_filter = ["club"]
    search_fields = ["name", "player1__name", "player2__name"]
    autocomplete_fields = ["player1", "player2", "club"]

    def get_readonly_fields(self, request, obj=None):
        return ["player1", "player2"] if obj is not None else []


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["pair"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Read-only: an event's status, publication, roles and entries change through the
    organiser's pages, which check the order of things and write the audit trail."""

    list_display = ["name", "date", "club", "status", "ruleset", "rounds_count", "published"]
    list_filter = ["status", "ruleset", "published", "club", "date"]
    search_fields = ["name", "venue", "club__name"]
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["commitment", "boards_ready", "standings_updated_at", "finished_at"]
    inlines = [EntryInline]
    date_hierarchy = "date"


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    """Read-only: entries, numbers and withdrawals change through the organiser's pages (audited)."""

    list_display = ["number", "pair", "event", "withdrawn_after_round"]
    list_filter = ["event"]
    search_fields = ["pair__name", "event__name"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "ns", "ew"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    """Read-only: rounds open, close and are re-seated through the organiser's pages (audited)."""

    list_display = ["event", "number", "status", "opened_at", "closed_at"]
    list_filter = ["status", "event"]
    inlines = [TableInline]


@admin.register(Board)
class BoardAdmin(PolicyReadOnlyAdmin):
    """A board's cards must not reach anyone before play: only the boards the policy shows."""

    board_path = "pk"
    list_display = ["event", "number", "dealer"]
    list_filter = ["event"]

    def get_queryset(self, request):
        qs = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return qs
        return qs.filter(pk__in=policy.boards_shown(request.user).values("pk"))


class SubmissionInline(admin.TabularInline):
    model = Submission
    extra = 0
    can_delete = False
    readonly_fields = ["source", "side", "submitted_by", "data", "created_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class AuditInline(admin.TabularInline):
    model = AuditEntry
    extra = 0
    can_delete = False
    readonly_fields = ["created_at", "actor", "action", "changes", "note"]
    fields = readonly_fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(BoardResult)
class BoardResultAdmin(PolicyAdmin):
    """Read-only here: results change through the table pages or a referee's ruling (audited)."""

    list_display = ["board", "table", "status", "trump", "score_ns", "score_ew", "source"]
    list_filter = ["status", "source", "trump", "table__round__event"]
    search_fields = ["table__ns__pair__name", "table__ew__pair__name"]
    inlines = [SubmissionInline, AuditInline]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayRecord)
class PlayRecordAdmin(PolicyReadOnlyAdmin):
    board_path = "result__board"

    list_display = ["pk", "result", "outcome", "created_at"]
    list_filter = ["outcome"]


class RulingInline(admin.TabularInline):
    model = Ruling
    extra = 0
    can_delete = False
    readonly_fields = ["created_at", "kind", "referee", "explanation", "data", "supersedes"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Dispute)
class DisputeAdmin(PolicyAdmin):
    board_path = "result__board"

    list_display = ["pk", "result", "reason", "status", "referee", "created_at"]
    list_filter = ["status", "reason", "result__table__round__event"]
    inlines = [RulingInline]

    def get_readonly_fields(self, request, obj=None) -> list[str]:
        # Every field, those added later too: a dispute changes only at the referee's desk,
        # audited (who may withdraw it, its status, its referee).
        return [f.name for f in Dispute._meta.concrete_fields]

    # Disputes open and close through the referee's desk (audited); a deletion would take its
    # rulings with it, without a trace.
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Entries about a result follow its board's visibility; the others (a board unlocked, a
    refused record, a table's time called: an open round's progress) the events the user runs,
    and finished events."""

    list_display = ["created_at", "event", "actor", "action", "result"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        shown = policy.boards_shown(request.user)
        over = Q(event__in=policy.events_run_by(request.user)) | Q(
            event__status=Event.Status.FINISHED
        )
        return qs.filter(Q(result__board__in=shown) | (Q(result__isnull=True) & over))

    list_filter = ["action", "event"]
    search_fields = ["actor", "note"]
    date_hierarchy = "created_at"


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    """Live standings hold the open round's scores: the events the user runs, or finished ones."""

    list_display = ["event", "after_round", "results_counted", "computed_at"]
    list_filter = ["event"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(
            Q(event__in=policy.events_run_by(request.user)) | Q(event__status=Event.Status.FINISHED)
        )


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(ProjectAdmin, auth_admin.UserAdmin):
    """Django's, filtering only on what it lists (a password hash is a field too)."""


admin.site.site_header = _("Botifarra Duplicate")
