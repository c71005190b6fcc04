"""Request and response shapes of the API (they also describe it in the OpenAPI schema).

Requests are only parsed here; what they mean is checked by the services (scores are always
computed by the engine, never accepted from a client).
"""

import datetime as dt
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import clip
from tournaments import play, policy
from tournaments.clock import round_clock
from tournaments.models import (
    AuditEntry,
    Board,
    BoardResult,
    BoardUnlock,
    Dispute,
    Entry,
    Event,
    PlayRecord,
    Round,
    Ruling,
    Submission,
    Table,
)
from tournaments.services.events import EVENT_DETAILS, EVENT_OPTIONS

MAX_ID = 2**31 - 1
SIDES = [("NS", "NS"), ("EW", "EW")]
SEATS = [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]
CALLS = [("contro", "contro"), ("recontro", "recontro"), ("sant_vicenc", "sant_vicenc")]


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class ChoiceField(serializers.ChoiceField):
    """DRF's ChoiceField, quoting at most 100 characters of a value it refuses (DRF echoes the
    whole value: a 2 MB one came back twice, in ``detail`` and in ``errors``)."""

    def fail(self, key: str, **kwargs: Any) -> None:
        if "input" in kwargs:
            kwargs["input"] = clip(kwargs["input"])
        super().fail(key, **kwargs)


# A request's body: a key it does not know is a 400 at that key ("Unknown field."), not dropped
# in silence, which would leave a client's typo (``publish`` for ``published``) unnoticed and its
# value unapplied. (A comment, not a docstring: the schema would show it on every request.)
class RequestSerializer(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        refused = {key: [_("Unknown field.")] for key in unknown}  # every one (errors cap: 250)
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if refused and isinstance(exc.detail, dict):  # said beside the body's other problems
                raise serializers.ValidationError({**exc.detail, **refused}) from None
            raise
        if refused:
            raise serializers.ValidationError(refused)
        return value


class BlankAsNullChoiceField(ChoiceField):
    """A choice the model stores as "" when there is none: sent as ``null``, never ``""``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return None if value in ("", None) else super().to_representation(value)


def side_or_null(**kwargs: Any) -> BlankAsNullChoiceField:
    return BlankAsNullChoiceField(choices=SIDES, **kwargs)


# ---- errors ----------------------------------------------------------------------------------


class FieldErrorSerializer(serializers.Serializer):
    field = serializers.CharField(
        help_text=_(
            "Path of the value concerned, e.g. totals.NS, record.play[17], body, non_field_errors."
        )
    )
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("The first message, as a sentence."))
    errors = FieldErrorSerializer(many=True)


# ---- authentication ----------------------------------------------------------------------------


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=200, trim_whitespace=False, style={"input_type": "password"}
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Token <token>`."))


class TableCodeSerializer(serializers.Serializer):
    code = serializers.CharField(
        max_length=20,
        help_text=_("Your side's 6-character code, from your half of the table card."),
    )
    side = ChoiceField(
        choices=SIDES,
        required=False,
        help_text=_("Optional: the side you expect the code to be (checked)."),
    )


class TableTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Table <token>`."))
    table = serializers.IntegerField(help_text=_("The table's id."))
    table_number = serializers.IntegerField()
    event = serializers.IntegerField()
    round = serializers.IntegerField(help_text=_("The round's number."))
    round_id = serializers.IntegerField()
    side = ChoiceField(choices=SIDES)
    expires = serializers.DateTimeField(
        help_text=_(
            "When the token stops working at the latest (ISO 8601): it stops earlier when the "
            "round closes or the table gets new codes."
        )
    )


_EXPIRES = serializers.DateTimeField()  # as TableTokenSerializer writes it


def table_token_answer(token: str, side: str, table: Table, expires: dt.datetime) -> dict[str, Any]:
    """What TableTokenSerializer gives for a new token, written directly: every table asks
    for two at the start of a round, and the serializer's copies of its fields cost more
    than the rest of the answer."""
    return {
        "token": token,
        "table": table.pk,
        "table_number": table.number,
        "event": table.round.event_id,
        "round": table.round.number,
        "round_id": table.round_id,
        "side": side,
        "expires": _EXPIRES.to_representation(expires),
    }


# ---- events, rounds, tables, boards, standings -------------------------------------------------


class BlankAsNullField(serializers.CharField):
    """A text that may be empty, answered as null when it is (docs/api.md: never "")."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> str | None:
        return value or None


class EventSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name", default=None, read_only=True, allow_null=True)
    venue = BlankAsNullField()
    fee_instructions = BlankAsNullField()
    seed = serializers.CharField(
        source="public_seed",
        read_only=True,
        allow_null=True,
        help_text=_(
            "Only once the event is finished; before that, "
            "check the commitment (SHA-256 of the seed)."
        ),
    )

    class Meta:
        model = Event
        fields = [
            "id",
            *EVENT_DETAILS,
            "status",
            "published",
            *EVENT_OPTIONS,
            "commitment",
            "seed",
            "finished_at",
            "boards_ready",
        ]
        read_only_fields = fields


class EntrySerializer(serializers.ModelSerializer):
    pair = serializers.CharField(source="pair.name", read_only=True)
    withdrawn = serializers.BooleanField(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "number", "pair", "withdrawn"]


class ClockSerializer(serializers.Serializer):
    """The round's clock as the pages show it (tournaments.clock)."""

    state = serializers.ChoiceField(
        choices=["none", "not_started", "running", "paused", "over"], read_only=True
    )
    seconds_left = serializers.SerializerMethodField()
    ends_at = serializers.DateTimeField(read_only=True, allow_null=True)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seconds_left(self, clock) -> int | None:
        return None if clock.state == "none" else clock.seconds_left


class RoundSerializer(serializers.ModelSerializer):
    boards = serializers.SerializerMethodField()
    bye = EntrySerializer(read_only=True, allow_null=True)
    tables = serializers.IntegerField(source="table_count", read_only=True)
    clock = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id",
            "number",
            "status",
            "boards",
            "bye",
            "tables",
            "opened_at",
            "closed_at",
            "clock",
        ]

    def to_representation(self, rnd: Round) -> dict[str, Any]:
        data = super().to_representation(rnd)
        if rnd.status == Round.Status.PENDING and not self.context.get("event_staff"):
            # A proposal the organiser may still change is theirs and the referees' (as its
            # tables in GET rounds/{id}/tables and on the pairings page), not the players'.
            data["bye"], data["tables"] = None, 0
        return data

    @extend_schema_field(ClockSerializer)
    def get_clock(self, rnd: Round) -> dict[str, object]:
        return dict(ClockSerializer(round_clock(rnd)).data)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_boards(self, rnd: Round) -> list[int]:
        return list(rnd.board_numbers)


class TableSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    ns = EntrySerializer(read_only=True)
    ew = EntrySerializer(read_only=True)
    code_ns = serializers.SerializerMethodField(
        help_text=_("NS's code; only for the event's organisers.")
    )
    code_ew = serializers.SerializerMethodField(
        help_text=_("EW's code; only for the event's organisers.")
    )
    time_after = serializers.SerializerMethodField(
        help_text=_(
            "The deal during which time was called at the table (null until it says). While the "
            "round is open, only for the event's organisers and referees and the table itself."
        )
    )

    class Meta:
        model = Table
        fields = ["id", "number", "round", "ns", "ew", "code_ns", "code_ew", "time_after"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_code_ns(self, table: Table) -> str | None:
        return table.code_ns if self.context.get("show_codes") else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_code_ew(self, table: Table) -> str | None:
        return table.code_ew if self.context.get("show_codes") else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_time_after(self, table: Table) -> int | None:
        actor = self.context.get("actor")
        if table.time_after is None or actor is None:
            return None
        if not policy.can_see_time_called(actor, table, staff=self.context.get("staff", False)):
            return None
        return table.time_after


class BoardSerializer(serializers.Serializer):
    event = serializers.IntegerField(source="event_id")
    number = serializers.IntegerField()
    round = serializers.IntegerField(source="round_number")
    dealer = serializers.CharField()
    hands_visible = serializers.BooleanField()
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text=_(
            "Only when you may see the cards: the event's organisers and referees, a table once "
            "it has unlocked the board (stored its result or declared it played), everyone once "
            "the board's round is closed and the event published."
        ),
    )

    analysis = serializers.DictField(
        required=False,
        allow_null=True,
        help_text=_(
            "Under the same rule as the hands: the perfect-play analysis (docs/analysis.md), "
            '{"points": {trump: {"NS", "EW"}}, "par": {...}}, or null while it is not '
            "computed yet."
        ),
    )

    def to_representation(self, board: Board) -> dict[str, Any]:
        data = {
            "event": board.event_id,
            "number": board.number,
            "round": board.round_number,
            "dealer": board.dealer,
            "hands_visible": bool(self.context.get("hands_visible")),
        }
        if data["hands_visible"]:
            data["hands"] = board.hands
        if self.context.get("analysis_visible"):
            data["analysis"] = self.context.get("analysis")
        return data


