"""Synthetic events for the benchmarks.

* ``build_event``: 1,000 pairs, 10 rounds of 6 boards (30,000 results). Random tables and R9
  hand scores, a few adjusted scores and missing results so that Neuberg runs.
* ``build_team_event``: 200 teams of four, 9 rounds, matches of 12 boards at two tables
  (21,600 results), a few adjusted scores and missing results.

``benchmarks/standings.py`` times the standings on them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.team_types import TeamEventInput, TeamMatchInput, TeamRoundInput  # noqa: E402
from scoring.types import BoardResult, EventInput, RoundInput, TableRound  # noqa: E402

PAIRS, ROUNDS, BOARDS = 1000, 10, 6
TEAMS, TEAM_ROUNDS, TEAM_BOARDS = 200, 9, 12


def build_event(
    seed: int = 1, *, pairs: int = PAIRS, rounds: int = ROUNDS, boards: int = BOARDS
) -> EventInput:
    rng = random.Random(seed)
    entries = list(range(1, pairs + 1))
    round_inputs = []
    board_count = boards
    for number in range(1, rounds + 1):
        order = entries[:]
        rng.shuffle(order)
        boards_of_round = [(number - 1) * board_count + b for b in range(1, board_count + 1)]
        tables = []
        for t in range(pairs // 2):
            ns, ew = order[2 * t], order[2 * t + 1]
            results = []
            for b in boards_of_round:
                score = (rng.randint(20, 52) - 36) * rng.choice((1, 1, 2, 4))
                roll = rng.random()
                if roll < 0.001:
                    continue  # a missing result: Neuberg for the board
                adjusted = ("avg_plus", "avg_minus") if roll < 0.002 else (None, None)
                results.append(
                    BoardResult(b, t + 1, ns, ew, max(score, 0), max(-score, 0), *adjusted)
                )
            tables.append(TableRound(number, t + 1, ns, ew, results))
        round_inputs.append(RoundInput(number, boards_of_round, tables))
    return EventInput(entries, {e: e for e in entries}, {}, round_inputs, seed="bench")


def _room_result(
    rng: random.Random, board: int, table: int, ns: int, ew: int
) -> BoardResult | None:
    score = (rng.randint(20, 52) - 36) * rng.choice((1, 1, 2, 4))
    roll = rng.random()
    if roll < 0.001:
        return None  # not entered: a missing board
    adjusted = ("avg_plus", None) if roll < 0.002 else (None, None)
    return BoardResult(board, table, ns, ew, max(score, 0), max(-score, 0), *adjusted)


def build_team_event(
    seed: int = 1, *, teams: int = TEAMS, rounds: int = TEAM_ROUNDS, boards: int = TEAM_BOARDS
) -> TeamEventInput:
    """Team ``t`` fields pairs ``10 t + 1`` (NS in the open room) and ``10 t + 2``."""
    rng = random.Random(seed)
    ids = list(range(1, teams + 1))
    round_inputs = []
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        boards_of_round = [(number - 1) * boards + b for b in range(1, boards + 1)]
        matches = []
        for m in range(teams // 2):
            a, b = order[2 * m], order[2 * m + 1]
            open_room, closed_room = [], []
            for board in boards_of_round:
                for room, ns, ew, table in (
                    (open_room, 10 * a + 1, 10 * b + 1, 2 * m + 1),
                    (closed_room, 10 * b + 2, 10 * a + 2, 2 * m + 2),
                ):
                    r = _room_result(rng, board, table, ns, ew)
                    if r is not None:
                        room.append(r)
            matches.append(
                TeamMatchInput(number, m + 1, a, b, boards_of_round, open_room, closed_room)
            )
        round_inputs.append(TeamRoundInput(number, matches))
    return TeamEventInput(ids, {t: t for t in ids}, {}, round_inputs, seed="bench")


def store_event(data: EventInput, *, name: str, seed: str):
    """Write a synthetic event into the database (bulk inserts; closed rounds, confirmed
    results). Needs Django set up; returns the ``Event``."""
    from tournaments.models import Board, BoardResult, Entry, Event, Pair, Player, Round, Table

    pairs = len(data.entries)
    rounds = len(data.rounds)
    boards = len(data.rounds[0].boards) if data.rounds else 0
    event = Event.objects.create(
        name=name,
        rounds_count=rounds,
        boards_per_round=boards,
        status=Event.Status.RUNNING,
        seed=seed,
    )
    players = Player.objects.bulk_create([Player(name=f"P{i}") for i in range(2 * pairs)])
    pair_rows = Pair.objects.bulk_create(
        [
            Pair(name=f"Pair {i + 1}", player1=players[2 * i], player2=players[2 * i + 1])
            for i in range(pairs)
        ]
    )
    entries = Entry.objects.bulk_create(
        [Entry(event=event, pair=pair, number=i + 1) for i, pair in enumerate(pair_rows)]
    )
    entry_of = {i + 1: e for i, e in enumerate(entries)}
    board_of = {
        b.number: b
        for b in Board.objects.bulk_create(
            [
                Board(event=event, number=n, dealer="N", hands={})
                for n in range(1, rounds * boards + 1)
            ]
        )
    }
    for rnd_data in data.rounds:
        rnd = Round.objects.create(event=event, number=rnd_data.number, status=Round.Status.CLOSED)
        tables = Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=t.table,
                    ns=entry_of[t.ns],
                    ew=entry_of[t.ew],
                    code_ns=f"{t.table:05d}N",
                    code_ew=f"{t.table:05d}E",
                )
                for t in rnd_data.tables
            ]
        )
        BoardResult.objects.bulk_create(
            [
                _confirmed(BoardResult, table, board_of[r.board], r)
                for table, t in zip(tables, rnd_data.tables, strict=True)
                for r in t.results
            ],
            batch_size=2000,
        )
    return event


def store_club_history(history, *, name: str = "Benchmark club", batch: int = 5000):  # noqa: ANN001, ANN201
    """Write a synthetic club history (``scoring.simulation.SyntheticClub``) into the database
    with bulk inserts: its players, finished events, pairs, entries, boards, closed rounds,
    tables and confirmed results. Needs Django set up; returns the ``Club`` and the map from
    the simulation's player ids to the stored players' ids."""
    import engine
    from tournaments.bulk import insert_rows
    from tournaments.models import (
        Board,
        BoardResult,
        Club,
        Entry,
        Event,
        Pair,
        Player,
        Round,
        Table,
    )

    club = Club.objects.create(name=name)
    sim_players = sorted(history.skills)
    stored = Player.objects.bulk_create(
        [Player(name=f"Player {p}", club=club) for p in sim_players], batch_size=batch
    )
    player_of = {p: s.pk for p, s in zip(sim_players, stored, strict=True)}
    events = Event.objects.bulk_create(
        [
            Event(
                name=f"Evening {ev.event}",
                club=club,
                date=ev.when,
                status=Event.Status.FINISHED,
                published=True,
                rounds_count=len(ev.input.rounds),
                boards_per_round=len(ev.input.rounds[0].boards),
                seed=f"bench-{ev.event}",
                commitment=engine.commitment(f"bench-{ev.event}"),
            )
            for ev in history.events
        ],
        batch_size=batch,
    )
    sim_entries = [
        (event, ev, e)
        for event, ev in zip(events, history.events, strict=True)
        for e in ev.input.entries
    ]
    pairs = Pair.objects.bulk_create(
        [
            Pair(
                name=f"{ev.lineups[e][0]} – {ev.lineups[e][1]}",
                player1_id=player_of[ev.lineups[e][0]],
                player2_id=player_of[ev.lineups[e][1]],
                club=club,
            )
            for _event, ev, e in sim_entries
        ],
        batch_size=batch,
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(event=event, pair=pair, number=ev.input.numbers.get(e, i + 1))
            for i, ((event, ev, e), pair) in enumerate(zip(sim_entries, pairs, strict=True))
        ],
        batch_size=batch,
    )
    entry_of = {e: entry.pk for (_event, _ev, e), entry in zip(sim_entries, entries, strict=True)}
    boards = Board.objects.bulk_create(
        [
            Board(event=event, number=n, dealer="N", hands={})
            for event, ev in zip(events, history.events, strict=True)
            for rnd in ev.input.rounds
            for n in rnd.boards
        ],
        batch_size=batch,
    )
    board_of = {(b.event_id, b.number): b.pk for b in boards}
    sim_rounds = [
        (event, rnd)
        for event, ev in zip(events, history.events, strict=True)
        for rnd in ev.input.rounds
    ]
    rounds = Round.objects.bulk_create(
        [
            Round(
                event=event,
                number=rnd.number,
                status=Round.Status.CLOSED,
                bye_id=entry_of.get(rnd.bye) if rnd.bye is not None else None,
            )
            for event, rnd in sim_rounds
        ],
        batch_size=batch,
    )
    sim_tables = [
        (event, stored_round, t)
        for (event, rnd), stored_round in zip(sim_rounds, rounds, strict=True)
        for t in rnd.tables
    ]
    tables = Table.objects.bulk_create(
        [
            Table(
                round=stored_round,
                number=t.table,
                ns_id=entry_of[t.ns],
                ew_id=entry_of[t.ew],
                code_ns=f"{t.table:05d}N",
                code_ew=f"{t.table:05d}E",
            )
            for _event, stored_round, t in sim_tables
        ],
        batch_size=batch,
    )
    results = [
        BoardResult(
            table_id=table.pk,
            board_id=board_of[(event.pk, r.board)],
            status=BoardResult.Status.CONFIRMED,
            source=BoardResult.Source.SHORT,
            trump="oros",
            multiplier=1,
            score_ns=r.score_ns,
            score_ew=r.score_ew,
            adjusted_ns=r.adjusted_ns or "",
            adjusted_ew=r.adjusted_ew or "",
            entered_by="synthetic",
        )
        for (event, _round, t), table in zip(sim_tables, tables, strict=True)
        for r in t.results
    ]
    insert_rows(BoardResult, results, batch=batch)
    return club, player_of


def store_team_event(data: TeamEventInput, *, name: str, seed: str, boards: int = TEAM_BOARDS):
    """Write a synthetic team event (``build_team_event``) into the database: teams of four,
    their two pairs as entries, every match at two tables of a closed round, confirmed results.
    Needs Django set up; returns the ``Event``."""
    from tournaments.models import (
        Board,
        BoardResult,
        Entry,
        Event,
        Pair,
        Player,
        Round,
        Table,
        Team,
        TeamMatch,
        TeamMember,
    )

    rounds = len(data.rounds)
    event = Event.objects.create(
        name=name,
        competitor=Event.Competitor.TEAMS,
        rounds_count=rounds,
        boards_per_round=boards,
        status=Event.Status.RUNNING,
        seed=seed,
    )
    team_of = {
        t.number: t
        for t in Team.objects.bulk_create(
            [Team(event=event, number=t, name=f"Team {t}") for t in data.teams]
        )
    }
    players = Player.objects.bulk_create([Player(name=f"P{i}") for i in range(4 * len(data.teams))])
    TeamMember.objects.bulk_create(
        [
            TeamMember(team=team_of[t], player=players[4 * i + k], order=k + 1)
            for i, t in enumerate(data.teams)
            for k in range(4)
        ]
    )
    pairs = Pair.objects.bulk_create(
        [
            Pair(
                name=f"Pair {10 * t + k}",
                player1=players[4 * i + 2 * k - 2],
                player2=players[4 * i + 2 * k - 1],
            )
            for i, t in enumerate(data.teams)
            for k in (1, 2)
        ]
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(event=event, pair=pairs[2 * i + k - 1], number=10 * t + k, team=team_of[t])
            for i, t in enumerate(data.teams)
            for k in (1, 2)
        ]
    )
    entry_of = {e.number: e for e in entries}
    board_of = {
        b.number: b
        for b in Board.objects.bulk_create(
            [
                Board(event=event, number=n, dealer="N", hands={})
                for n in range(1, rounds * boards + 1)
            ]
        )
    }
    for rnd_data in data.rounds:
        rnd = Round.objects.create(event=event, number=rnd_data.number, status=Round.Status.CLOSED)
        rooms = [
            (m, room, results)
            for m in rnd_data.matches
            for room, results in (("open", m.open_room), ("closed", m.closed_room))
        ]
        tables = Table.objects.bulk_create(
            [
                Table(
                    round=rnd,
                    number=2 * m.match - (room == "open"),
                    ns=entry_of[
                        10 * (m.team_a if room == "open" else m.team_b) + (room != "open") + 1
                    ],
                    ew=entry_of[
                        10 * (m.team_b if room == "open" else m.team_a) + (room != "open") + 1
                    ],
                    code_ns=f"{2 * m.match - (room == 'open'):05d}N",
                    code_ew=f"{2 * m.match - (room == 'open'):05d}E",
                )
                for m, room, _r in rooms
            ]
        )
        by_match = {(m.match, room): t for (m, room, _r), t in zip(rooms, tables, strict=True)}
        TeamMatch.objects.bulk_create(
            [
                TeamMatch(
                    round=rnd,
                    number=m.match,
                    team_a=team_of[m.team_a],
                    team_b=team_of[m.team_b],
                    open_table=by_match[(m.match, "open")],
                    closed_table=by_match[(m.match, "closed")],
                )
                for m in rnd_data.matches
            ]
        )
        BoardResult.objects.bulk_create(
            [
                _confirmed(BoardResult, table, board_of[r.board], r)
                for table, (_m, _room, results) in zip(tables, rooms, strict=True)
                for r in results
            ],
            batch_size=2000,
        )
    return event


def _confirmed(model, table, board, r):  # noqa: ANN001, ANN202 - Django's BoardResult
    """A confirmed short result of ``r`` (a ``scoring.types.BoardResult``) at ``table``."""
    return model(
        table=table,
        board=board,
        status=model.Status.CONFIRMED,
        source=model.Source.SHORT,
        trump="oros",
        multiplier=1,
        score_ns=r.score_ns,
        score_ew=r.score_ew,
        adjusted_ns=r.adjusted_ns or "",
        adjusted_ew=r.adjusted_ew or "",
        entered_by="synthetic",
    )
