"""Command line: ``python -m engine`` or ``botifarra``.

``replay [FILE ...]``  one JSON verdict per record, JSON Lines, in input order (exit 0 even for
                       illegal or invalid records; 2 when an input cannot be read or is not JSON)
``deal --seed S --board N | --boards A-B``   one JSON line per board (compact, stable bytes)
``commit --seed S``    the SHA-256 commitment of the seed
``legal [FILE]``       ``{"seat": ..., "legal": [...]}`` for each partial record (exit 1 if any
                       record has no next card: invalid, illegal or complete)
``solve --seed S --board N [--ruleset R]``   the perfect-play totals of the five trumps and the
                       par of a seeded board, one JSON line (docs/analysis.md)
``solve [FILE]``       the same for the deal of each record; ``--from-play [--from-card K]``:
                       what each card of each record cost (exit 1 if a record is invalid)

A FILE holds one record or a JSON list of records; ``-`` or no FILE reads standard input.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.analysis import analyse_deal, card_costs
from engine.deals import Deal, commitment, deal_board
from engine.errors import InvalidRecord
from engine.record import loads
from engine.replay import legal_for_record, recorded_hand, replay
from engine.rules import RULESETS, Rules

__all__ = ["main"]


class _InputError(Exception):
    pass


def _utf8(stream: TextIO) -> TextIO:
    """The stream writing UTF-8, JSON's encoding (RFC 8259), whatever the platform's default: a
    card symbol quoted in a problem must not fail to print where output goes to a cp1252 file."""
    if isinstance(stream, io.TextIOWrapper) and stream.encoding.lower() not in ("utf-8", "utf8"):
        stream.reconfigure(encoding="utf-8")
    return stream


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _read_records(paths: Sequence[str], stdin: TextIO) -> list[Any]:
    records: list[Any] = []
    for path in paths or ["-"]:
        try:
            if path == "-":
                text = stdin.read()
            else:
                with open(path, encoding="utf-8") as fp:
                    text = fp.read()
            # A byte-order mark (Windows editors write one) is not part of the JSON: POST
            # /api/v1/verify reads such a file too.
            text = text.removeprefix("\ufeff")
        except (OSError, UnicodeDecodeError) as exc:
            raise _InputError(f"cannot read {path}: {exc}") from exc
        name = "standard input" if path == "-" else path
        try:
            data = loads(text)
        except ValueError as exc:
            raise _InputError(f"{name} is not JSON: {exc}") from exc
        except RecursionError:
            raise _InputError(f"{name} is nested too deeply to be a play record") from None
        try:  # JSON's \ud800 escapes decode to a lone surrogate, which is not text
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except (UnicodeEncodeError, RecursionError):
            raise _InputError(
                f"{name} holds a lone surrogate (a \\uD800-\\uDFFF escape alone), which is not text"
            ) from None
        if isinstance(data, list):
            records.extend(data)
        else:
            records.append(data)
    return records


def _board_range(text: str) -> range:
    first, sep, last = text.partition("-")
    try:
        lo = int(first)
        hi = int(last) if sep else lo
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a board range: {text!r} (e.g. 1-24)") from None
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError(f"not a board range: {text!r} (e.g. 1-24)")
    return range(lo, hi + 1)


def _seed(text: str) -> str:
    """A seed is UTF-8 text (deals.md): argv bytes that are not UTF-8 are refused, not dealt."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError("the seed is not UTF-8 text") from None
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a board number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"boards are numbered from 1, not {value}")
    return value


