"""Request and response shapes of the event's lifecycle in the API (``api.lifecycle``).

The requests are read here for their types only; what they mean is checked by the organiser's
own form (``tournaments.forms.EventForm``) and by the services the pages use.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from api.serializers import ChoiceField, RequestSerializer
from tournaments.forms import MAX_CSV_BYTES, PRESETS
from tournaments.models import Club, Entry, Event, Pair, Player, RoleInvitation, Round, Table
from tournaments.services.events import OPTION_RANGES, OUTSTANDING_KINDS
from tournaments.services.names import max_length

PAIR_NUMBER = {"min_value": 1, "max_value": 32767}


def ranged(option: str) -> dict[str, int]:
    """The least and largest value of a numeric option, as an IntegerField's arguments."""
    least, most = OPTION_RANGES[option]
    return {"min_value": least, "max_value": most}


class EventWriteSerializer(RequestSerializer):
    """An event's details and options. Creating: ``name`` is required, the rest defaults (or
    comes from ``preset``); updating: only the fields sent change, and the options only until
    the event starts."""

    preset = ChoiceField(
        choices=[(p, p) for p in PRESETS],
        required=False,
        help_text=_("Fill in the options of a preset first (GET /event-presets)."),
    )
    name = serializers.CharField(max_length=200, required=False)
    club = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text=_("The club's name; empty for none. A new name creates the club."),
    )
    date = serializers.DateField(required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    ruleset = ChoiceField(choices=Event.Ruleset.choices, required=False)
    sant_vicenc_in_botifarra = serializers.BooleanField(required=False, allow_null=True)
    game_target = serializers.IntegerField(**ranged("game_target"), required=False)
    game_cap = serializers.IntegerField(**ranged("game_cap"), required=False)
    deal_limit = serializers.IntegerField(**ranged("deal_limit"), required=False, allow_null=True)
    match_mode = ChoiceField(choices=Event.MatchMode.choices, required=False)
    rounds_count = serializers.IntegerField(**ranged("rounds_count"), required=False)
    boards_per_round = serializers.IntegerField(**ranged("boards_per_round"), required=False)
    ranking_method = ChoiceField(choices=Event.Ranking.choices, required=False)
    bye_points = serializers.IntegerField(**ranged("bye_points"), required=False)
    draw = ChoiceField(choices=Event.Draw.choices, required=False)
    tiebreak_deals = serializers.IntegerField(**ranged("tiebreak_deals"), required=False)
    round_minutes = serializers.IntegerField(
        **ranged("round_minutes"), required=False, allow_null=True
    )
    late_entry_points = serializers.IntegerField(**ranged("late_entry_points"), required=False)
    requested_bye_points = serializers.IntegerField(
        **ranged("requested_bye_points"), required=False
    )
    registration_cap = serializers.IntegerField(
        **ranged("registration_cap"), required=False, allow_null=True
    )
    fee_amount = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    fee_currency = serializers.CharField(max_length=3, required=False)
    fee_instructions = serializers.CharField(max_length=300, required=False, allow_blank=True)
    competitor = ChoiceField(choices=Event.Competitor.choices, required=False)
    team_bye_vp = serializers.IntegerField(**ranged("team_bye_vp"), required=False)
    # The pairing page's options (docs/organisers.md, "Choosing a pairing method").
    format = ChoiceField(choices=Event.Format.choices, required=False)
    seeding = ChoiceField(choices=Event.Seeding.choices, required=False)
    accelerated = serializers.BooleanField(required=False)
    club_rounds = serializers.IntegerField(**ranged("club_rounds"), required=False)
    round_robin = ChoiceField(choices=Event.RoundRobin.choices, required=False)
    group_size = serializers.IntegerField(**ranged("group_size"), required=False)
    qualifiers = serializers.IntegerField(**ranged("qualifiers"), required=False)
    repesca = serializers.IntegerField(**ranged("repesca"), required=False, allow_null=True)
    repesca_min_points = serializers.IntegerField(**ranged("repesca_min_points"), required=False)


class PresetSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    description = serializers.CharField()
    options = serializers.DictField(
        child=serializers.JSONField(), help_text=_("The options the preset sets.")
    )


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PairSerializer(serializers.ModelSerializer):
    """A pair as registered in the event: ``number`` is how pages, cards and standings name it."""

    entry = serializers.IntegerField(source="pk", read_only=True, help_text=_("The entry id."))
    name = serializers.CharField(source="pair.name", read_only=True)
    players = serializers.SerializerMethodField()
    club = serializers.CharField(source="pair.club.name", read_only=True, allow_null=True)
    withdrawn = serializers.BooleanField(read_only=True)
    withdrawn_after_round = serializers.IntegerField(read_only=True, allow_null=True)
    joins_round = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text=_("A late entry: the first round it plays (null: from the start)."),
    )

    class Meta:
        model = Entry
        fields = [
            "number",
            "entry",
            "name",
            "players",
            "club",
            "withdrawn",
            "withdrawn_after_round",
            "joins_round",
        ]

    @extend_schema_field(PlayerSerializer(many=True))
    def get_players(self, entry: Entry) -> list[dict[str, Any]]:
        return [{"id": p.pk, "name": p.name} for p in (entry.pair.player1, entry.pair.player2)]