class StandingRowSerializer(serializers.Serializer):
    """One pair's line of the standings, as the standings task stored it (scoring.Standing)."""

    rank = serializers.IntegerField(help_text=_("Pairs equal on every criterion share a rank."))
    shared = serializers.BooleanField(help_text=_("True when another pair has the same rank."))
    pair = serializers.IntegerField(help_text=_("The pair's number in the event."))
    name = serializers.CharField(help_text=_("The pair's name."))
    entry = serializers.IntegerField(
        help_text=_("The pair's entry id (the id in /events/{id}/pairs); prefer the number.")
    )
    match_points = serializers.FloatField(
        help_text=_("Win 2, draw 1, loss 0; byes and late entries as docs/scoring.md says.")
    )
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    points_for = serializers.IntegerField(help_text=_("Hand points scored in the matches."))
    points_against = serializers.IntegerField()
    point_diff = serializers.IntegerField(help_text=_("points_for − points_against."))
    buchholz = serializers.FloatField(help_text=_("The sum of the opponents' match points."))
    duplicate_pct = serializers.FloatField(
        help_text=_("Average duplicate percentage over the boards played (0–100).")
    )
    boards_played = serializers.IntegerField()
    byes = serializers.IntegerField()
    rests = serializers.IntegerField(help_text=_("Rounds without a game that score nothing."))
    requested_byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class StandingsMatchSerializer(serializers.Serializer):
    """One table's match of the round, in pair numbers."""

    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text=_("The table's number."))
    ns = serializers.IntegerField(help_text=_("NS's pair number."))
    ew = serializers.IntegerField(help_text=_("EW's pair number."))
    total_ns = serializers.IntegerField()
    total_ew = serializers.IntegerField()
    boards_played = serializers.IntegerField()
    mp_ns = serializers.IntegerField(
        help_text=_(
            "NS's match points from this match (2 a win, 1 a draw), not a board's matchpoints."
        )
    )
    mp_ew = serializers.IntegerField(help_text=_("The same for EW."))
    final = serializers.BooleanField(
        help_text=_("Counted in the standings: the match is over or its round closed.")
    )
    forfeited_by = side_or_null(
        help_text=_("The side that withdrew during the round and forfeited the match.")
    )


class StandingsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text=_("The standings after this round (default: the latest you may see)."),
    )


class StandingsSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    after_round = serializers.IntegerField(
        allow_null=True, help_text=_("The round these standings follow; null: none yet.")
    )
    rounds = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Every round whose standings you may read (?after=)."),
    )
    stale = serializers.BooleanField(help_text=_("True while a recomputation is pending."))
    updated_at = serializers.DateTimeField(allow_null=True)
    ranking_method = ChoiceField(choices=Event.Ranking.choices)
    criteria = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("The fields of a row that rank the pairs, in order (the larger the better)."),
    )
    rows = StandingRowSerializer(many=True)
    matches = StandingsMatchSerializer(
        many=True, help_text=_("The matches of round after_round, in table order.")
    )


