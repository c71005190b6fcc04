"""Events, pairs, rounds, tables, boards, results, disputes and their audit trail."""

import hmac
import json
import secrets
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import TokenProxy

import engine
from engine import MatchRules

TABLE_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at the table


def new_seed() -> str:
    return secrets.token_hex(16)


def new_table_code() -> str:
    return "".join(secrets.choice(TABLE_CODE_ALPHABET) for _ in range(6))


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_clubs",
        blank=True,
        help_text=_("The accounts that may create events in the club's name."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def may_act_for(self, user) -> bool:
        """Whether ``user`` may create or move events into this club's name."""
        if not getattr(user, "is_authenticated", False):
            return False
        return user.is_superuser or self.organisers.filter(pk=user.pk).exists()


class Player(models.Model):
    """One person, across events and clubs: every pair and substitution of theirs points here."""

    class Visibility(models.TextChoices):
        HIDDEN = (
            "hidden",
            _("Only my name, on the pages of the events I play and the club's season"),
        )
        RESULTS = "results", _("My page: events, partners and results")
        RATING = "rating", _("My page with my rating too")

    name = models.CharField(_("name"), max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    licence = models.CharField(_("licence number"), max_length=40, blank=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )
    visibility = models.CharField(
        _("what the public sees"),
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.RESULTS,
    )
    # Where the player's personal results go after an event (taken from the registration at
    # check-in), and in which language; blank: no e-mail is sent.
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    name = models.CharField(_("display name"), max_length=200)
    player1 = models.ForeignKey(
        Player, verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player, verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")

    def __str__(self) -> str:
        return self.name

    def has_user(self, user) -> bool:
        return user.is_authenticated and user.pk in {
            self.player1.user_id,
            self.player2.user_id,
        }


# The most an event may have; the form's inputs, the model and the API share them.
MAX_ROUNDS = 30
MAX_BOARDS_PER_ROUND = 36


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    BEFORE_START = (Status.DRAFT, Status.REGISTRATION)  # pairs sign up, withdraw, check in

    class Ruleset(models.TextChoices):
        LLIURE = "lliure", _("Lliure (western: follow suit and beat)")
        OBLIGADA = "obligada", _("Obligada (eastern: also lowest-card discards)")

    class Format(models.TextChoices):
        """The pairing method (``scoring.methods``)."""

        SWISS = "swiss", _("Swiss pairs")
        ROUND_ROBIN = "roundrobin", _("Round robin (everybody meets everybody)")
        GROUPS = "groups", _("Groups, then knockout")

    class Seeding(models.TextChoices):
        LOT = "lot", _("By lot")
        RATING = "rating", _("By rating")

    class RoundRobin(models.TextChoices):
        FIELD = "field", _("Once: the whole field")
        DOUBLE = "double", _("Twice: home and away")
        ROUNDS = "rounds", _("The number of rounds set above")

    class MatchMode(models.TextChoices):
        BOARDS = "boards", _("Every board counts")
        GAME = "game", _("One game to the target per round")

    class Competitor(models.TextChoices):
        PAIRS = "pairs", _("Pairs")
        TEAMS = "teams", _("Teams of four (two tables per match)")

    class Ranking(models.TextChoices):
        WINS = "wins", _("Games won, then point difference")
        MATCHPOINTS = "matchpoints", _("Duplicate percentage")
        POINTS = "points", _("Point difference")

    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )
    date = models.DateField(_("date"), default=timezone.localdate)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    published = models.BooleanField(
        _("published"), default=False, help_text=_("Show the public results pages.")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organisers"), related_name="organised_events"
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("referees"),
        related_name="refereed_events",
        blank=True,
    )
    ruleset = models.CharField(
        _("ruleset"), max_length=10, choices=Ruleset.choices, default=Ruleset.LLIURE
    )
    sant_vicenc_in_botifarra = models.BooleanField(
        _("Sant Vicenç in botifarra"),
        null=True,
        blank=True,
        help_text=_("Empty: the ruleset's default (no in lliure, yes in obligada)."),
    )

    class Draw(models.TextChoices):
        HALF = "half", _("A draw is half a win")
        TIEBREAK = "tiebreak", _("Tie-break deals decide")
        PLAY_ON = "play_on", _("Play on until one pair scores (R12)")

    game_target = models.PositiveSmallIntegerField(
        _("game target"), default=101, null=True, blank=True, validators=[MinValueValidator(1)]
    )
    game_cap = models.PositiveSmallIntegerField(
        _("points counted for a game at most"), default=121, null=True, blank=True
    )
    deal_limit = models.PositiveSmallIntegerField(
        _("deal limit"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.SWISS
    )
    competitor = models.CharField(
        _("competitors"), max_length=5, choices=Competitor.choices, default=Competitor.PAIRS
    )
    team_bye_vp = models.PositiveSmallIntegerField(
        _("victory points of a team's bye"),
        default=12,
        validators=[MaxValueValidator(20)],
    )
    match_mode = models.CharField(
        _("match mode"), max_length=10, choices=MatchMode.choices, default=MatchMode.BOARDS
    )
    rounds_count = models.PositiveSmallIntegerField(
        _("number of rounds"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
    )
    boards_per_round = models.PositiveSmallIntegerField(
        _("boards per round"),
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOARDS_PER_ROUND)],
    )
    # The pairing method's options (scoring.types.PairingOptions; docs/scoring.md).
    seeding = models.CharField(
        _("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.LOT
    )
    accelerated = models.BooleanField(_("accelerated pairings"), default=False)
    club_rounds = models.PositiveSmallIntegerField(
        _("rounds without pairs of the same club meeting"), default=0
    )
    round_robin = models.CharField(
        _("round robin"), max_length=10, choices=RoundRobin.choices, default=RoundRobin.FIELD
    )
    group_size = models.PositiveSmallIntegerField(_("group size"), default=4)
    qualifiers = models.PositiveSmallIntegerField(_("qualifiers per group"), default=1)
    repesca = models.PositiveSmallIntegerField(
        _("repesca places"), null=True, blank=True, default=0
    )
    repesca_min_points = models.PositiveSmallIntegerField(
        _("least match points for the repesca"), default=0
    )
    draw = models.CharField(
        _("level games"), max_length=10, choices=Draw.choices, default=Draw.HALF
    )
    tiebreak_deals = models.PositiveSmallIntegerField(_("tie-break deals"), default=2)
    round_minutes = models.PositiveSmallIntegerField(
        _("time per round (minutes)"), null=True, blank=True
    )
    late_entry_points = models.PositiveSmallIntegerField(
        _("match points of a late entry"), default=0
    )
    requested_bye_points = models.PositiveSmallIntegerField(
        _("match points of a requested bye"), default=0
    )
    ranking_method = models.CharField(
        _("ranking method"), max_length=12, choices=Ranking.choices, default=Ranking.WINS
    )
    bye_points = models.PositiveSmallIntegerField(_("points difference for a bye"), default=36)
    seed = models.CharField(_("secret seed"), max_length=128, default=new_seed, editable=False)
    commitment = models.CharField(_("seed commitment"), max_length=64, editable=False)
    boards_ready = models.PositiveIntegerField(_("boards generated"), default=0, editable=False)
    standings_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    standings_updated_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)
    corrected_at = models.DateTimeField(null=True, blank=True, editable=False)
    registration_cap = models.PositiveSmallIntegerField(
        _("pairs accepted at most"),
        null=True,
        blank=True,
        help_text=_("Empty: no cap. Pairs signing up beyond it go on the waiting list."),
    )
    # The optional entry fee: shown on the sign-up page and in the confirmation; the organiser
    # marks each registration paid on the list (docs/clubs.md, "Fees").
    fee_amount = models.DecimalField(
        _("entry fee"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Per pair. Empty: no fee."),
    )
    fee_currency = models.CharField(_("currency"), max_length=3, default="EUR")
    fee_instructions = models.CharField(
        _("how to pay"),
        max_length=300,
        blank=True,
        help_text=_("For example: cash at the door, or a bank transfer to IBAN …"),
    )
    # When the club's ratings last took this event in (services.ratings); None: not yet.
    rated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.commitment = engine.commitment(self.seed)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event_dashboard", args=[self.pk])

    def clean(self) -> None:
        super().clean()
        # full_clean calls this after a field's own check failed too: a value that is not a
        # number (an archive's option) is that field's error, not a comparison to make here.
        group_size = self.group_size if isinstance(self.group_size, int) else None
        qualifiers = self.qualifiers if isinstance(self.qualifiers, int) else None
        if group_size is not None and group_size < 2:
            raise ValidationError({"group_size": _("A group needs at least 2 pairs.")})
        if qualifiers is not None and not 1 <= qualifiers <= (group_size or 0):
            raise ValidationError(
                {"qualifiers": _("Between 1 and the group size (%(n)s).") % {"n": self.group_size}}
            )
        if self.competitor == self.Competitor.TEAMS and self.match_mode == self.MatchMode.GAME:
            # A team match compares both rooms board by board (docs/teams.md): a game that
            # stopped one room at the target would leave boards the other played uncompared.
            raise ValidationError(
                {
                    "match_mode": _(
                        "A team event counts every board: a team match compares both rooms on "
                        "each board, which a game stopping at the target would not play."
                    )
                }
            )

    @property
    def match_rules(self) -> MatchRules:
        """The limits of a game in this event (read in game mode)."""
        return MatchRules(
            target=self.game_target,
            deal_limit=self.deal_limit,
            cap=self.game_cap,
            draw=self.draw,
            tiebreak_deals=self.tiebreak_deals,
        )

    @property
    def is_team_event(self) -> bool:
        return self.competitor == self.Competitor.TEAMS

    @property
    def total_boards(self) -> int:
        return self.rounds_count * self.boards_per_round

    @property
    def seed_revealed(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def public_seed(self) -> str | None:
        """The seed, only once the event is finished: before that it would reveal every board."""
        return self.seed if self.seed_revealed else None

    def board_numbers(self, round_number: int) -> range:
        k = self.boards_per_round
        return range((round_number - 1) * k + 1, round_number * k + 1)

    def is_organiser(self, user) -> bool:
        return bool(
            user.is_authenticated
            and (user.is_superuser or self.organisers.filter(pk=user.pk).exists())
        )

    def is_referee(self, user) -> bool:
        return bool(
            user.is_authenticated
            and (
                user.is_superuser
                or self.referees.filter(pk=user.pk).exists()
                or self.organisers.filter(pk=user.pk).exists()
            )
        )


class RoleInvitation(models.Model):
    """A link that makes its holder an organiser or a referee of an event, creating their
    account if they have none. One use, until ``expires_at``; the database keeps only the
    SHA-256 of the token (the link itself is shown once, to the organiser who made it)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    email = models.EmailField(_("e-mail"), blank=True)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.CharField(_("invited by"), max_length=120)
    # The account that made the link, who knows it: losing the organiser role revokes its
    # pending links (tournaments.services.roles.role_remove).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("accepted by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.event} · {self.get_role_display()} · {self.email or self.pk}"

    @property
    def pending(self) -> bool:
        return (
            self.accepted_at is None
            and self.revoked_at is None
            and self.expires_at > timezone.now()
        )


class Entry(models.Model):
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries"
    )
    pair = models.ForeignKey(Pair, verbose_name=_("pair"), on_delete=models.PROTECT)
    number = models.PositiveSmallIntegerField(_("number"))
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )
    # The rounds paired without the pair while it had withdrawn, once the withdrawal is taken
    # back: what the pairing knew then (scoring.types.EventInput.missed; the tournament file).
    missed_rounds = models.JSONField(_("rounds missed while withdrawn"), default=list, blank=True)
    # For an event seeded by rating: higher first; empty ones after, in lot order.
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)

    # In a team event: the team this pair of players plays for (made from a line-up).
    team = models.ForeignKey(
        "Team",
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="pairs",
    )

    # A late entry plays from this round on, starting with the event's late-entry match points.
    joins_round = models.PositiveSmallIntegerField(_("joins at round"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="entry_number_unique"),
            models.UniqueConstraint(fields=["event", "pair"], name="entry_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.pair.name}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None


class ForbiddenPair(models.Model):
    """Two pairs of an event that the pairing never seats at one table (a Swiss's prohibited
    pairing: relatives, a couple, partners in a team); stored with ``low`` < ``high``."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    low = models.ForeignKey(
        Entry, verbose_name=_("pair"), on_delete=models.CASCADE, related_name="+"
    )
    high = models.ForeignKey(
        Entry, verbose_name=_("pair"), on_delete=models.CASCADE, related_name="+"
    )
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "pk"]
        verbose_name = _("prohibited pairing")
        verbose_name_plural = _("prohibited pairings")
        constraints = [
            models.UniqueConstraint(fields=["event", "low", "high"], name="forbidden_pair_unique"),
            models.CheckConstraint(condition=Q(low__lt=models.F("high")), name="forbidden_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.low} – {self.high}"


class ByeRequest(models.Model):
    """A pair asked to sit out a round: it is not paired in it and scores the event's
    requested-bye match points."""

    entry = models.ForeignKey(
        Entry, verbose_name=_("pair"), on_delete=models.CASCADE, related_name="bye_requests"
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "entry__number"]
        verbose_name = _("requested bye")
        verbose_name_plural = _("requested byes")
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="one_bye_request")
        ]


class Substitution(models.Model):
    """A player replaced in a pair from a round on: the entry plays on (same number, same
    score) with a new pair of players; the old pair stays as history."""

    entry = models.ForeignKey(
        Entry, verbose_name=_("pair"), on_delete=models.CASCADE, related_name="substitutions"
    )
    from_round = models.PositiveSmallIntegerField(_("from round"))
    player_out = models.ForeignKey(
        Player, verbose_name=_("player out"), on_delete=models.PROTECT, related_name="+"
    )
    player_in = models.ForeignKey(
        Player, verbose_name=_("player in"), on_delete=models.PROTECT, related_name="+"
    )
    previous_pair = models.ForeignKey(
        Pair, verbose_name=_("previous pair"), on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "from_round", "pk"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")

    def __str__(self) -> str:
        return f"{self.entry}: {self.player_in} for {self.player_out} (round {self.from_round})"


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Proposed")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    bye = models.ForeignKey(
        Entry,
        verbose_name=_("bye"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="byes",
    )
    # A team event's bye: the team sits out and scores the event's bye VPs.
    team_bye = models.ForeignKey(
        "Team",
        verbose_name=_("team with the bye"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="byes",
    )
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # When the round was first closed: from then on its boards' cards and travellers were shown
    # to those who sat in it (and to the public once the event is published). Kept when the
    # round is reopened for results: a table then enters only the boards it had unlocked before
    # (services.results._check_not_shown).
    first_closed_at = models.DateTimeField(_("first closed at"), null=True, blank=True)
    # A closed round the organiser reopened so that referees may rule on it (results stay shut).
    ruling_open = models.BooleanField(_("reopened for rulings"), default=False)
    # Pairs without a game and without a score this round (a round robin's sit-out, a finished
    # group, a knockout bye): unlike the Swiss bye, a rest scores nothing.
    rests = models.ManyToManyField(
        "Entry", verbose_name=_("resting pairs"), related_name="rests", blank=True
    )

    # The round's clock: running while ``clock_ends_at`` is set (time is up once it has passed),
    # paused or not started while ``clock_left`` holds the seconds left.
    clock_ends_at = models.DateTimeField(_("time is up at"), null=True, blank=True)
    clock_left = models.PositiveIntegerField(_("seconds left"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return _("%(event)s · round %(n)s") % {"event": self.event, "n": self.number}

    @property
    def board_numbers(self) -> range:
        return self.event.board_numbers(self.number)


class Table(models.Model):
    """One table of a round. Each side has its own secret code, printed on its half of the
    table card: a code acts for its side only, so the other pair's confirmation is their act."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    ns = models.ForeignKey(
        Entry, verbose_name=_("NS pair"), on_delete=models.PROTECT, related_name="ns_tables"
    )
    ew = models.ForeignKey(
        Entry, verbose_name=_("EW pair"), on_delete=models.PROTECT, related_name="ew_tables"
    )
    code_ns = models.CharField(_("NS code"), max_length=6, default=new_table_code, db_index=True)
    code_ew = models.CharField(_("EW code"), max_length=6, default=new_table_code, db_index=True)
    # Bumped when the organiser issues new codes: every token and session of the old ones dies.
    codes_version = models.PositiveIntegerField(default=1, editable=False)
    # The side whose pair withdrew while the round was open: the match is forfeited (its
    # opponents score the bye, see docs/organisers.md), the table takes no more results.
    forfeited_by = models.CharField(
        _("forfeited by"),
        max_length=2,
        blank=True,
        default="",
        choices=[("NS", "NS"), ("EW", "EW")],
    )
    # Time was called while the table played its deal number ``time_after`` of the round (1 =
    # the round's first board): that deal counts, the later ones are not played.
    time_after = models.PositiveSmallIntegerField(
        _("time called during deal"), null=True, blank=True
    )
    time_declared_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.UniqueConstraint(fields=["round", "code_ns"], name="table_code_ns_unique"),
            models.UniqueConstraint(fields=["round", "code_ew"], name="table_code_ew_unique"),
            models.CheckConstraint(condition=~Q(ns=models.F("ew")), name="table_two_pairs"),
            models.CheckConstraint(
                condition=~Q(code_ns=models.F("code_ew")), name="table_two_codes"
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(t)s (round %(r)s)") % {"t": self.number, "r": self.round.number}

    def side_of(self, entry: Entry) -> str | None:
        if entry.pk == self.ns_id:
            return "NS"
        if entry.pk == self.ew_id:
            return "EW"
        return None

    def code_for(self, side: str) -> str:
        return {"NS": self.code_ns, "EW": self.code_ew}[side]

    def side_for_code(self, code: str) -> str | None:
        """The side whose secret ``code`` is (compared in constant time), or None."""
        found = None
        for side in ("NS", "EW"):
            if hmac.compare_digest(code.encode(), self.code_for(side).encode()):
                found = side
        return found


class TableToken(models.Model):
    """An API token acting for one side of one table while its round is open.

    Opaque: the client holds a random string, the database only its SHA-256. New codes for the
    table delete its tokens.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tokens")
    side = models.CharField(max_length=2)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The table's ``codes_version`` its code was read under: a token issued while new codes
    # were being given (after they deleted the table's tokens) does not act with the old code.
    codes_version = models.PositiveIntegerField(editable=False)


class Board(models.Model):
    """A seeded deal. Stored for speed; always re-creatable from the event seed."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="boards"
    )
    number = models.PositiveSmallIntegerField(_("board"))
    dealer = models.CharField(_("dealer"), max_length=1)
    hands = models.JSONField(_("hands"), editable=False)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_number_unique")
        ]

    def __str__(self) -> str:
        return _("Board %(n)s") % {"n": self.number}

    @property
    def round_number(self) -> int:
        return (self.number - 1) // self.event.boards_per_round + 1


class BoardUnlock(models.Model):
    """The moment a table may see a board's cards: an explicit, audited act tied to its result.

    Made when the table stores its result for the board, or declares the board played (which
    then obliges a result). Before it, nothing the table is told depends on the board's cards.
    """

    class Reason(models.TextChoices):
        RESULT = "result", _("Result stored")
        DECLARED = "declared", _("Declared played")

    # No index of its own: the unique constraint's (table, board) index serves the table's
    # reads, and every result a table stores writes one row here.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="unlocks", db_index=False
    )
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="unlocks")
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    actor = models.CharField(_("who"), max_length=120)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "board"], name="one_unlock_per_table_board")
        ]


class BoardResult(models.Model):
    """The result of one board at one table: what the standings read."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        RULED = "ruled", _("Ruled by a referee")

    class Source(models.TextChoices):
        SHORT = "short", _("Short result")
        PLAY_RECORD = "play_record", _("Play record")
        RULING = "ruling", _("Referee's ruling")

    class Trump(models.TextChoices):
        OROS = "oros", _("Oros")
        COPES = "copes", _("Copes")
        ESPASES = "espases", _("Espases")
        BASTOS = "bastos", _("Bastos")
        BOTIFARRA = "botifarra", _("Botifarra")

    class Adjusted(models.TextChoices):
        AVG_PLUS = "avg_plus", _("Average plus (60 %)")
        AVG = "avg", _("Average (50 %)")
        AVG_MINUS = "avg_minus", _("Average minus (40 %)")

    COUNTED = (Status.CONFIRMED, Status.RULED)

    # No index of its own: the unique constraint's (table, board) index serves the table's reads.
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="results",
        db_index=False,
    )
    board = models.ForeignKey(
        Board, verbose_name=_("board"), on_delete=models.PROTECT, related_name="results"
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    source = models.CharField(_("source"), max_length=12, choices=Source.choices)
    delegated = models.BooleanField(_("delegated"), default=False)
    trump = models.CharField(_("trump"), max_length=10, choices=Trump.choices)
    doubles = models.JSONField(_("calls"), default=list, blank=True)
    totals_ns = models.PositiveSmallIntegerField(_("NS hand total"), null=True, blank=True)
    totals_ew = models.PositiveSmallIntegerField(_("EW hand total"), null=True, blank=True)
    offending_pair = models.CharField(
        _("illegal play by"), max_length=2, blank=True, choices=[("NS", "NS"), ("EW", "EW")]
    )
    multiplier = models.PositiveSmallIntegerField(_("multiplier"))
    score_ns = models.PositiveIntegerField(_("NS score"))
    score_ew = models.PositiveIntegerField(_("EW score"))
    capot = models.BooleanField(_("capot"), default=False)
    adjusted_ns = models.CharField(
        _("NS adjusted score"), max_length=10, blank=True, choices=Adjusted.choices
    )
    adjusted_ew = models.CharField(
        _("EW adjusted score"), max_length=10, blank=True, choices=Adjusted.choices
    )
    entered_by = models.CharField(_("entered by"), max_length=120)
    entered_side = models.CharField(_("entered by side"), max_length=2, blank=True)
    confirmed_by = models.CharField(_("confirmed by"), max_length=120, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["table__round__number", "board__number", "table__number"]
        verbose_name = _("board result")
        verbose_name_plural = _("board results")
        constraints = [
            # One result per table and board, whatever two devices do at the same moment.
            models.UniqueConstraint(fields=["table", "board"], name="one_result_per_table_board")
        ]

    def __str__(self) -> str:
        return f"{self.board} · {self.table}"

    @property
    def counts(self) -> bool:
        return self.status in self.COUNTED


class Submission(models.Model):
    """Every version of a result that anyone sent: kept for the referee, never deleted."""

    result = models.ForeignKey(BoardResult, on_delete=models.CASCADE, related_name="submissions")
    source = models.CharField(max_length=12, choices=BoardResult.Source.choices)
    side = models.CharField(max_length=2, blank=True)
    submitted_by = models.CharField(max_length=120)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]


class PlayRecord(models.Model):
    """A whole hand as submitted and the engine's verdict: ``received`` is the JSON text exactly
    as the table sent it, its keys in their order (a JSON column would not keep that order on
    PostgreSQL), shown as sent (the API's record, the referee's corrected-record box);
    ``record`` its canonical form (play-record.md's keys, the event's ruleset, no hands), which
    the replays, exports and analyses read."""

    result = models.ForeignKey(
        BoardResult, null=True, blank=True, on_delete=models.CASCADE, related_name="play_records"
    )
    submission = models.OneToOneField(
        Submission, null=True, blank=True, on_delete=models.CASCADE, related_name="play_record"
    )
    record = models.JSONField()
    received = models.TextField()
    verdict = models.JSONField()
    outcome = models.CharField(max_length=10)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def as_received(self) -> Any:
        """The record as the table sent it, keys in the order sent."""
        return json.loads(self.received)


class BoardAnalysis(models.Model):
    """A board's perfect-play analysis (docs/analysis.md): North–South's total under each trump
    and the par. Computed in the background (``tasks_analysis``) under the event's rules; shown
    only to whoever may see the board's cards (``policy.can_see_analysis``)."""

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="analysis")
    ruleset = models.CharField(max_length=10)
    sant_vicenc_in_botifarra = models.BooleanField(null=True)  # as the event's, when made
    points = models.JSONField()  # {trump: North–South's total with perfect play}
    par = models.JSONField()  # engine.par.Par.to_json()
    backend = models.CharField(max_length=10)  # engine.solver.BACKEND that computed it
    seconds = models.FloatField()
    computed_at = models.DateTimeField(auto_now=True)


class PlayRecordAnalysis(models.Model):
    """What each card of a stored play record cost its side (``engine.analysis.card_costs``)."""

    play_record = models.OneToOneField(
        "PlayRecord", on_delete=models.CASCADE, related_name="analysis"
    )
    ruleset = models.CharField(max_length=10)
    sant_vicenc_in_botifarra = models.BooleanField(null=True)  # as the event's, when made
    costs = models.JSONField()  # [engine.analysis.CardCost.to_json()], one per legal card
    backend = models.CharField(max_length=10)
    seconds = models.FloatField()
    computed_at = models.DateTimeField(auto_now=True)


class Dispute(models.Model):
    class Reason(models.TextChoices):
        CONFLICT = "conflict", _("The two pairs entered different results")
        ILLEGAL_PLAY = "illegal_play", _("The play record has an illegal card")
        RECORD_MISMATCH = "record_mismatch", _("A short result contradicts a play record")
        PLAYER_REQUEST = "player_request", _("A player asked for a referee")
        REFEREE_REVIEW = "referee_review", _("A referee reviews the board")
        CORRECTION = "correction", _("The organiser corrects a result after the event")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RULED = "ruled", _("Ruled")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    result = models.ForeignKey(BoardResult, on_delete=models.CASCADE, related_name="disputes")
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    details = models.TextField(_("details"), blank=True)
    opened_by = models.CharField(_("opened by"), max_length=120)
    # The pair whose player asked (a player's request): only they may withdraw it.
    opened_side = models.CharField(max_length=2, blank=True, default="")
    previous_status = models.CharField(max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        return f"{self.get_reason_display()} · {self.result}"


class Ruling(models.Model):
    """A referee's decision. Append-only: a revision is a new ruling that supersedes the old."""

    class Kind(models.TextChoices):
        ACCEPT = "accept", _("Accept a submission")
        PENALTY = "penalty", _("Apply the illegal-play penalty")
        CORRECTED = "corrected", _("Enter a corrected result")
        ADJUSTED = "adjusted", _("Award adjusted scores")

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="rulings")
    kind = models.CharField(_("ruling"), max_length=10, choices=Kind.choices)
    data = models.JSONField(default=dict)
    explanation = models.TextField(_("explanation for the players"))
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]


class AuditEntry(models.Model):
    """Append-only trail: who changed what, when, from which value to which."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit")
    result = models.ForeignKey(
        BoardResult, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    actor = models.CharField(_("who"), max_length=120)
    action = models.CharField(_("action"), max_length=40)
    changes = models.JSONField(_("changes"), default=dict)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")


class IdempotentResponse(models.Model):
    """The first response to a submission carrying an Idempotency-Key, replayed on repeats."""

    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique")]


class StandingsSnapshot(models.Model):
    """Standings after a round, recomputed from scratch by the scoring task."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="snapshots")
    after_round = models.PositiveSmallIntegerField()
    rows = models.JSONField()
    matches = models.JSONField(default=list)
    # The duplicate comparison of this round's boards: {board: {"top", "lines": [...]}}. The
    # pages, PDFs and exports read them here, never recomputing per request.
    travellers = models.JSONField(default=dict)
    results_counted = models.PositiveIntegerField(default=0)
    # A team event: the Butler ranking of its pairs after this round (rows and boards).
    butler = models.JSONField(default=dict, blank=True)
    # Groups and knockout: the group tables, the repesca list and the bracket after this round
    # (tournaments.stages); empty for the other methods.
    stage = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "after_round"]
        constraints = [
            models.UniqueConstraint(fields=["event", "after_round"], name="snapshot_unique")
        ]


class AttemptCounter(models.Model):
    """One window of the attempt counter (``tournaments.ratelimit``) when Redis cannot hold it.

    ``key`` names the scope, a hash of the client or account, and the window; rows whose window
    has ended are deleted as new windows start.
    """

    key = models.CharField(max_length=120, unique=True)
    hits = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("attempt counter")
        verbose_name_plural = _("attempt counters")


class PlayerRating(models.Model):
    """A player's current rating in a club's history (``scoring.ratings``): μ ± σ."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(_("rating"))
    sigma = models.FloatField(_("uncertainty"))
    events = models.PositiveIntegerField(_("events"), default=0)
    boards = models.PositiveIntegerField(_("boards"), default=0)

    class Meta:
        ordering = ["club", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_rating_per_club_player")
        ]


class RatingHistory(models.Model):
    """A player's rating just after an event (the rating history of the player page)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_history")
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["event__date", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "event"], name="one_rating_per_player_event")
        ]


class PlayerMerge(models.Model):
    """A duplicate player merged into another: who, when, and what moved (append-only)."""

    kept = models.ForeignKey(
        Player, null=True, on_delete=models.SET_NULL, related_name="merges_received"
    )
    kept_name = models.CharField(max_length=120)
    merged_id = models.PositiveIntegerField()
    merged_name = models.CharField(max_length=120)
    moved = models.JSONField(default=dict)
    actor = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]


