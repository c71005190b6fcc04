"""Who may see what: a board's cards, a round's scores, table codes. One module, every route.

The pages, the API, exports, PDFs, the admin and the table, referee and organiser tools all ask
here; nothing else decides. The rules (docs/operations.md shows them as a table):

* **Cards of a board** (hands, play records, verdicts, legal cards, analysis): the event's
  organisers and referees always; a table (its codes, tokens or its players' accounts) once it
  has *unlocked* the board (``BoardUnlock``: it stored its result, or declared the board
  played); everyone who sat in the round once the round is closed; everyone once the round is
  closed and the event is published or finished. Django staff as such get nothing more.
* **Scores of a round** (other tables' results, travellers, matches, standings after it): the
  event's organisers and referees live; everyone else once the round is closed. A table always
  sees its own results.
* **Table codes**: the event's organisers only.
* **Players** (their page, their partnerships, their rating): see ``player_access``.

Before a table may see a board's cards, nothing it is told depends on them: the services refuse
or answer in words that are the same for any deal (see ``services.results``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, F, OuterRef, Q, QuerySet

from tournaments.actors import Actor
from tournaments.models import (
    Board,
    BoardResult,
    BoardUnlock,
    Club,
    Dispute,
    Entry,
    Event,
    Player,
    Round,
    Table,
    TeamMatch,
)

SIDES = ("NS", "EW")


def is_event_staff(actor: Actor, event: Event) -> bool:
    """The event's organisers and referees (and superusers): they see everything, live."""
    return actor.is_referee(event)


def event_pages_open(actor: Actor, event: Event) -> bool:
    """Whether the event's pages (``/e/<pk>/…``) open for ``actor``: once published, and to its
    staff before; anyone else gets a 404, so no page links to them."""
    return event.published or is_event_staff(actor, event)


def can_see_codes(actor: Actor, event: Event) -> bool:
    return actor.is_organiser(event)


def can_see_time_called(actor: Actor, table: Table, *, staff: bool) -> bool:
    """The deal during which time was called at ``table``: a table is asked only while its
    match goes on, which in game mode depends on its scores, so until the round closes it is
    the event's staff's (``staff``, decided once per list) and the table's own."""
    return staff or table.round.status == Round.Status.CLOSED or actor.sits_at(table)


def can_download_tournament_file(actor: Actor, event: Event) -> bool:
    """The tournament file holds the seed, which stays secret from everyone, organisers
    included, until the event is finished: then anyone may check the pairings with it."""
    return event.seed_revealed


def can_download_archive(actor: Actor, event: Event) -> bool:
    """The event archive holds every board's cards, every submission and the audit trail: its
    organisers any time (the seed in it only once the event is finished), everyone else once
    the event is finished and published."""
    return actor.is_organiser(event) or (event.seed_revealed and event.published)


def round_of_board(event: Event, board_number: int) -> int:
    return (board_number - 1) // event.boards_per_round + 1


def table_unlocked(table: Table, board: Board) -> bool:
    return BoardUnlock.objects.filter(table=table, board=board).exists()


def _tables_of(actor: Actor, rnd: Round, table: Table | None) -> list[Table]:
    """The tables of ``rnd`` where the actor sits."""
    if actor.table is not None:
        return [actor.table] if actor.table.round_id == rnd.pk else []
    if table is not None:
        return [table] if table.round_id == rnd.pk and actor.sits_at(table) else []
    if not actor.is_authenticated:
        return []
    return [
        t
        for t in rnd.tables.select_related(
            "ns__pair__player1", "ns__pair__player2", "ew__pair__player1", "ew__pair__player2"
        )
        if actor.sits_at(t)
    ]


def can_see_cards(actor: Actor, board: Board, *, table: Table | None = None) -> bool:
    """May ``actor`` see this board's cards (and anything computed from them)?"""
    event = board.event
    if is_event_staff(actor, event):
        return True
    rnd = event.rounds.filter(number=round_of_board(event, board.number)).first()
    if rnd is None or rnd.status == Round.Status.PENDING:
        return False
    closed = rnd.status == Round.Status.CLOSED
    if closed and (event.published or event.status == Event.Status.FINISHED):
        return True
    tables = _tables_of(actor, rnd, table)
    if closed:
        return bool(tables)
    return any(table_unlocked(t, board) for t in tables)


