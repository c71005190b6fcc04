"""The Botifarra tournament file (BTF): a whole event as text, after FIDE's TRF.

Everything needed to re-derive every round's pairing is in the file: the competitors (with
clubs, ratings, late entries, withdrawals), the prohibited pairs, requested byes, the event's
options (pairing method, match rules, ranking) and every round's tables with their board
results. The format is described, with an example, in docs/formats.md. The API is the ``json``
module's: :func:`load`, :func:`loads`, :func:`dump`, :func:`dumps`; ``loads(dumps(t)) == t``.

>>> t = loads("BTF 1\\nSEED demo\\nPAIR 1 1\\nPAIR 2 2\\nROUND 1 boards=1\\nTABLE 1 1 1 2 1:10-0\\n")
>>> t.event.rounds[0].tables[0].results[0].score_ns
10
>>> loads(dumps(t)) == t
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import IO

from scoring.types import (
    ADJUSTED_PCT,
    RANKING_METHODS,
    BoardResult,
    ByeRequest,
    EventInput,
    LateEntry,
    PairingOptions,
    RoundInput,
    TableRound,
)

VERSION = 1
_NONE = "-"


class TournamentFileError(ValueError):
    """A line of a tournament file that cannot be read (``line`` is 1-based; 0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True, slots=True)
class TournamentFile:
    """A tournament: its name, the event, and the organiser's initial order if it gave one."""

    event: EventInput
    name: str = ""
    order: list[int] | None = None
    names: dict[int, str] = field(default_factory=dict)


def _opt(value: object) -> str:
    if value is None:
        return _NONE
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _ints(values: list[int]) -> str:
    return ",".join(str(v) for v in values) if values else _NONE


def dumps(t: TournamentFile) -> str:
    """The tournament as BTF text."""
    ev = t.event
    out = [f"BTF {VERSION}"]
    if t.name:
        out.append(f"NAME {t.name}")
    out.append(f"SEED {ev.seed}")
    p = ev.pairing
    out.append("PAIRING " + " ".join(f"{f.name}={_opt(getattr(p, f.name))}" for f in fields(p)))
    out.append(
        f"MATCH mode={ev.match_mode} target={_opt(ev.game_target)} deal_limit={_opt(ev.deal_limit)}"
        f" cap={_opt(ev.game_cap)} draw={ev.draw} tiebreak_deals={ev.tiebreak_deals}"
    )
    out.append(f"RANKING {ev.ranking_method} bye_points={ev.bye_points}")
    if t.order is not None:
        out.append(f"ORDER {' '.join(str(e) for e in t.order)}")
    late = {x.entry: x for x in ev.late_entries}
    if len(late) != len(ev.late_entries):
        raise ValueError("a competitor has two late entries")
    for e in ev.entries:
        parts = [f"PAIR {e} {ev.numbers.get(e, e)}"]
        if e in ev.clubs:
            parts.append(f"club={ev.clubs[e]}")
        if e in ev.ratings:
            parts.append(f"rating={ev.ratings[e]}")
        if e in late:
            parts.append(f"joins={late[e].round}:{late[e].match_points}")
        if e in ev.withdrawn:
            parts.append(f"withdrawn={ev.withdrawn[e]}")
        if ev.missed.get(e):
            parts.append(f"missed={_ints(list(ev.missed[e]))}")
        if e in t.names:
            parts.append(f"name={t.names[e]}")
        out.append(" ".join(parts))
    for a, b in ev.forbidden:
        out.append(f"FORBID {a} {b}")
    for req in ev.bye_requests:
        out.append(f"REQUEST {req.round} {req.entry} {req.match_points}")
    for rnd in ev.rounds:
        line = f"ROUND {rnd.number} boards={_ints(rnd.boards)} bye={_opt(rnd.bye)}"
        out.append(line + f" rests={_ints(rnd.rests)}")
        for tr in rnd.tables:
            parts = [f"TABLE {rnd.number} {tr.table} {tr.ns} {tr.ew}"]
            if tr.time_after is not None:
                parts.append(f"time={tr.time_after}")
            if tr.forfeited_by is not None:
                parts.append(f"forfeit={tr.forfeited_by}")
            for r in tr.results:
                token = f"{r.board}:{r.score_ns}-{r.score_ew}"
                if r.adjusted:
                    token += f":{_opt(r.adjusted_ns)}/{_opt(r.adjusted_ew)}"
                parts.append(token)
            out.append(" ".join(parts))
    return "\n".join(out) + "\n"


def dump(t: TournamentFile, fp: IO[str]) -> None:
    fp.write(dumps(t))


def load(fp: IO[str]) -> TournamentFile:
    return loads(fp.read())