class Season(models.Model):
    """A club's season: its finished events between two dates, ranked by points per placement
    (``scoring.season``)."""

    class PointTable(models.TextChoices):
        FIELD = "field", _("One point per pair at or below (N − place + 1)")
        TOP10 = "top10", _("25, 18, 15, 12, 10, 8, 6, 4, 2, 1")
        TOP10_SCALED = "top10_scaled", _("25, 18, 15… scaled by the field over 16 pairs")

    class RankBy(models.TextChoices):
        PLAYER = "player", _("Players")
        PAIR = "pair", _("Partnerships")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("first day"))
    ends = models.DateField(_("last day"))
    point_table = models.CharField(
        _("point table"), max_length=20, choices=PointTable.choices, default=PointTable.FIELD
    )
    best = models.PositiveSmallIntegerField(
        _("best events counted"), null=True, blank=True, help_text=_("Empty: every event.")
    )
    rank_by = models.CharField(
        _("ranking of"), max_length=10, choices=RankBy.choices, default=RankBy.PLAYER
    )

    class Meta:
        ordering = ["club", "-starts"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(condition=Q(ends__gte=F("starts")), name="season_dates_ordered")
        ]

    def __str__(self) -> str:
        return self.name


def new_registration_token() -> str:
    return secrets.token_urlsafe(24)


