"""A factory for every model (a test builds what it needs and nothing more)."""

import json
import random
import uuid
from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine.analysis import CardCost
from engine.cards import Seat
from engine.par import par as engine_par
from engine.rules import TRUMPS, Rules
from tournaments import play as adapter
from tournaments.models import (
    AccountToken,
    AttemptCounter,
    AuditEntry,
    Board,
    BoardAnalysis,
    BoardResult,
    BoardUnlock,
    ByeRequest,
    Club,
    Dispute,
    Entry,
    Event,
    ForbiddenPair,
    IdempotentResponse,
    League,
    LeagueAudit,
    LeagueFixture,
    LeagueGame,
    LeagueTeam,
    LineUp,
    Pair,
    Player,
    PlayerMerge,
    PlayerRating,
    PlayRecord,
    PlayRecordAnalysis,
    RatingHistory,
    Registration,
    ResultsMail,
    RoleInvitation,
    Round,
    Ruling,
    Season,
    StandingsSnapshot,
    Submission,
    Substitution,
    Table,
    TableToken,
    Team,
    TeamMatch,
    TeamMember,
    Webhook,
    WebhookAttempt,
    WebhookDelivery,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    player1 = factory.SubFactory(PlayerFactory)
    player2 = factory.SubFactory(PlayerFactory)
    name = factory.LazyAttribute(lambda o: f"{o.player1.name} – {o.player2.name}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Event {n}")
    club = factory.SubFactory(ClubFactory)
    rounds_count = 3
    boards_per_round = 2
    seed = factory.Sequence(lambda n: f"test-seed-{n}")

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        if create and extracted:
            self.organisers.add(*extracted)

    @factory.post_generation
    def referees(self, create, extracted, **kwargs):
        if create and extracted:
            self.referees.add(*extracted)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    pair = factory.SubFactory(PairFactory)
    number = factory.Sequence(lambda n: n + 1)


class ForbiddenPairFactory(factory.django.DjangoModelFactory):
    """Two pairs of one event that never meet (``low`` registered before ``high``)."""

    class Meta:
        model = ForbiddenPair

    event = factory.SubFactory(EventFactory)
    low = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..event"))
    high = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..event"))
    created_by = "organiser"


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = 1


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)
    ns = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))
    ew = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))


class BoardFactory(factory.django.DjangoModelFactory):
    """A board dealt from its event's seed (the engine's public algorithm), like the real ones."""

    class Meta:
        model = Board
        django_get_or_create = ("event", "number")

    event = factory.SubFactory(EventFactory)
    number = 1
    dealer = factory.LazyAttribute(lambda o: adapter.seeded(o.event, o.number).dealer)
    hands = factory.LazyAttribute(lambda o: adapter.seeded(o.event, o.number).hands)


class BoardResultFactory(factory.django.DjangoModelFactory):
    """An entered short result: oros, no calls, NS 44 – EW 28 (NS scores 8)."""

    class Meta:
        model = BoardResult

    table = factory.SubFactory(TableFactory)
    board = factory.SubFactory(BoardFactory, event=factory.SelfAttribute("..table.round.event"))
    status = BoardResult.Status.ENTERED
    source = BoardResult.Source.SHORT
    trump = "oros"
    totals_ns = 44
    totals_ew = 28
    multiplier = 1
    score_ns = 8
    score_ew = 0
    entered_by = factory.LazyAttribute(lambda o: f"table {o.table.number} NS")
    entered_side = "NS"


class SubmissionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Submission

    result = factory.SubFactory(BoardResultFactory)
    source = BoardResult.Source.SHORT
    side = "NS"
    submitted_by = "table 1 NS"
    data = factory.LazyFunction(lambda: {"trump": "oros", "totals": {"NS": 44, "EW": 28}})


class PlayRecordFactory(factory.django.DjangoModelFactory):
    """A complete record of the result's board, played by the rules, with its real verdict."""

    class Meta:
        model = PlayRecord

    result = factory.SubFactory(BoardResultFactory, source=BoardResult.Source.PLAY_RECORD)
    submission = factory.SubFactory(
        SubmissionFactory, result=factory.SelfAttribute("..result"), data={"play_record": True}
    )
    record = factory.LazyAttribute(
        lambda o: adapter.record(
            o.result.board,
            trump="copes",
            cards=adapter.random_play(
                o.result.board, "copes", random.Random(o.result.board.number)
            ),
        )
    )
    received = factory.LazyAttribute(lambda o: json.dumps(o.record))
    verdict = factory.LazyAttribute(lambda o: adapter.replay(o.result.board, o.record).to_json())
    outcome = factory.LazyAttribute(lambda o: o.verdict["outcome"])


class DisputeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Dispute

    result = factory.SubFactory(BoardResultFactory, status=BoardResult.Status.DISPUTED)
    reason = Dispute.Reason.PLAYER_REQUEST
    details = "We are not sure of the last trick."
    opened_by = "table 1 EW"
    previous_status = BoardResult.Status.ENTERED


class RulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ruling

    dispute = factory.SubFactory(DisputeFactory, status=Dispute.Status.RULED)
    kind = Ruling.Kind.ADJUSTED
    data = factory.LazyFunction(lambda: {"adjusted_ns": "avg", "adjusted_ew": "avg"})
    explanation = "Fouled board."
    referee = factory.SubFactory(UserFactory)


class AuditEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AuditEntry

    event = factory.SubFactory(EventFactory)
    actor = "organiser"
    action = "round_opened"
    changes = factory.LazyFunction(lambda: {"round": [None, 1]})


class BoardUnlockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BoardUnlock

    table = factory.SubFactory(TableFactory)
    board = factory.SubFactory(BoardFactory, event=factory.SelfAttribute("..table.round.event"))
    reason = BoardUnlock.Reason.DECLARED
    actor = "table 1 NS"


class TableTokenFactory(factory.django.DjangoModelFactory):
    """A token row (the client's token is random and not kept: use ``api.authentication``'s
    ``table_token`` to have one to send)."""

    class Meta:
        model = TableToken

    table = factory.SubFactory(TableFactory)
    side = "NS"
    digest = factory.Sequence(lambda n: f"{n:064x}")
    codes_version = factory.SelfAttribute("table.codes_version")


class StandingsSnapshotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = StandingsSnapshot
        django_get_or_create = ("event", "after_round")

    event = factory.SubFactory(EventFactory)
    after_round = 1
    rows = factory.LazyFunction(lambda: [{"entry": 1, "rank": 1, "match_points": 2.0}])
    matches = factory.LazyFunction(lambda: [{"round": 1, "table": 1, "final": True}])
    travellers = factory.LazyFunction(lambda: {"1": {"board": 1, "top": 0, "lines": []}})


class IdempotentResponseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = IdempotentResponse

    scope = "table:1:NS"
    key = factory.Sequence(lambda n: f"key-{n}")
    status_code = 201
    body = factory.LazyFunction(lambda: {"id": 1})


class AttemptCounterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AttemptCounter

    key = factory.Sequence(lambda n: f"test:{n}")
    hits = 1
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=1))


class RoleInvitationFactory(factory.django.DjangoModelFactory):
    """A pending invitation (its token is not kept: use ``services.roles.invitation_create``
    to have a link to open)."""

    class Meta:
        model = RoleInvitation

    event = factory.SubFactory(EventFactory)
    role = RoleInvitation.Role.REFEREE
    digest = factory.Sequence(lambda n: f"{n:064x}")
    created_by = "organiser"
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))


class SubstitutionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Substitution

    entry = factory.SubFactory(EntryFactory)
    from_round = 2
    player_out = factory.LazyAttribute(lambda o: o.entry.pair.player1)
    player_in = factory.SubFactory(PlayerFactory)
    previous_pair = factory.LazyAttribute(lambda o: o.entry.pair)
    created_by = "organiser"


class ByeRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ByeRequest

    entry = factory.SubFactory(EntryFactory)
    round_number = 2
    created_by = "organiser"


class BoardAnalysisFactory(factory.django.DjangoModelFactory):
    """Stored figures only: ``tasks_analysis`` computes real ones with the solver."""

    class Meta:
        model = BoardAnalysis

    board = factory.SubFactory(BoardFactory)
    ruleset = Event.Ruleset.LLIURE
    sant_vicenc_in_botifarra = False
    points = factory.LazyFunction(lambda: dict.fromkeys(TRUMPS, 36))
    par = factory.LazyAttribute(
        lambda o: engine_par(dealer=Seat.E, points=o.points, rules=Rules()).to_json()
    )
    backend = "python"
    seconds = 0.1


class PlayRecordAnalysisFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayRecordAnalysis

    play_record = factory.SubFactory(PlayRecordFactory)
    ruleset = Event.Ruleset.LLIURE
    sant_vicenc_in_botifarra = False
    costs = factory.LazyFunction(
        lambda: [
            CardCost(
                index=0,
                trick=1,
                position=1,
                seat=Seat.E,
                card=0,
                value_before=36,
                value_after=36,
                best=(0,),
            ).to_json()
        ]
    )
    backend = "python"
    seconds = 0.1


class PlayerRatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerRating

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    mu = 25.0
    sigma = 25.0 / 3


class RatingHistoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RatingHistory

    player = factory.SubFactory(PlayerFactory)
    event = factory.SubFactory(EventFactory)
    mu = 25.0
    sigma = 25.0 / 3


class PlayerMergeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerMerge

    kept = factory.SubFactory(PlayerFactory)
    kept_name = factory.LazyAttribute(lambda o: o.kept.name)
    merged_id = factory.Sequence(lambda n: 10_000 + n)
    merged_name = factory.Sequence(lambda n: f"Merged player {n}")
    moved = factory.LazyFunction(
        lambda: {
            "pairs": [],
            "substitutions": [],
            "events": [],
            "account": False,
            "licence": False,
            "club": False,
        }
    )
    actor = "organiser"


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    starts = factory.LazyFunction(lambda: timezone.localdate() - timedelta(days=90))
    ends = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=90))


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player1 = factory.Sequence(lambda n: f"Registered player {2 * n}")
    player2 = factory.Sequence(lambda n: f"Registered player {2 * n + 1}")
    email = factory.Sequence(lambda n: f"pair{n}@example.com")
    language = "ca"
    status = Registration.Status.CONFIRMED
    paired_at = factory.LazyFunction(timezone.now)


class WebhookFactory(factory.django.DjangoModelFactory):
    """A registered webhook (to an address nothing listens on: the tests that send start a
    receiver on loopback and register its address instead)."""

    class Meta:
        model = Webhook

    event = factory.SubFactory(EventFactory)
    url = factory.Sequence(lambda n: f"https://hooks.example.org/botifarra/{n}")
    created_by = "organiser"


class WebhookDeliveryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookDelivery

    webhook = factory.SubFactory(WebhookFactory)
    kind = "round.opened"
    payload = factory.LazyAttribute(
        lambda d: {"id": str(d.uuid), "kind": d.kind, "event": d.webhook.event_id, "data": {}}
    )
    uuid = factory.LazyFunction(uuid.uuid4)


class WebhookAttemptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WebhookAttempt

    delivery = factory.SubFactory(WebhookDeliveryFactory)
    number = factory.Sequence(lambda n: n + 1)
    started_at = factory.LazyFunction(timezone.now)
    duration_ms = 12
    status_code = 500
    response_body = "Internal Server Error"


class ResultsMailFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ResultsMail

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    email = factory.Sequence(lambda n: f"player{n}@example.com")


class TeamFactory(factory.django.DjangoModelFactory):
    """A team of four players of a team event."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    event = factory.SubFactory(EventFactory, competitor=Event.Competitor.TEAMS)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Team {n}")

    @factory.post_generation
    def members(self, create, extracted, **kwargs):
        if create:
            count = extracted if isinstance(extracted, int) else Team.MIN_PLAYERS
            for order in range(1, count + 1):
                TeamMember.objects.create(
                    team=self, player=PlayerFactory(name=f"{self.name} player {order}"), order=order
                )


class TeamMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TeamMember

    team = factory.SubFactory(TeamFactory, members=0)
    player = factory.SubFactory(PlayerFactory)
    order = factory.Sequence(lambda n: n + 1)


def _team_entry(team):
    return EntryFactory(event=team.event, team=team)


class TeamMatchFactory(factory.django.DjangoModelFactory):
    """A match of round 1: two tables seating the teams' pairs crossed (open / closed room)."""

    class Meta:
        model = TeamMatch

    round = factory.SubFactory(
        RoundFactory, event=factory.SubFactory(EventFactory, competitor=Event.Competitor.TEAMS)
    )
    number = factory.Sequence(lambda n: n + 1)
    team_a = factory.SubFactory(TeamFactory, event=factory.SelfAttribute("..round.event"))
    team_b = factory.SubFactory(TeamFactory, event=factory.SelfAttribute("..round.event"))
    open_table = factory.LazyAttribute(
        lambda o: TableFactory(round=o.round, ns=_team_entry(o.team_a), ew=_team_entry(o.team_b))
    )
    closed_table = factory.LazyAttribute(
        lambda o: TableFactory(round=o.round, ns=_team_entry(o.team_b), ew=_team_entry(o.team_a))
    )


class LineUpFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LineUp

    match = factory.SubFactory(TeamMatchFactory)
    team = factory.SelfAttribute("match.team_a")
    first = factory.SelfAttribute("match.open_table.ns")
    second = factory.SelfAttribute("match.closed_table.ew")
    entered_by = "organiser"


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"Lliga {n}")
    club = factory.SubFactory(ClubFactory)


class LeagueTeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LeagueTeam

    league = factory.SubFactory(LeagueFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Club team {n}")


class LeagueFixtureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LeagueFixture

    league = factory.SubFactory(LeagueFactory)
    day = 1
    home = factory.SubFactory(LeagueTeamFactory, league=factory.SelfAttribute("..league"))
    away = factory.SubFactory(LeagueTeamFactory, league=factory.SelfAttribute("..league"))


class LeagueGameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LeagueGame

    fixture = factory.SubFactory(LeagueFixtureFactory)
    number = factory.Sequence(lambda n: n + 1)
    hands = factory.LazyFunction(lambda: [[10, 0], [0, 4]])
    entered_by = "organiser"


class LeagueAuditFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LeagueAudit

    league = factory.SubFactory(LeagueFactory)
    actor = "organiser"
    action = "league_game"
    changes = factory.LazyFunction(lambda: {"game": [None, 1]})


class AccountTokenFactory(factory.django.DjangoModelFactory):
    """An account's API token (its key made by the model, as ``auth/token`` makes it)."""

    class Meta:
        model = AccountToken

    user = factory.SubFactory(UserFactory)
