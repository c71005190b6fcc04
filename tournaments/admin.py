from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments.forms_login import AdminLoginForm
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    Club,
    Dispute,
    Entry,
    Event,
    Pair,
    Player,
    PlayRecord,
    Round,
    Ruling,
    StandingsSnapshot,
    Submission,
    Table,
)

# The admin's login counts its attempts with the site's and the API's (tournaments.ratelimit).
admin.site.login_form = AdminLoginForm


class ReadOnlyAdmin(admin.ModelAdmin):
    """Append-only records: visible, never edited or deleted through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Staff decide who acts for a club: its organisers create events in its name."""

    list_display = ["name", "city"]
    search_fields = ["name", "city", "organisers__username"]
    filter_horizontal = ["organisers"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "licence", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name", "licence", "user__username"]
    autocomplete_fields = ["user", "club"]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["name", "player1", "player2", "club"]
    list_filter = ["club"]
    search_fields = ["name", "player1__name", "player2__name"]
    autocomplete_fields = ["player1", "player2", "club"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["pair"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "club", "status", "ruleset", "rounds_count", "published"]
    list_filter = ["status", "ruleset", "published", "club", "date"]
    search_fields = ["name", "venue", "club__name"]
    filter_horizontal = ["organisers", "referees"]
    readonly_fields = ["commitment", "boards_ready", "standings_updated_at", "finished_at"]
    inlines = [EntryInline]
    date_hierarchy = "date"


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["number", "pair", "event", "withdrawn_after_round"]
    list_filter = ["event"]
    search_fields = ["pair__name", "event__name"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "ns", "ew", "code"]
    readonly_fields = ["code"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "opened_at", "closed_at"]
    list_filter = ["status", "event"]
    inlines = [TableInline]


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    """Hands are only for staff: a board's cards must not reach a player before play."""

    list_display = ["event", "number", "dealer"]
    list_filter = ["event"]

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser


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
class BoardResultAdmin(admin.ModelAdmin):
    """Read-only here: results change through the table pages or a referee's ruling (audited)."""

    list_display = ["board", "table", "status", "trump", "score_ns", "score_ew", "source"]
    list_filter = ["status", "source", "trump", "table__round__event"]
    search_fields = ["table__ns__pair__name", "table__ew__pair__name"]
    inlines = [SubmissionInline, AuditInline]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayRecord)
class PlayRecordAdmin(ReadOnlyAdmin):
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
class DisputeAdmin(admin.ModelAdmin):
    list_display = ["pk", "result", "reason", "status", "referee", "created_at"]
    list_filter = ["status", "reason", "result__table__round__event"]
    readonly_fields = [
        "result",
        "reason",
        "details",
        "opened_by",
        "previous_status",
        "status",
        "referee",
        "closed_at",
    ]
    inlines = [RulingInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "event", "actor", "action", "result"]
    list_filter = ["action", "event"]
    search_fields = ["actor", "note"]
    date_hierarchy = "created_at"


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["event", "after_round", "results_counted", "computed_at"]
    list_filter = ["event"]


admin.site.site_header = _("Botifarra Duplicate")