class Registration(models.Model):
    """A pair's public sign-up for an event. Checking in on the day makes it an ``Entry``: only
    checked-in pairs are paired.

    A player may sign up alone (``SOLO``, ``player2`` empty): the organiser matches two solo
    sign-ups into a pair; the first becomes the pair's registration, the second is ``MATCHED``
    and points to it (``matched_into``), and both players' e-mails get the pair's messages."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        WAITING = "waiting", _("On the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        SOLO = "solo", _("Looking for a partner")
        MATCHED = "matched", _("Matched with a partner")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="registrations"
    )
    player1 = models.CharField(_("player 1"), max_length=120)
    player2 = models.CharField(_("player 2"), max_length=120, blank=True)
    email = models.EmailField(_("e-mail"))
    email2 = models.EmailField(_("partner's e-mail"), blank=True)
    language = models.CharField(max_length=10)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    # The secret of the confirmation's link: whoever holds it may withdraw the pair.
    token = models.CharField(max_length=64, unique=True, default=new_registration_token)
    # The secret of the check-in QR code: an organiser opening its link checks the pair in;
    # anyone else sees the registration only. Separate from ``token``, which withdraws.
    checkin_token = models.CharField(max_length=64, unique=True, default=new_registration_token)
    matched_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matched_solos",
        verbose_name=_("pair registration"),
    )
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True, editable=False)
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
    )
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When it became a pair: its sign-up, or the organiser's match of two solo sign-ups. The
    # waiting list moves up in this order (a pair matched today waits behind those waiting).
    paired_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self) -> str:
        return f"{self.player1} – {self.player2}" if self.player2 else self.player1


def new_webhook_secret() -> str:
    return "whsec_" + secrets.token_hex(32)


class Webhook(models.Model):
    """An address the site POSTs signed JSON to when something happens in the event
    (``tournaments/webhooks.py``; docs/api.md, "Webhooks"). The secret signs the deliveries, so
    it is kept as it is (not hashed); it is shown once, to the organiser who registered it."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(_("address"), max_length=500)
    secret = models.CharField(max_length=80, default=new_webhook_secret, editable=False)
    created_by = models.CharField(_("registered by"), max_length=120)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        constraints = [
            models.UniqueConstraint(fields=["event", "url"], name="webhook_url_once_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.url}"


class WebhookDelivery(models.Model):
    """One notification to one webhook, tried until it is answered with a 2xx or the attempts
    run out; a re-send tries the same delivery (same id, same body) again."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Being sent")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=40)
    payload = models.JSONField()
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    delivered_at = models.DateTimeField(_("delivered"), null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")


class WebhookAttempt(models.Model):
    """One POST of a delivery and what the receiver answered (or why nothing came back)."""

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    response_body = models.TextField(blank=True)

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="webhook_attempt_number")
        ]

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class ResultsMail(models.Model):
    """A player's personal results of an event, sent once (services/mailings.py)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="results_mails")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results_mails")
    email = models.EmailField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="one_results_mail")]