class TeamStandingRowSerializer(serializers.Serializer):
    """One team's line of the team standings (scoring.team_types.TeamStanding)."""

    rank = serializers.IntegerField(help_text=_("Teams equal on every criterion share a rank."))
    shared = serializers.BooleanField(help_text=_("True when another team has the same rank."))
    number = serializers.IntegerField(help_text=_("The team's number in the event."))
    name = serializers.CharField(help_text=_("The team's name."))
    vp = serializers.FloatField(help_text=_("Victory points (20 shared per match; byes)."))
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    units_for = serializers.IntegerField(help_text=_("Units won on the difference scale."))
    units_against = serializers.IntegerField()
    units_diff = serializers.IntegerField(help_text=_("units_for − units_against."))
    buchholz = serializers.FloatField(help_text=_("The sum of the opponents' VPs."))
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class TeamMatchSummarySerializer(serializers.Serializer):
    """One match of the round, in team numbers."""

    round = serializers.IntegerField()
    match = serializers.IntegerField()
    team_a = serializers.IntegerField(
        help_text=_("Team A's number (North–South in the open room).")
    )
    team_b = serializers.IntegerField()
    boards = serializers.IntegerField(help_text=_("Boards scheduled."))
    boards_played = serializers.IntegerField()
    units_a = serializers.IntegerField()
    units_b = serializers.IntegerField()
    vp_a = serializers.FloatField()
    vp_b = serializers.FloatField()


class ButlerRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    pair = serializers.IntegerField(help_text=_("The pair's number in the event."))
    name = serializers.CharField()
    team = serializers.IntegerField(allow_null=True, help_text=_("The pair's team's number."))
    boards = serializers.IntegerField()
    units = serializers.IntegerField()
    average = serializers.FloatField(help_text=_("Units per board."))


class TeamStandingsSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    after_round = serializers.IntegerField(
        allow_null=True, help_text=_("The round these standings follow; null: none yet.")
    )
    rounds = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Every round whose standings you may read (?after=)."),
    )
    stale = serializers.BooleanField(help_text=_("True while a recomputation is pending."))
    updated_at = serializers.DateTimeField(allow_null=True)
    rows = TeamStandingRowSerializer(many=True)
    matches = TeamMatchSummarySerializer(
        many=True, help_text=_("The matches of round after_round, in match order.")
    )
    butler = ButlerRowSerializer(many=True, help_text=_("The Butler ranking of the pairs."))


# ---- results -------------------------------------------------------------------------------


class CallSerializer(serializers.Serializer):
    seat = ChoiceField(choices=SEATS)
    call = ChoiceField(choices=CALLS)


class PairNumbersSerializer(serializers.Serializer):
    NS = serializers.IntegerField(min_value=0, max_value=72)
    EW = serializers.IntegerField(min_value=0, max_value=72)


class PairScoreSerializer(serializers.Serializer):
    NS = serializers.IntegerField()
    EW = serializers.IntegerField()


class AdjustedSerializer(serializers.Serializer):
    NS = BlankAsNullChoiceField(choices=BoardResult.Adjusted.choices)
    EW = BlankAsNullChoiceField(choices=BoardResult.Adjusted.choices)


class ShortResultSerializer(serializers.Serializer):
    table = id_field(help_text=_("The table's id."))
    board = serializers.IntegerField(min_value=1, max_value=32767)
    delegated = serializers.BooleanField(default=False)
    trump = ChoiceField(choices=BoardResult.Trump.choices)
    doubles = CallSerializer(many=True, required=False, max_length=3)
    totals = PairNumbersSerializer(
        required=False,
        help_text=_(
            "Card points of each pair, summing to 72. Give either totals or offending_pair."
        ),
    )
    offending_pair = ChoiceField(
        choices=SIDES,
        required=False,
        help_text=_("The pair that played an illegal card (the penalty applies)."),
    )
    version = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=_("To correct your own entry: the version you are replacing."),
    )

    @classmethod
    def validated(cls, data: Any) -> dict[str, Any]:
        """The body's validated data as plain dicts (raises DRF's ValidationError). A body
        of the usual shape, exact JSON types and nothing out of range, is checked here without
        building the serializer's fields (a tenth of a submission's cost); anything else goes
        through the serializer, which accepts the same and words every refusal."""
        quick = _short_result(data)
        if quick is not None:
            return quick
        form = cls(data=data)
        form.is_valid(raise_exception=True)
        return form.plain_data()

    def plain_data(self) -> dict[str, Any]:
        """The validated data with plain dicts for the nested ones, doubles always there."""
        v = self.validated_data
        out = {k: v[k] for k in ("table", "board", "delegated", "trump", "version") if k in v}
        out["doubles"] = [dict(d) for d in v.get("doubles", [])]
        if "totals" in v:
            out["totals"] = dict(v["totals"])
        if "offending_pair" in v:
            out["offending_pair"] = v["offending_pair"]
        return out