class PairRegisterSerializer(RequestSerializer):
    player1 = serializers.CharField(max_length=max_length(Player))
    player2 = serializers.CharField(max_length=max_length(Player))
    name = serializers.CharField(
        max_length=max_length(Pair),
        required=False,
        allow_blank=True,
        default="",
        help_text=_("Empty: “Player 1 – Player 2”."),
    )
    club = serializers.CharField(
        max_length=max_length(Club), required=False, allow_blank=True, default=""
    )


class PairsRegisterSerializer(RequestSerializer):
    pairs = PairRegisterSerializer(
        many=True,
        min_length=1,
        max_length=500,
        help_text=_("Every pair is registered, or none when one is refused."),
    )


# The body of POST events/{id}/pairs: one pair, or many.
PAIRS_REGISTER_REQUEST = PolymorphicProxySerializer(
    component_name="PairsRegistration",
    serializers=[PairRegisterSerializer, PairsRegisterSerializer],
    resource_type_field_name=None,
)


class PairsImportSerializer(RequestSerializer):
    csv = serializers.CharField(
        max_length=MAX_CSV_BYTES,
        help_text=_(
            "The text of a CSV file: player1, player2[, name][, club] per line, an optional "
            "header; comma, semicolon or tab. Every line is registered, or none."
        ),
    )


class ReasonSerializer(RequestSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class RequiredReasonSerializer(RequestSerializer):
    reason = serializers.CharField(max_length=1000, help_text=_("Why: kept in the audit trail."))


class WithdrawalSerializer(serializers.Serializer):
    pair = PairSerializer(allow_null=True, help_text=_("Null when the pair was removed."))
    removed = serializers.BooleanField(
        help_text=_("Before the start a withdrawal removes the pair from the event.")
    )
    forfeited_table = serializers.IntegerField(
        allow_null=True, help_text=_("The open round's table whose match the pair forfeits.")
    )
    dropped_proposal = serializers.IntegerField(
        allow_null=True, help_text=_("The round whose proposed pairing was dropped.")
    )


class ReinstatementSerializer(serializers.Serializer):
    pair = PairSerializer()
    unforfeited_table = serializers.IntegerField(allow_null=True)
    dropped_proposal = serializers.IntegerField(allow_null=True)


class SubstituteSerializer(RequestSerializer):
    seat = ChoiceField(choices=[(1, "1"), (2, "2")], help_text=_("Which player leaves: 1 or 2."))
    name = serializers.CharField(
        max_length=max_length(Player), help_text=_("The new player's name.")
    )
    reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class SubstitutionSerializer(serializers.Serializer):
    pair = PairSerializer(help_text=_("The pair with its players now."))
    from_round = serializers.IntegerField(help_text=_("The first round the new player plays."))
    player_out = serializers.CharField()
    player_in = serializers.CharField()


class PublishSerializer(RequestSerializer):
    published = serializers.BooleanField(
        help_text=_("True shows the results to everyone, false hides them.")
    )


class RoundTableSerializer(serializers.ModelSerializer):
    ns = serializers.IntegerField(source="ns.number", help_text=_("NS's pair number."))
    ew = serializers.IntegerField(source="ew.number", help_text=_("EW's pair number."))
    forfeited_by = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = ["id", "number", "ns", "ew", "forfeited_by"]

    @extend_schema_field(ChoiceField(choices=[("NS", "NS"), ("EW", "EW")], allow_null=True))
    def get_forfeited_by(self, table: Table) -> str | None:
        return table.forfeited_by or None


class MissingSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text=_("The table's number."))
    boards = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Every board of the three kinds below.")
    )
    missing = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Boards never entered.")
    )
    unconfirmed = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=_("Boards entered by one pair, awaiting the other's confirmation."),
    )
    disputed = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("Boards waiting for a referee.")
    )


class RoundDetailSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    id = serializers.IntegerField(allow_null=True, help_text=_("Null: not proposed yet."))
    number = serializers.IntegerField()
    status = ChoiceField(choices=Round.Status.choices, allow_null=True)
    boards = serializers.ListField(child=serializers.IntegerField())
    tables = RoundTableSerializer(many=True)
    bye = serializers.IntegerField(allow_null=True, help_text=_("The pair number with the bye."))
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text=_(
            "A proposal's rematches, seat-direction problems and second byes, in sentences."
        ),
    )
    missing = MissingSerializer(
        many=True,
        help_text=_("An open round: the boards each table still owes a counted result."),
    )
    opened_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    ruling_open = serializers.BooleanField(
        help_text=_("A closed round reopened so that referees may rule on it.")
    )


class PairingSerializer(RequestSerializer):
    tables = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(**PAIR_NUMBER), min_length=2, max_length=2
        ),
        max_length=500,
        help_text=_("[NS, EW] pair numbers, table 1 first."),
    )
    bye = serializers.IntegerField(required=False, allow_null=True, **PAIR_NUMBER)
    confirm = serializers.BooleanField(
        default=False,
        help_text=_("Apply it despite its warnings (otherwise a 409 lists them)."),
    )


class SwapSerializer(RequestSerializer):
    pairs = serializers.ListField(
        child=serializers.IntegerField(**PAIR_NUMBER),
        min_length=2,
        max_length=2,
        help_text=_("The two pair numbers that exchange places."),
    )
    confirm = serializers.BooleanField(default=False)


class CloseSerializer(RequestSerializer):
    accept_missing = serializers.BooleanField(
        default=False,
        help_text=_(
            "The explicit decision on the boards without a counted result (missing, "
            "unconfirmed or disputed): true closes anyway and they count as not played "
            "(a referee may still rule on a disputed one if the round is reopened for rulings); "
            "false refuses with a 409 that lists them."
        ),
    )
    accept = serializers.ListField(
        child=ChoiceField(choices=[(k, k) for k in OUTSTANDING_KINDS]),
        default=list,
        max_length=3,
        help_text=_(
            "The decision kind by kind: the kinds of board (missing, unconfirmed, disputed) "
            "that count as not played. The round closes only if every kind it has is "
            "listed; otherwise a 409 says which kinds, at which tables, still need a decision."
        ),
    )


class RulingsSerializer(RequestSerializer):
    open = serializers.BooleanField(
        help_text=_("True: reopen the closed round for rulings; false: end them.")
    )
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


# ---- roles (api.roles) -------------------------------------------------------------------------

ROLES = RoleInvitation.Role.choices


class RoleMemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    username = serializers.CharField(source="get_username")


class InvitationSerializer(serializers.Serializer):
    """A pending invitation: never its token, which only the link shown once holds."""

    id = serializers.IntegerField(source="pk")
    role = ChoiceField(choices=ROLES)
    email = serializers.SerializerMethodField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()

    @extend_schema_field(serializers.EmailField(allow_null=True))
    def get_email(self, invitation: RoleInvitation) -> str | None:
        return invitation.email or None


class RolesSerializer(serializers.Serializer):
    organisers = RoleMemberSerializer(many=True)
    referees = RoleMemberSerializer(
        many=True, help_text=_("Referees who are not also organisers (organisers referee anyway).")
    )
    invitations = InvitationSerializer(many=True, help_text=_("The pending invitations."))


class RoleChangeSerializer(RequestSerializer):
    role = ChoiceField(choices=ROLES)
    user = serializers.CharField(
        max_length=254, help_text=_("The account's username or e-mail address.")
    )


class InvitationCreateSerializer(RequestSerializer):
    role = ChoiceField(choices=ROLES)
    email = serializers.EmailField(
        max_length=254,  # RoleInvitation.email's column
        required=False,
        allow_blank=True,
        default="",
        help_text=_("Optional: whom the link is for (a new account gets it as its e-mail)."),
    )


class NewInvitationSerializer(InvitationSerializer):
    url = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The one-time link that appoints whoever opens it. Shown in this answer only: the "
            "server keeps no copy of it, so a replay (same Idempotency-Key) gives null."
        ),
    )