# --- teams of four (docs/teams.md) --------------------------------------------------------


class Team(models.Model):
    """A team of a team event: four to six players; each match's line-up makes its two pairs."""

    MIN_PLAYERS = 4
    MAX_PLAYERS = 6

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="teams"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("team name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )
    players = models.ManyToManyField(
        Player, verbose_name=_("players"), through="TeamMember", related_name="teams"
    )
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="team_number_unique"),
            models.UniqueConstraint(fields=["event", "name"], name="team_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"


class TeamMember(models.Model):
    """A player of a team, in the order the organiser listed them (1–4 form the first
    line-up unless one is entered)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    order = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ["team", "order"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="team_member_unique"),
            models.UniqueConstraint(fields=["team", "order"], name="team_member_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class TeamMatch(models.Model):
    """A match of a round: team A against team B at two tables playing the round's boards.

    The open room (``open_table``): A's first pair North–South, B's first pair East–West; the
    closed room (``closed_table``): B's second pair North–South, A's second pair East–West.
    """

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="team_matches"
    )
    number = models.PositiveSmallIntegerField(_("match"))
    team_a = models.ForeignKey(
        Team, verbose_name=_("team A"), on_delete=models.PROTECT, related_name="+"
    )
    team_b = models.ForeignKey(
        Team, verbose_name=_("team B"), on_delete=models.PROTECT, related_name="+"
    )
    # RESTRICT, not PROTECT: a table is never deleted on its own while its match stands, but a
    # round's proposal that is dropped (its match and tables together) is.
    open_table = models.OneToOneField(
        Table, verbose_name=_("open room"), on_delete=models.RESTRICT, related_name="open_match"
    )
    closed_table = models.OneToOneField(
        Table,
        verbose_name=_("closed room"),
        on_delete=models.RESTRICT,
        related_name="closed_match",
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="team_match_number_unique"),
            models.CheckConstraint(condition=~Q(team_a=F("team_b")), name="team_match_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.team_a.name} – {self.team_b.name}"


class LineUp(models.Model):
    """Who plays a match for a team: the first pair (open room) and the second pair (closed
    room); the team's other players are the substitutes of this match."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    first = models.ForeignKey(
        Entry, verbose_name=_("first pair"), on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        Entry, verbose_name=_("second pair"), on_delete=models.PROTECT, related_name="+"
    )
    substitutes = models.ManyToManyField(
        Player, verbose_name=_("substitutes"), related_name="+", blank=True
    )
    entered_by = models.CharField(_("entered by"), max_length=150)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "team"]
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="one_lineup_per_match_team"),
            models.CheckConstraint(condition=~Q(first=F("second")), name="lineup_two_pairs"),
        ]