def can_see_analysis(actor: Actor, board: Board, *, table: Table | None = None) -> bool:
    """May ``actor`` see the board's perfect-play analysis (what each trump makes, the par,
    what each card of a record cost)? Exactly when it may see the cards: the analysis is
    computed from them. Lists of boards (hand records, PDFs) show it only beside the hands they
    already show under the same rule (``pdf.hand_record_rounds``)."""
    return can_see_cards(actor, board, table=table)


def last_scored_round(*, staff: bool, rounds: Iterable[Round]) -> int:
    """The last round whose scores a reader may see (0: none); ``staff``: an organiser or
    referee of the event (``is_event_staff``).

    Organisers and referees: the last round opened. Everyone else: the last round closed with
    every earlier round closed too.
    """
    last = 0
    for rnd in sorted(rounds, key=lambda r: r.number):
        if rnd.status == Round.Status.CLOSED or (staff and rnd.status == Round.Status.OPEN):
            last = rnd.number
        else:
            break
    return last


def pair_tables(table: Table, entry_ids: Iterable[int]) -> QuerySet[Table]:
    """The tables whose results and rulings a pair's own pages (opened with the code of
    ``table``) show: the pair's tables of the event's closed rounds, and ``table`` itself (a
    table always sees its own results). Never another round still open: its boards may not be
    over at other tables. Matchpoints, which compare tables, come from closed rounds only
    (``public_selectors.scorecards``)."""
    ids = list(entry_ids)
    return Table.objects.filter(
        Q(pk=table.pk)
        | (
            Q(round__event_id=table.round.event_id, round__status=Round.Status.CLOSED)
            & (Q(ns_id__in=ids) | Q(ew_id__in=ids))
        )
    )


def can_follow_team_match(actor: Actor, match: TeamMatch) -> bool:
    """May ``actor`` follow a team match board by board (docs/teams.md)?

    The event's organisers and referees, and the players of the match's two tables, live; everyone
    else once the round is closed (and the event published or finished). Even then a board shows
    only when both tables have its result (``team_match_board_shown``).
    """
    event = match.round.event
    if is_event_staff(actor, event):
        return True
    rnd = match.round
    if rnd.status == Round.Status.PENDING:
        return False
    if rnd.status == Round.Status.CLOSED and (
        event.published or event.status == Event.Status.FINISHED
    ):
        return True
    return any(actor.sits_at(t) for t in (match.open_table, match.closed_table))


def team_match_boards_counted(
    rnd: Round, open_room: Iterable[int], closed_room: Iterable[int]
) -> set[int]:
    """The boards of a team match whose results enter its scorecard and totals: those both
    tables have a result of (a referee's adjusted score counts as one), every board once the
    round is closed. Never one table's result alone, not even an adjusted score: the other
    table may not have played the board yet, and a running total would carry it too."""
    if rnd.status == Round.Status.CLOSED:
        return set(open_room) | set(closed_room)
    return set(open_room) & set(closed_room)


def team_match_board_shown(status: str, *, round_closed: bool) -> bool:
    """A board of a team match shows once both tables have its counted result (or a referee
    gave an adjusted score): never one table's result alone, whose cards the other table may
    not have seen yet. Once the round is closed every board shows, one a table never played
    as not played (it counts 0). ``status`` is ``scoring.team_types.BOARD_STATUSES``'."""
    return status != "missing" or round_closed


# --- lists, as querysets (one query each, no N+1) ------------------------------------------


def plays_q(user: Any, prefix: str = "") -> Q:
    """Tables (through ``prefix``) where a pair of the user's sits."""
    q = Q()
    for side in ("ns", "ew"):
        for player in ("player1", "player2"):
            q |= Q(**{f"{prefix}{side}__pair__{player}__user": user})
    return q