def _cards_skipped(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of cards: {text!r}") from None
    if not 0 <= value <= 48:
        raise argparse.ArgumentTypeError(f"a hand has 48 cards: skip 0 to 48, not {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="botifarra", description="Botifarra rules engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay play records, print one verdict per line")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--seed", type=_seed, help="event seed: replay against this board's seeded deal")
    p.add_argument("--board", type=_positive, help="board number (with --seed)")
    p.add_argument("--ruleset", choices=RULESETS, help="the event's ruleset")

    p = sub.add_parser("deal", help="print seeded deals as JSON lines")
    p.add_argument("--seed", type=_seed, required=True)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--board", type=_positive)
    group.add_argument("--boards", type=_board_range, metavar="A-B")

    p = sub.add_parser("commit", help="print the SHA-256 commitment of a seed")
    p.add_argument("--seed", type=_seed, required=True)

    p = sub.add_parser("legal", help="print the legal cards for the next play of each record")
    p.add_argument("file", nargs="?", default="-", metavar="FILE")

    p = sub.add_parser(
        "solve", help="perfect-play totals of the five trumps and the par, or card costs"
    )
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--seed", type=_seed, help="event seed: the board's seeded deal")
    p.add_argument("--board", type=_positive, help="board number (with --seed)")
    p.add_argument("--ruleset", choices=RULESETS, help="the event's ruleset (default lliure)")
    p.add_argument(
        "--from-play", action="store_true", help="what each card of each record cost its side"
    )
    p.add_argument(
        "--from-card",
        type=_cards_skipped,
        default=0,
        metavar="K",
        help="with --from-play: skip the first K cards (the slowest to judge)",
    )
    return parser


def _solve(args: argparse.Namespace, parser: argparse.ArgumentParser, out: TextIO) -> int:
    if (args.seed is None) != (args.board is None):
        parser.error("--seed and --board go together")
    if args.from_card and not args.from_play:
        parser.error("--from-card goes with --from-play")
    deal = deal_board(args.seed, args.board) if args.seed is not None else None
    if deal is not None and not args.files and not args.from_play:
        rules = Rules(args.ruleset or "lliure")
        out.write(_line(analyse_deal(deal, rules=rules).to_json()) + "\n")
        return 0
    event_rules = Rules(args.ruleset) if args.ruleset else None
    status = 0
    for record in _read_records(args.files, sys.stdin):
        try:
            hand = recorded_hand(record, deal=deal, rules=event_rules)
            if not args.from_play:
                out.write(_line(analyse_deal(hand.deal, rules=hand.rules).to_json()) + "\n")
                continue
            # A play that stops short is a hand to analyse above, an invalid record here.
            costs = card_costs(record, deal=deal, rules=event_rules, from_card=args.from_card)
        except InvalidRecord as exc:
            out.write(_line({"problems": [p.to_json() for p in exc.problems]}) + "\n")
            status = 1
            continue
        total = {"NS": 0, "EW": 0}
        for cost in costs:
            total[cost.side] += cost.cost
        result = {
            "board": hand.deal.board or None,
            "dealer": hand.dealer.name,
            "ruleset": hand.rules.ruleset,
            "trump": hand.trump,
            "cards": [c.to_json() for c in costs],
            "cost": total,
        }
        out.write(_line(result) + "\n")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    >>> main(["commit", "--seed", "abc"])
    ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse reports usage errors itself (status 2)
        return int(exc.code or 0)
    out = _utf8(sys.stdout)
    try:
        if args.command == "commit":
            out.write(commitment(args.seed) + "\n")
            return 0
        if args.command == "deal":
            # The range is read as it is printed: a long one starts at once, a huge one is no list.
            boards = [args.board] if args.board is not None else args.boards
            for n in boards:
                out.write(_line(deal_board(args.seed, n).to_json()) + "\n")
            return 0
        if args.command == "replay":
            if (args.seed is None) != (args.board is None):
                parser.error("--seed and --board go together")
            deal: Deal | None = deal_board(args.seed, args.board) if args.seed is not None else None
            rules = Rules(args.ruleset) if args.ruleset else None
            for record in _read_records(args.files, sys.stdin):
                out.write(_line(replay(record, deal=deal, rules=rules).to_json()) + "\n")
            return 0
        if args.command == "solve":
            return _solve(args, parser, out)
        status = 0
        for record in _read_records([args.file], sys.stdin):
            try:
                out.write(_line(legal_for_record(record)) + "\n")
            except InvalidRecord as exc:
                out.write(_line({"problems": [p.to_json() for p in exc.problems]}) + "\n")
                status = 1
        return status
    except _InputError as exc:
        sys.stderr.write(f"botifarra: error: {exc}\n")
        return 2
    except BrokenPipeError:
        # The reader left (``| head``): no traceback; stdout is pointed at /dev/null so that
        # the interpreter's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a command killed by SIGPIPE
    except SystemExit as exc:
        return int(exc.code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