def short_service_data(validated: dict[str, Any]) -> dict[str, Any]:
    """What ``results.result_submit_short`` takes of a validated short result."""
    return {
        k: validated[k]
        for k in ("delegated", "trump", "doubles", "totals", "offending_pair")
        if k in validated
    }


_TRUMPS = frozenset(BoardResult.Trump.values)
_SEATS = frozenset(k for k, _label in SEATS)
_CALLS = frozenset(k for k, _label in CALLS)
_SIDES = frozenset(k for k, _label in SIDES)


def _int_in(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _short_result(data: Any) -> dict[str, Any] | None:
    """``ShortResultSerializer``'s validated data of a plainly valid body, else None."""
    if type(data) is not dict:
        return None
    table, board, trump = data.get("table"), data.get("board"), data.get("trump")
    delegated = data.get("delegated", False)
    if not (
        _int_in(table, 1, MAX_ID)
        and _int_in(board, 1, 32767)
        and type(trump) is str
        and trump in _TRUMPS
        and type(delegated) is bool
    ):
        return None
    out: dict[str, Any] = {"table": table, "board": board, "delegated": delegated, "trump": trump}
    if "doubles" in data:
        doubles = data["doubles"]
        if type(doubles) is not list or len(doubles) > 3:
            return None
        for call in doubles:
            if not (
                type(call) is dict
                and type(call.get("seat")) is str
                and call["seat"] in _SEATS
                and type(call.get("call")) is str
                and call["call"] in _CALLS
            ):
                return None
        out["doubles"] = [{"seat": c["seat"], "call": c["call"]} for c in doubles]
    else:
        out["doubles"] = []
    if "totals" in data:
        totals = data["totals"]
        if not (
            type(totals) is dict
            and _int_in(totals.get("NS"), 0, 72)
            and _int_in(totals.get("EW"), 0, 72)
        ):
            return None
        out["totals"] = {"NS": totals["NS"], "EW": totals["EW"]}
    if "offending_pair" in data:
        side = data["offending_pair"]
        if type(side) is not str or side not in _SIDES:
            return None
        out["offending_pair"] = side
    if "version" in data:
        if not _int_in(data["version"], 1, MAX_ID):
            return None
        out["version"] = data["version"]
    return out


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=_("The version you saw; a 409 if the result changed since."),
    )


class ConfirmSerializer(VersionSerializer):
    code = serializers.CharField(
        max_length=20,
        required=False,
        help_text=_(
            "The other pair's code, when they confirm on the phone of the pair that entered "
            "(a token acts for its own side only)."
        ),
    )

    @classmethod
    def validated(cls, data: Any) -> dict[str, Any]:
        """The body's validated data (raises DRF's ValidationError). The usual confirmation,
        an empty body or one with only a valid ``version``, is taken without building the
        serializer's fields (as the short result's quick check); anything else goes through
        the serializer, which accepts the same and words every refusal."""
        quick = _confirmation(data)
        if quick is not None:
            return quick
        form = cls(data=data)
        form.is_valid(raise_exception=True)
        return dict(form.validated_data)


def _confirmation(data: Any) -> dict[str, Any] | None:
    """``ConfirmSerializer``'s validated data of a body without a code, else None."""
    if type(data) is not dict or not data.keys() <= {"version"}:
        return None
    if "version" in data and not _int_in(data["version"], 1, MAX_ID):
        return None
    return dict(data)


class DeclarePlayedSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    board = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class BoardPlayedSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    board = serializers.IntegerField()
    reason = serializers.ChoiceField(
        choices=BoardUnlock.Reason.choices, help_text=_("What unlocked the board for the table.")
    )
    unlocked_at = serializers.DateTimeField()


class ResultSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="table.round.event_id", read_only=True)
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table = serializers.IntegerField(source="table_id", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    ns = serializers.IntegerField(source="table.ns.number", read_only=True)
    ew = serializers.IntegerField(source="table.ew.number", read_only=True)
    board = serializers.IntegerField(source="board.number", read_only=True)
    totals = serializers.SerializerMethodField()
    offending_pair = side_or_null(
        help_text=_("The pair that played an illegal card (the penalty applies); null if none.")
    )
    entered_side = side_or_null(
        help_text=_("The side whose entry created the result; null when staff entered it.")
    )
    score = serializers.SerializerMethodField()
    adjusted = serializers.SerializerMethodField()
    open_dispute = serializers.SerializerMethodField()

    class Meta:
        model = BoardResult
        fields = [
            "id",
            "event",
            "round",
            "table",
            "table_number",
            "ns",
            "ew",
            "board",
            "status",
            "source",
            "delegated",
            "trump",
            "doubles",
            "totals",
            "offending_pair",
            "multiplier",
            "score",
            "capot",
            "adjusted",
            "entered_by",
            "entered_side",
            "confirmed_by",
            "version",
            "open_dispute",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(PairNumbersSerializer(allow_null=True))
    def get_totals(self, r: BoardResult) -> dict[str, int] | None:
        return None if r.totals_ns is None else {"NS": r.totals_ns, "EW": r.totals_ew}

    @extend_schema_field(PairScoreSerializer)
    def get_score(self, r: BoardResult) -> dict[str, int]:
        return {"NS": r.score_ns, "EW": r.score_ew}

    @extend_schema_field(AdjustedSerializer(allow_null=True))
    def get_adjusted(self, r: BoardResult) -> dict[str, str | None] | None:
        if not (r.adjusted_ns or r.adjusted_ew):
            return None
        return AdjustedSerializer({"NS": r.adjusted_ns, "EW": r.adjusted_ew}).data

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_open_dispute(self, r: BoardResult) -> int | None:
        for dispute in r.disputes.all():
            if dispute.status == Dispute.Status.OPEN:
                return dispute.pk
        return None

    def to_representation(self, r: BoardResult) -> dict[str, Any]:
        # What the fields above give, written out: every submission answers with a result, and
        # building a model serializer's fields costs more than the rest of the answer
        # (tests/api/test_result_representation.py holds the two equal).
        table = r.table
        return {
            "id": r.pk,
            "event": table.round.event_id,
            "round": table.round.number,
            "table": r.table_id,
            "table_number": table.number,
            "ns": table.ns.number,
            "ew": table.ew.number,
            "board": r.board.number,
            "status": str(r.status),
            "source": str(r.source),
            "delegated": bool(r.delegated),
            "trump": str(r.trump),
            "doubles": r.doubles,
            "totals": self.get_totals(r),
            "offending_pair": str(r.offending_pair) or None,
            "multiplier": r.multiplier,
            "score": self.get_score(r),
            "capot": bool(r.capot),
            "adjusted": self.get_adjusted(r),
            "entered_by": str(r.entered_by),
            "entered_side": str(r.entered_side) or None,
            "confirmed_by": str(r.confirmed_by),
            "version": r.version,
            "open_dispute": self.get_open_dispute(r),
            "created_at": _DATETIME.to_representation(r.created_at),
            "updated_at": _DATETIME.to_representation(r.updated_at),
        }

    def field_representation(self, r: BoardResult) -> dict[str, Any]:
        """DRF's own representation through the fields (what to_representation must equal)."""
        return super().to_representation(r)


_DATETIME = serializers.DateTimeField(read_only=True)


class VerdictSerializer(serializers.Serializer):
    """The engine's verdict, unchanged (docs/play-record.md)."""

    outcome = ChoiceField(choices=["complete", "illegal", "invalid"])
    multiplier = serializers.IntegerField(required=False)
    tricks = PairScoreSerializer(required=False)
    totals = PairScoreSerializer(required=False)
    score = PairScoreSerializer(required=False)
    capot = serializers.BooleanField(required=False)
    trick_winners = serializers.ListField(child=serializers.CharField(), required=False)
    trick = serializers.IntegerField(required=False)
    position = serializers.IntegerField(required=False)
    seat = serializers.CharField(required=False)
    card = serializers.CharField(required=False)
    rule = serializers.CharField(required=False)
    legal = serializers.ListField(child=serializers.CharField(), required=False)
    problems = serializers.ListField(child=serializers.DictField(), required=False)


class PlayRecordSummarySerializer(serializers.ModelSerializer):
    verdict = serializers.SerializerMethodField()

    class Meta:
        model = PlayRecord
        fields = ["id", "outcome", "verdict", "created_at"]

    @extend_schema_field(VerdictSerializer())
    def get_verdict(self, pr: PlayRecord) -> dict[str, Any]:
        return play.verdict_out(pr.verdict)


class SubmissionSerializer(serializers.ModelSerializer):
    side = side_or_null(help_text=_("The side that sent it; null when staff sent it."))
    play_record = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = ["id", "source", "side", "submitted_by", "data", "play_record", "created_at"]

    @extend_schema_field(PlayRecordSummarySerializer(allow_null=True))
    def get_play_record(self, s: Submission) -> dict[str, Any] | None:
        record = getattr(s, "play_record", None)
        return PlayRecordSummarySerializer(record).data if record else None


class ResultDetailSerializer(ResultSerializer):
    submissions = serializers.SerializerMethodField(
        help_text=_(
            "Every version sent, with play records' verdicts: for the table's players, the event's "
            "organisers and referees only (otherwise null)."
        )
    )

    class Meta(ResultSerializer.Meta):
        fields = [*ResultSerializer.Meta.fields, "submissions"]
        read_only_fields = fields

    def to_representation(self, r: BoardResult) -> dict[str, Any]:
        return {**super().to_representation(r), "submissions": self.get_submissions(r)}

    @extend_schema_field(SubmissionSerializer(many=True, allow_null=True))
    def get_submissions(self, r: BoardResult) -> list[dict[str, Any]] | None:
        if not self.context.get("details"):
            return None
        subs = r.submissions.select_related("play_record").order_by("created_at", "pk")
        return SubmissionSerializer(subs, many=True).data


class ResultFilterSerializer(serializers.Serializer):
    event = id_field(required=False)
    round = id_field(required=False, help_text=_("The round's id."))
    round_number = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text=_("The round's number, as each result's round gives it."),
    )
    table = id_field(required=False, help_text=_("The table's id."))
    board = serializers.IntegerField(min_value=1, max_value=32767, required=False)
    status = ChoiceField(choices=BoardResult.Status.choices, required=False)


# ---- play records --------------------------------------------------------------------------


class PlayRecordSubmitSerializer(serializers.Serializer):
    table = id_field(help_text=_("The table's id."))
    board = serializers.IntegerField(min_value=1, max_value=32767)
    record = serializers.JSONField(
        help_text=_(
            "A play record (format botifarra-play/1): deal.hands may be left out, the board's "
            "seeded deal is used."
        )
    )
    version = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)


