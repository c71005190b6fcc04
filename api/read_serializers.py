"""What ``api.reads`` answers: the crosstable, travellers, scorecards and the audit trail, in
pair numbers (the same data as the public pages, from the same selectors)."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import (
    SIDES,
    BlankAsNullChoiceField,
    BlankAsNullField,
    CallSerializer,
    ChoiceField,
    side_or_null,
)
from tournaments.models import AuditEntry, BoardResult

OUTCOMES = [("W", "W"), ("D", "D"), ("L", "L")]
DIRECTIONS = [("NS", "NS"), ("EW", "EW")]


class CrossCellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text=_("null for the bye."))
    direction = side_or_null(help_text=_("The pair's side; null for the bye."))
    opponent = serializers.IntegerField(
        allow_null=True, help_text=_("The opponents' pair number; null for the bye.")
    )
    bye = serializers.BooleanField()
    outcome = ChoiceField(
        choices=OUTCOMES,
        allow_null=True,
        help_text=_(
            "W, D or L; null while you may not see the round's scores, or the match is not over."
        ),
    )
    points_for = serializers.IntegerField(allow_null=True)
    points_against = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField(help_text=_("The match was forfeited by either side."))


class CrossRowSerializer(serializers.Serializer):
    pair = serializers.IntegerField(help_text=_("The pair's number."))
    name = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True)
    match_points = serializers.FloatField(allow_null=True)
    cells = serializers.ListField(
        child=CrossCellSerializer(allow_null=True),
        help_text=_("One per round of `rounds`; null: not played."),
    )


class CrosstableSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The rounds shown (open or closed).")
    )
    scored_round = serializers.IntegerField(
        help_text=_("Scores are shown up to this round (0: none yet).")
    )
    rows = CrossRowSerializer(many=True)


RECOMPUTING_HELP = _(
    "The board's results changed since the standings were computed: its matchpoints and "
    "percentages are null until they are recomputed (moments later; longer while the task "
    "queue is down)."
)


class TravellerLineSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text=_("The table's number."))
    ns = serializers.IntegerField(allow_null=True, help_text=_("NS's pair number."))
    ew = serializers.IntegerField(allow_null=True, help_text=_("EW's pair number."))
    status = ChoiceField(choices=BoardResult.Status.choices)
    declarer = ChoiceField(choices=SIDES, help_text=_("The pair that chose the trump."))
    delegated = serializers.BooleanField()
    trump = ChoiceField(choices=BoardResult.Trump.choices)
    calls = CallSerializer(many=True)
    totals_ns = serializers.IntegerField(allow_null=True)
    totals_ew = serializers.IntegerField(allow_null=True)
    offending_pair = side_or_null()
    capot = serializers.BooleanField()
    score_ns = serializers.IntegerField()
    score_ew = serializers.IntegerField()
    net_ns = serializers.IntegerField(help_text=_("score_ns − score_ew."))
    adjusted_ns = BlankAsNullChoiceField(choices=BoardResult.Adjusted.choices)
    adjusted_ew = BlankAsNullChoiceField(choices=BoardResult.Adjusted.choices)
    mp_ns = serializers.FloatField(
        allow_null=True,
        help_text=_(
            "Matchpoints against the other tables (the board's duplicate comparison, not a "
            "match's match points); null: not compared, or being recomputed."
        ),
    )
    mp_ew = serializers.FloatField(allow_null=True, help_text=_("The same for EW."))
    pct_ns = serializers.FloatField(allow_null=True)
    pct_ew = serializers.FloatField(allow_null=True)
    recomputing = serializers.BooleanField(help_text=RECOMPUTING_HELP)
    vs_par = serializers.IntegerField(
        allow_null=True,
        help_text=_("net_ns minus the par's (perfect play), where the analysis is shown."),
    )


class TravellerSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    board = serializers.IntegerField()
    round = serializers.IntegerField()
    top = serializers.IntegerField(help_text=_("The most matchpoints a line can score."))
    pending = serializers.IntegerField(
        help_text=_("Results of this board not counted yet (entered or disputed).")
    )
    lines = TravellerLineSerializer(many=True)


class ScorecardLineSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    table = serializers.IntegerField(help_text=_("The table's number."))
    direction = ChoiceField(choices=DIRECTIONS)
    opponent = serializers.IntegerField(allow_null=True, help_text=_("Their pair number."))
    trump = ChoiceField(choices=BoardResult.Trump.choices)
    score_for = serializers.IntegerField()
    score_against = serializers.IntegerField()
    mp = serializers.FloatField(
        allow_null=True,
        help_text=_(
            "The pair's matchpoints on the board against the other tables (not match points); "
            "null: not compared, or being recomputed."
        ),
    )
    pct = serializers.FloatField(allow_null=True)
    recomputing = serializers.BooleanField(help_text=RECOMPUTING_HELP)
    vs_par = serializers.IntegerField(allow_null=True)


class RankSerializer(serializers.Serializer):
    after_round = serializers.IntegerField()
    rank = serializers.IntegerField()


class ScorecardSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    pair = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    total_for = serializers.IntegerField()
    total_against = serializers.IntegerField()
    pct = serializers.FloatField(allow_null=True)
    lines = ScorecardLineSerializer(
        many=True, help_text=_("The pair's boards of the rounds whose results you may see.")
    )
    history = RankSerializer(
        many=True, help_text=_("The pair's rank after each round whose scores you may see.")
    )


class AuditWhereSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=_("The result's id (GET /results/{id})."))
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    board = serializers.IntegerField()


class AuditEntrySerializer(serializers.ModelSerializer):
    result = serializers.SerializerMethodField()
    note = BlankAsNullField(help_text=_("Why, in the actor's words; null when none was given."))

    class Meta:
        model = AuditEntry
        fields = ["id", "actor", "action", "changes", "note", "created_at", "result"]

    @extend_schema_field(AuditWhereSerializer(allow_null=True))
    def get_result(self, entry: AuditEntry) -> dict | None:
        result = entry.result
        if result is None:
            return None
        return AuditWhereSerializer(
            {
                "id": result.pk,
                "round": result.table.round.number,
                "table": result.table.number,
                "board": result.board.number,
            }
        ).data


class AuditQuerySerializer(serializers.Serializer):
    action = serializers.CharField(
        required=False, max_length=40, help_text=_("Only the entries of this action.")
    )