def runs_q(user: Any, prefix: str = "") -> Q:
    """Events (through ``prefix``) the user organises or referees."""
    return Q(**{f"{prefix}organisers": user}) | Q(**{f"{prefix}referees": user})


def _user(actor: Actor) -> Any:
    return actor.user if actor.table is None and actor.is_authenticated else None


def _superuser(actor: Actor) -> bool:
    return bool(_user(actor) is not None and actor.user.is_superuser)  # type: ignore[union-attr]


def events_run_by(user: Any) -> QuerySet[Event]:
    return Event.objects.filter(runs_q(user)).values("pk")


def listed_events(actor: Actor) -> QuerySet[Event]:
    """The events a list shows: ``visible_events``, and for Django staff every event (names and
    dates are not secrets; what is inside an event follows ``visible_events``)."""
    if _is_site_staff(actor):
        return Event.objects.select_related("club")
    return visible_events(actor)


def visible_events(actor: Actor) -> QuerySet[Event]:
    """Published events, plus the actor's own (organised, refereed, played, its table's); a
    superuser's are all (a superuser referees every event: ``Event.is_referee``). Django staff
    as such see no more inside an event than anyone."""
    qs = Event.objects.select_related("club")
    if _superuser(actor):
        return qs
    user = _user(actor)
    q = Q(published=True)
    if actor.table is not None:
        q |= Q(pk=actor.table.round.event_id)
    elif user is not None:
        played = Table.objects.filter(plays_q(user)).values("round__event_id")
        q |= Q(pk__in=events_run_by(user)) | Q(pk__in=played)
    return qs.filter(q)


def visible_results(actor: Actor) -> QuerySet[BoardResult]:
    """Results of closed rounds of visible events; the actor's own table's; all of the events
    the actor runs."""
    qs = BoardResult.objects.select_related(
        "table__round__event", "board", "table__ns__pair", "table__ew__pair"
    )
    if _superuser(actor):
        return qs
    q = Q(
        table__round__status=Round.Status.CLOSED,
        table__round__event__in=visible_events(actor).values("pk"),
    )
    user = _user(actor)
    if actor.table is not None:
        q |= Q(table=actor.table)
    elif user is not None:
        q |= Q(table__round__event__in=events_run_by(user)) | Q(
            table__in=Table.objects.filter(plays_q(user)).values("pk")
        )
    return qs.filter(q)


def visible_disputes(actor: Actor) -> QuerySet[Dispute]:
    """The events' disputes for their organisers and referees; a table's for its players."""
    qs = Dispute.objects.select_related("result__table__round__event", "result__board", "referee")
    if _superuser(actor):
        return qs
    user = _user(actor)
    if actor.table is not None:
        return qs.filter(result__table=actor.table)
    if user is None:
        return qs.none()
    return qs.filter(
        Q(result__table__round__event__in=events_run_by(user))
        | Q(result__table__in=Table.objects.filter(plays_q(user)).values("pk"))
    )


def sees_submissions(actor: Actor, result: BoardResult) -> bool:
    """A result's submissions and verdicts (which show cards): the event's organisers and
    referees, and the table's own players once they may see the board."""
    table = result.table
    if is_event_staff(actor, table.round.event):
        return True
    return actor.sits_at(table) and can_see_cards(actor, result.board, table=table)


def boards_shown(user: Any) -> QuerySet[Board]:
    """Boards whose cards ``user`` may see in lists such as the admin's (not being at a table):
    boards of events the user runs, and boards of closed rounds of published or finished
    events."""
    round_no = (F("number") - 1) / F("event__boards_per_round") + 1
    closed = Round.objects.filter(
        event=OuterRef("event"), number=OuterRef("round_no"), status=Round.Status.CLOSED
    )
    public = Q(event__published=True) | Q(event__status=Event.Status.FINISHED)
    runs = Q(event__in=events_run_by(user)) if user is not None else Q(pk__in=[])
    if user is not None and user.is_superuser:
        return Board.objects.all()
    return Board.objects.annotate(round_no=round_no).filter(runs | (public & Exists(closed)))