class PlayRecordResultSerializer(serializers.Serializer):
    result = ResultSerializer()
    verdict = VerdictSerializer()


class PlayRecordSerializer(serializers.ModelSerializer):
    result = serializers.IntegerField(source="result_id", read_only=True, allow_null=True)
    board = serializers.IntegerField(source="result.board.number", read_only=True)
    table = serializers.IntegerField(source="result.table_id", read_only=True)
    record = serializers.SerializerMethodField()
    verdict = serializers.SerializerMethodField()

    class Meta:
        model = PlayRecord
        fields = ["id", "result", "table", "board", "outcome", "record", "verdict", "created_at"]

    # The record as the table sent it (issue #5); the canonical form is what replays read.
    @extend_schema_field(serializers.JSONField())
    def get_record(self, pr: PlayRecord) -> Any:
        return pr.as_received()

    # As the engine gives it, keys in play-record.md's order (a VerdictSerializer would
    # reorder the keys, and the database gives JSON back with its keys sorted).
    @extend_schema_field(VerdictSerializer())
    def get_verdict(self, pr: PlayRecord) -> dict[str, Any]:
        return play.verdict_out(pr.verdict)


class VerifySerializer(serializers.Serializer):
    record = serializers.JSONField(
        help_text=_("A play record. Outside an event its deal.hands are required.")
    )
    event = id_field(
        required=False,
        help_text=_(
            "With board: replay against this event's seeded board and rules (only for people who "
            "may see its cards)."
        ),
    )
    board = serializers.IntegerField(min_value=1, max_value=32767, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("event" in attrs) != ("board" in attrs):
            field = "board" if "event" in attrs else "event"
            raise serializers.ValidationError({field: _("Give both event and board, or neither.")})
        return attrs


# ---- disputes ------------------------------------------------------------------------------


class DisputeRequestSerializer(serializers.Serializer):
    result = id_field(help_text=_("The result's id."))
    reason = serializers.CharField(max_length=2000, help_text=_("What went wrong, briefly."))


class RuleSerializer(serializers.Serializer):
    kind = ChoiceField(choices=Ruling.Kind.choices)
    explanation = serializers.CharField(max_length=4000)
    data = serializers.DictField(
        required=False,
        default=dict,
        help_text=_(
            "accept: {submission}; penalty: {offending_pair}; corrected: a short result "
            "{delegated, trump, doubles, totals} or {play_record}; adjusted: {adjusted_ns, "
            "adjusted_ew, score: {NS, EW}}."
        ),
    )
    revises = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        help_text=_(
            "Optional: the id of the ruling you saw in force (null: none). When another is in "
            "force now (ruled meanwhile), nothing is ruled: 409 at revises."
        ),
    )

    def validate_data(self, data: dict[str, Any]) -> dict[str, Any]:
        # The shapes the ruling service reads directly (it trusts them to be plain values).
        choices = {
            "adjusted_ns": BoardResult.Adjusted.values,
            "adjusted_ew": BoardResult.Adjusted.values,
            "offending_pair": ["NS", "EW"],
        }
        for key, allowed in choices.items():
            if (
                key in data
                and data[key] not in ("", None)
                and (not isinstance(data[key], str) or data[key] not in allowed)
            ):
                raise serializers.ValidationError(
                    {key: [_("Choose one of: %(c)s.") % {"c": ", ".join(allowed)}]}
                )
        if "submission" in data and (
            isinstance(data["submission"], bool) or not isinstance(data["submission"], int)
        ):
            raise serializers.ValidationError({"submission": [_("Give a submission's id.")]})
        # Numbers the database could not hold (an adjusted score of 10**30) are refused here,
        # with their path, rather than failing inside the save.
        stack: list[tuple[str, Any]] = [("", data)]
        while stack:
            path, value = stack.pop()
            if isinstance(value, dict):
                stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
            elif isinstance(value, list):
                stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
            else:
                try:  # the services turn numbers written as text into int too
                    too_large = not isinstance(value, bool) and abs(int(float(value))) > MAX_ID
                except (TypeError, ValueError, OverflowError):
                    too_large = isinstance(value, (int, float))
                if too_large:
                    raise serializers.ValidationError({path: [_("This number is too large.")]})
        return data