# --- the league (Lliga) ---------------------------------------------------------------------


class League(models.Model):
    """A season of match days between club teams (``scoring.league``): 3/1/0 points."""

    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organisers"), related_name="organised_leagues"
    )
    starts = models.DateField(_("first match day"), default=timezone.localdate)
    home_and_away = models.BooleanField(
        _("home and away"), default=True, help_text=_("Every team meets every other twice.")
    )
    games_per_match = models.PositiveSmallIntegerField(
        _("games per match"), default=6, validators=[MinValueValidator(1)]
    )
    hands_per_game = models.PositiveSmallIntegerField(
        _("hands per game"), default=8, validators=[MinValueValidator(1)]
    )
    published = models.BooleanField(_("published"), default=False)
    seed = models.CharField(max_length=128, default=new_seed, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name

    def is_organiser(self, user) -> bool:
        return bool(
            user.is_authenticated
            and (user.is_superuser or self.organisers.filter(pk=user.pk).exists())
        )


class LeagueTeam(models.Model):
    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="teams"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("team name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["league", "number"]
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="league_team_number_unique"),
            models.UniqueConstraint(fields=["league", "name"], name="league_team_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class LeagueFixture(models.Model):
    """A match of a match day: home team against away team, played at the home club."""

    class Forfeit(models.TextChoices):
        HOME = "home", _("The home team did not turn up")
        AWAY = "away", _("The away team did not turn up")

    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="fixtures"
    )
    day = models.PositiveSmallIntegerField(_("match day"))
    home = models.ForeignKey(
        LeagueTeam, verbose_name=_("home"), on_delete=models.PROTECT, related_name="+"
    )
    away = models.ForeignKey(
        LeagueTeam, verbose_name=_("away"), on_delete=models.PROTECT, related_name="+"
    )
    date = models.DateField(_("date"), null=True, blank=True)
    forfeit = models.CharField(
        _("forfeit"), max_length=4, blank=True, default="", choices=Forfeit.choices
    )

    class Meta:
        ordering = ["league", "day", "pk"]
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")
        constraints = [
            models.UniqueConstraint(fields=["league", "day", "home"], name="fixture_home_once"),
            models.UniqueConstraint(fields=["league", "day", "away"], name="fixture_away_once"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="fixture_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.home} – {self.away}"


class LeagueGame(models.Model):
    """One game of a fixture: a home pair against an away pair, its hands' scores."""

    fixture = models.ForeignKey(
        LeagueFixture, verbose_name=_("fixture"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game"))
    hands = models.JSONField(_("hands"), default=list)  # [[home score, away score], …]
    entered_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["fixture", "number"]
        verbose_name = _("league game")
        verbose_name_plural = _("league games")
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="league_game_unique")
        ]


class LeagueAudit(models.Model):
    """Append-only trail of a league: who entered or changed which result, when, what."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit")
    actor = models.CharField(_("who"), max_length=150)
    action = models.CharField(_("action"), max_length=40)
    changes = models.JSONField(_("changes"), default=dict)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("league audit entry")
        verbose_name_plural = _("league audit trail")


class AccountToken(TokenProxy):
    """An account's API token as the admin shows it: named by its account, never by its key
    (the key is the account's password for the API; DRF's own name for a token is its key)."""

    class Meta:
        proxy = True
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return str(self.user)
