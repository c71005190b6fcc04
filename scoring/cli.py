"""The command line of the tournament file tools (pure: no Django).

``check FILE``: re-derive every round's pairing from the file; print each difference, one a line;
exit 0 when there is none, 1 when there are differences, 2 when the file cannot be read.
``generate``: write a random tournament file to standard output (or ``-o FILE``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from scoring.checker import check
from scoring.generator import generate
from scoring.tournament_file import TournamentFileError, dumps, loads


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring")
    sub = parser.add_subparsers(dest="command", required=True)
    p_check = sub.add_parser("check", help="re-derive every round's pairing from a tournament file")
    p_check.add_argument("file", help="a BTF tournament file ('-' for standard input)")
    p_gen = sub.add_parser("generate", help="write a random tournament file")
    p_gen.add_argument("--method", choices=("swiss", "roundrobin", "groups"), default="swiss")
    p_gen.add_argument("--pairs", type=int, default=24)
    p_gen.add_argument("--rounds", type=int, default=5)
    p_gen.add_argument("--seed", type=int, default=0)
    p_gen.add_argument("-o", "--output", help="the file to write (default: standard output)")
    args = parser.parse_args(argv)

    if args.command == "generate":
        try:
            text = dumps(
                generate(method=args.method, pairs=args.pairs, rounds=args.rounds, seed=args.seed)
            )
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if args.output:
            with open(args.output, "w", encoding="utf-8") as fp:
                fp.write(text)
        else:
            sys.stdout.write(text)
        return 0

    try:
        # Bytes decoded as they are: lines end where loads says (a line feed), not where
        # Python's text mode would also end them (a lone carriage return).
        raw = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
        text = raw.decode("utf-8")
        tournament = loads(text)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        print(f"error: line {line}: the file is not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return 2
    except (OSError, TournamentFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    differences = check(tournament)
    for d in differences:
        print(d)
    rounds = len(tournament.event.rounds)
    print(f"{rounds} rounds checked, {len(differences)} differences", file=sys.stderr)
    return 1 if differences else 0