class RulingSerializer(serializers.ModelSerializer):
    referee = serializers.CharField(source="referee.get_username", read_only=True)
    supersedes = serializers.IntegerField(source="supersedes_id", read_only=True, allow_null=True)

    class Meta:
        model = Ruling
        fields = ["id", "kind", "data", "explanation", "referee", "supersedes", "created_at"]


class AuditSerializer(serializers.ModelSerializer):
    note = BlankAsNullField(help_text=_("Why, in the actor's words; null when none was given."))

    class Meta:
        model = AuditEntry
        fields = ["actor", "action", "changes", "note", "created_at"]


class DisputeSerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="result.table.round.event_id", read_only=True)
    round = serializers.IntegerField(source="result.table.round.number", read_only=True)
    table = serializers.IntegerField(source="result.table_id", read_only=True)
    table_number = serializers.IntegerField(source="result.table.number", read_only=True)
    board = serializers.IntegerField(source="result.board.number", read_only=True)
    referee = serializers.CharField(
        source="referee.get_username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Dispute
        fields = [
            "id",
            "result",
            "event",
            "round",
            "table",
            "table_number",
            "board",
            "reason",
            "details",
            "status",
            "opened_by",
            "referee",
            "created_at",
            "closed_at",
        ]
        read_only_fields = fields


class DisputeDetailSerializer(DisputeSerializer):
    result = ResultSerializer(read_only=True)
    rulings = RulingSerializer(many=True, read_only=True)
    history = serializers.SerializerMethodField(help_text=_("The result's audit trail."))

    class Meta(DisputeSerializer.Meta):
        fields = [*DisputeSerializer.Meta.fields, "rulings", "history"]
        read_only_fields = fields

    @extend_schema_field(AuditSerializer(many=True))
    def get_history(self, d: Dispute) -> list[dict[str, Any]]:
        return AuditSerializer(d.result.audit.order_by("created_at", "pk"), many=True).data