def _int(text: str, n: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TournamentFileError(n, f"{what} must be a whole number, not {text!r}") from None


def _opt_int(text: str, n: int, what: str) -> int | None:
    return None if text == _NONE else _int(text, n, what)


def _int_list(text: str, n: int, what: str) -> list[int]:
    return [] if text == _NONE else [_int(x, n, what) for x in text.split(",")]


def _keyvals(tokens: list[str], n: int) -> dict[str, str]:
    out = {}
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep:
            raise TournamentFileError(n, f"expected key=value, not {tok!r}")
        out[key] = value
    return out


_PAIRING_INTS = {
    "rounds",
    "club_rounds",
    "group_size",
    "qualifiers",
    "repesca",
    "repesca_min_points",
}
_PAIRING_BOOLS = {"accelerated", "double"}


def loads(text: str) -> TournamentFile:
    """Read BTF text; raises :class:`TournamentFileError` naming the first bad line."""
    # Lines end at "\n" only (a "\r" before it is dropped): names and seeds keep any other
    # character, so that loads(dumps(t)) == t; a byte-order mark (Notepad's) is not text.
    lines = [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]
    if not lines or lines[0].split() != ["BTF", str(VERSION)]:
        raise TournamentFileError(1, f"a tournament file starts with 'BTF {VERSION}'")
    name = seed = ""
    order: list[int] | None = None
    entries: list[int] = []
    numbers: dict[int, int] = {}
    withdrawn: dict[int, int] = {}
    missed: dict[int, tuple[int, ...]] = {}
    clubs: dict[int, int] = {}
    ratings: dict[int, int] = {}
    names: dict[int, str] = {}
    late: list[LateEntry] = []
    forbidden: list[tuple[int, int]] = []
    requests: list[ByeRequest] = []
    rounds: list[RoundInput] = []
    named_at: list[tuple[int, int]] = []  # (a competitor id the file names, its line)
    match: dict[str, object] = {}
    ranking, bye_points = "wins", 36
    pairing = PairingOptions()
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        code, _, rest = line.partition(" ")
        exact = raw.lstrip().partition(" ")[2]  # the rest of the line, its end kept
        tokens = rest.split()
        try:
            if code in ("NAME", "SEED"):
                # The rest of the line exactly: a seed's spaces are part of it (the lot and the
                # boards come from its bytes), so loads(dumps(t)) == t holds for any seed.
                if code == "NAME":
                    name = exact
                else:
                    seed = exact
            elif code == "PAIRING":
                kv: dict[str, object] = {}
                for key, value in _keyvals(tokens, n).items():
                    if key in _PAIRING_INTS:
                        kv[key] = _opt_int(value, n, key)
                    elif key in _PAIRING_BOOLS:
                        kv[key] = value == "1"
                    elif key in ("method", "seeding"):
                        kv[key] = value
                    else:
                        raise TournamentFileError(n, f"unknown pairing option {key!r}")
                pairing = PairingOptions(**kv)  # type: ignore[arg-type]
            elif code == "MATCH":
                kv2 = _keyvals(tokens, n)
                match = {
                    "match_mode": kv2.get("mode", "boards"),
                    "game_target": _opt_int(kv2.get("target", "101"), n, "target"),
                    "deal_limit": _opt_int(kv2.get("deal_limit", _NONE), n, "deal_limit"),
                    "game_cap": _opt_int(kv2.get("cap", "121"), n, "cap"),
                    "draw": kv2.get("draw", "half"),
                    "tiebreak_deals": _int(kv2.get("tiebreak_deals", "2"), n, "tiebreak_deals"),
                }
            elif code == "RANKING":
                ranking = tokens[0]
                if ranking not in RANKING_METHODS:
                    raise TournamentFileError(
                        n,
                        f"unknown ranking method {ranking!r}: one of {', '.join(RANKING_METHODS)}",
                    )
                bye_points = _int(_keyvals(tokens[1:], n).get("bye_points", "36"), n, "bye_points")
            elif code == "ORDER":
                order = [_int(x, n, "an id") for x in tokens]
                named_at += [(e, n) for e in order]
            elif code == "PAIR":
                e, number = _int(tokens[0], n, "the id"), _int(tokens[1], n, "the number")
                if e in numbers:
                    raise TournamentFileError(n, f"competitor {e} is listed twice")
                entries.append(e)
                numbers[e] = number
                head, sep, pair_name = exact.partition(" name=")
                if sep:
                    names[e] = pair_name
                for key, value in _keyvals(head.split()[2:], n).items():
                    if key == "club":
                        clubs[e] = _int(value, n, key)
                    elif key == "rating":
                        ratings[e] = _int(value, n, key)
                    elif key == "withdrawn":
                        withdrawn[e] = _int(value, n, key)
                    elif key == "missed":
                        missed[e] = tuple(sorted(set(_int_list(value, n, key))))
                    elif key == "joins":
                        j_round, _, j_mp = value.partition(":")
                        late.append(
                            LateEntry(e, _int(j_round, n, "joins"), _int(j_mp or "0", n, "joins"))
                        )
                    else:
                        raise TournamentFileError(n, f"unknown competitor field {key!r}")
            elif code == "FORBID":
                forbidden.append((_int(tokens[0], n, "an id"), _int(tokens[1], n, "an id")))
                named_at += [(e, n) for e in forbidden[-1]]
            elif code == "REQUEST":
                q_round, q_entry, q_mp = (_int(x, n, "REQUEST") for x in tokens[:3])
                requests.append(ByeRequest(entry=q_entry, round=q_round, match_points=q_mp))
                named_at.append((q_entry, n))
            elif code == "ROUND":
                number = _int(tokens[0], n, "the round")
                if number != len(rounds) + 1:
                    raise TournamentFileError(n, f"round {len(rounds) + 1} expected, not {number}")
                kv3 = _keyvals(tokens[1:], n)
                rounds.append(
                    RoundInput(
                        number=number,
                        boards=_int_list(kv3.get("boards", _NONE), n, "a board"),
                        tables=[],
                        bye=_opt_int(kv3.get("bye", _NONE), n, "the bye"),
                        rests=_int_list(kv3.get("rests", _NONE), n, "a rest"),
                    )
                )
                bye = rounds[-1].bye
                named_at += [
                    (e, n) for e in [*([bye] if bye is not None else []), *rounds[-1].rests]
                ]
            elif code == "TABLE":
                rnd_no, table, ns, ew = (_int(x, n, "TABLE") for x in tokens[:4])
                named_at += [(ns, n), (ew, n)]
                if not rounds or rounds[-1].number != rnd_no:
                    raise TournamentFileError(n, f"table of round {rnd_no} outside its ROUND")
                if any(t.table == table for t in rounds[-1].tables):
                    raise TournamentFileError(n, f"round {rnd_no} has table {table} twice")
                time_after = None
                forfeited: str | None = None
                results = []
                for tok in tokens[4:]:
                    if tok.startswith("time="):
                        time_after = _int(tok[5:], n, "time")
                        continue
                    if tok.startswith("forfeit="):
                        forfeited = tok[8:]
                        if forfeited not in ("NS", "EW"):
                            raise TournamentFileError(n, f"forfeit is NS or EW, not {forfeited!r}")
                        continue
                    board, _, rest_tok = tok.partition(":")
                    score, _, adj = rest_tok.partition(":")
                    s_ns, sep, s_ew = score.partition("-")
                    if not sep:
                        raise TournamentFileError(n, f"a result is board:ns-ew, not {tok!r}")
                    adj_ns = adj_ew = None
                    if adj:
                        a, _, b = adj.partition("/")
                        adj_ns, adj_ew = (None if x == _NONE else x for x in (a, b))
                        for x in (adj_ns, adj_ew):
                            if x is not None and x not in ADJUSTED_PCT:
                                raise TournamentFileError(n, f"unknown adjusted score {x!r}")
                    results.append(
                        BoardResult(
                            _int(board, n, "a board"),
                            table,
                            ns,
                            ew,
                            _int(s_ns, n, "a score"),
                            _int(s_ew, n, "a score"),
                            adj_ns,
                            adj_ew,
                        )
                    )
                rounds[-1].tables.append(
                    TableRound(rnd_no, table, ns, ew, results, time_after, forfeited)
                )
            else:
                raise TournamentFileError(n, f"unknown line code {code!r}")
        except (IndexError, TypeError) as exc:
            raise TournamentFileError(n, f"incomplete {code} line") from exc
        except TournamentFileError:
            raise
        except ValueError as exc:
            raise TournamentFileError(n, str(exc)) from exc
    known = set(entries)
    for e, n in named_at:
        if e not in known:
            raise TournamentFileError(n, f"competitor {e} unknown")
    try:
        event = EventInput(
            entries=entries,
            numbers=numbers,
            withdrawn=withdrawn,
            missed=missed,
            rounds=rounds,
            ranking_method=ranking,
            bye_points=bye_points,
            seed=seed,
            pairing=pairing,
            clubs=clubs,
            forbidden=forbidden,
            ratings=ratings,
            late_entries=late,
            bye_requests=requests,
            **match,  # type: ignore[arg-type]
        )
        event.match_rules  # noqa: B018 (validates the match options)
    except ValueError as exc:
        raise TournamentFileError(0, str(exc)) from exc
    return TournamentFile(event=event, name=name, order=order, names=names)