# --- players ------------------------------------------------------------------------------


def player_entries(player: Player) -> QuerySet[Entry]:
    """Every entry the player played in: in its pair, or in a pair they left by a substitution
    after its first round (one made before round 1 replaced a line-up that never played)."""
    q = Q()
    for slot in ("player1", "player2"):
        q |= Q(**{f"pair__{slot}": player})
        q |= Q(
            **{f"substitutions__previous_pair__{slot}": player, "substitutions__from_round__gt": 1}
        )
    return Entry.objects.filter(q).distinct()


def clubs_of(player: Player) -> QuerySet[Club]:
    """The clubs the player is a member of: their own club and every club they played for."""
    played = player_entries(player).values("event__club")
    return Club.objects.filter(Q(pk=player.club_id) | Q(pk__in=played))


def _is_site_staff(actor: Actor) -> bool:
    user = _user(actor)
    return bool(user is not None and (user.is_staff or user.is_superuser))


def organised_clubs_of(actor: Actor, player: Player) -> QuerySet[Club]:
    """The player's clubs that ``actor`` organises."""
    user = _user(actor)
    if user is None:
        return Club.objects.none()
    return clubs_of(player).filter(organisers=user)


class PlayerAccess:
    """What ``actor`` may see of ``player`` (docs/clubs.md, "What a club sees of its members").

    * The player (their own account) and the site's staff: everything.
    * The organisers of a club the player is a member of: the player's page and rating whatever
      the privacy setting, with the club's events; other events as the public sees them.
    * Everyone: what the player allowed (``Player.visibility``): nothing but their name on the
      events' own pages, or their page (published events, partners, results), or that and their
      rating.

    Which events are listed is further limited by ``visible_events`` and, for the scores in
    them, by ``last_scored_round``: a player page shows nobody a score of an open round but the
    event's own organisers and referees, as the event's pages do.
    """

    def __init__(self, actor: Actor, player: Player) -> None:
        self.actor = actor
        self.player = player
        user = _user(actor)
        self.own = bool(user is not None and player.user_id == user.pk)
        self.full = self.own or _is_site_staff(actor)
        self.club_ids = set(organised_clubs_of(actor, player).values_list("pk", flat=True))
        public = player.visibility
        self.page = self.full or bool(self.club_ids) or public != Player.Visibility.HIDDEN
        self.rating = self.full or bool(self.club_ids) or public == Player.Visibility.RATING
        self.public_page = public != Player.Visibility.HIDDEN

    @staticmethod
    def sees_everyone(actor: Actor) -> bool:
        """The site's staff see every player's page and rating."""
        return _is_site_staff(actor)

    def events(self) -> QuerySet[Event]:
        """The events of the player's page: those the actor may see, and of those, only the
        player's club's events when the player keeps their page from the public."""
        qs = visible_events(self.actor).filter(
            pk__in=player_entries(self.player).values("event_id")
        )
        if self.full or self.public_page:
            return qs
        return qs.filter(club__in=self.club_ids)

    def may_rate_club(self, club_id: int | None) -> bool:
        """Whether the rating in ``club_id``'s history may be shown."""
        if self.full or club_id in self.club_ids:
            return True
        return self.player.visibility == Player.Visibility.RATING


def may_merge_into(actor: Actor, keep: Player) -> bool:
    """Whether ``actor`` may merge some duplicate into ``keep`` (staff, its clubs' organisers)."""
    return _is_site_staff(actor) or organised_clubs_of(actor, keep).exists()


def may_merge_players(actor: Actor, keep: Player, other: Player) -> bool:
    """The site's staff, or an organiser of a club both players are members of."""
    if _is_site_staff(actor):
        return True
    ids = set(organised_clubs_of(actor, keep).values_list("pk", flat=True))
    return bool(ids & set(organised_clubs_of(actor, other).values_list("pk", flat=True)))
