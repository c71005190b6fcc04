"""Helpers for the whole-event browser test (test_full_event.py).

``Ledger`` is the test's own record of every board's score and its own standings: it uses only
the rules (R9, R10, docs/scoring.md), never ``scoring/``, so that the site is checked against an
independent computation.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from playwright.sync_api import expect as pw_expect

from tests.e2e.conftest import SCREENSHOTS

PASSWORD = "pass-word-123"  # tests.factories.UserFactory
PAIR_NUMBER = re.compile(r"^\s*(\d+)\.")


# --- screenshots -------------------------------------------------------------------------------


class Shots:
    """Numbered screenshots of every step, from any page, into one folder."""

    def __init__(self, name: str) -> None:
        self.folder = SCREENSHOTS / name
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.count = 0

    def __call__(self, page, step: str, *, full_page: bool = True) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{step}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path


# --- pages ---------------------------------------------------------------------------------------


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Log in on the login page (a test user's password by default; the demo's is
    ``tournaments.demo.PASSWORD``) and wait for the events list it leads to."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.form button.primary")
    page.wait_for_url(re.compile(r"/manage/$"))


def round_tables(page) -> list[dict]:
    """The organiser's round page: [{table, ns, ew, codes: {NS, EW}}] with the pairs' entry
    numbers and each side's code."""
    rows = []
    for row in page.locator("#tables tbody tr").all():
        cells = row.locator("td")
        ns = PAIR_NUMBER.match(cells.nth(1).inner_text())
        ew = PAIR_NUMBER.match(cells.nth(2).inner_text())
        assert ns and ew, row.inner_text()
        rows.append(
            {
                "table": int(
                    cells.nth(0).inner_text().split()[0]
                ),  # then when its last result came
                "ns": int(ns.group(1)),
                "ew": int(ew.group(1)),
                "codes": dict(
                    zip(
                        ("NS", "EW"),
                        (c.strip() for c in row.locator("code.table-code").all_inner_texts()),
                        strict=True,
                    )
                ),
            }
        )
    return rows


def enter_code(page, code: str) -> None:
    """A player types their side's code (as people do: lower case, a space)."""
    page.goto("/table/")
    page.fill("input[name=code]", f"{code[:3].lower()} {code[3:].lower()}")
    page.click("main form button.primary")
    page.wait_for_selector("#boards")


def fill_short(page, *, trump: str, totals_ns: int, expect: tuple[int, int]) -> None:
    """On the short form: trump, NS total (EW fills itself in); wait for the live score."""
    page.click(f"label.trump-{trump}")
    page.fill("input[name=totals_ns]", str(totals_ns))
    assert page.input_value("input[name=totals_ew]") == str(72 - totals_ns)
    pw_expect(page.locator("#live-score strong")).to_have_text(
        f"NS {expect[0]} · EW {expect[1]}", timeout=30_000
    )


def short_entry(page, board: int, *, trump: str, totals_ns: int, expect: tuple[int, int]) -> None:
    """From the table page: Enter the result → form → Send; back on the table page."""
    page.click(f"#board-{board} a.button.primary")
    page.wait_for_selector("#short-form")
    fill_short(page, trump=trump, totals_ns=totals_ns, expect=expect)
    page.click("#short-form button[type=submit]")
    page.wait_for_selector(f"#board-{board}[data-status=entered]")


def confirm_entry(page, board: int) -> None:
    page.click(f"#board-{board} form button.primary")
    page.wait_for_selector(f"#board-{board}[data-status=confirmed]")


def leave(page) -> None:
    """Stop a page's timers (the table page polls every 10 s) before its round closes."""
    page.wait_for_load_state("networkidle")
    page.goto("about:blank")


# --- the API, as a club's software at the other tables ---------------------------------------


class TableApi:
    """Table tokens and short results through /api/v1/ (Playwright's request context)."""

    def __init__(self, request) -> None:
        self.request = request

    def _post(self, path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Authorization": f"Table {token}"} if token else {}
        response = self.request.post(f"/api/v1/{path}", data=body, headers=headers)
        assert response.status in (200, 201), (path, response.status, response.text())
        return response.json()

    def token(self, code: str, side: str) -> tuple[str, int]:
        data = self._post("table-token", {"code": code})
        assert data["side"] == side, data
        return data["token"], data["table"]

    def enter(self, token: str, table: int, board: int, short: dict) -> dict:
        return self._post("results", {"table": table, "board": board, **short}, token)

    def confirm(self, token: str, result_id: int, version: int) -> dict:
        return self._post(f"results/{result_id}/confirm", {"version": version}, token)


# --- the test's own scoring --------------------------------------------------------------------


def short_score(totals_ns: int, multiplier: int) -> tuple[int, int]:
    """R9: the pair over 36 scores (total − 36) × multiplier, the other 0."""
    totals_ew = 72 - totals_ns
    if totals_ns > 36:
        return (totals_ns - 36) * multiplier, 0
    if totals_ew > 36:
        return 0, (totals_ew - 36) * multiplier
    return 0, 0


def penalty_score(offending_pair: str, multiplier: int) -> tuple[int, int]:
    """R10: the offenders' opponents score 36 × multiplier, the offenders 0."""
    return (0, 36 * multiplier) if offending_pair == "NS" else (36 * multiplier, 0)


def multiplier(trump: str, calls: int = 0) -> int:
    """R5: base 1 for a suit, 2 for botifarra; × 2 per call (contro, recontro, Sant Vicenç)."""
    return (2 if trump == "botifarra" else 1) * 2**calls


@dataclass
class Row:
    number: int
    match_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: int = 0
    duplicate_pct: Fraction = Fraction(0)
    boards: int = 0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def point_diff(self) -> int:
        return self.points_for - self.points_against

    @property
    def key(self) -> tuple:
        return (
            self.match_points,
            self.point_diff,
            self.points_for,
            self.buchholz,
            self.duplicate_pct,
        )


@dataclass
class Ledger:
    """Every table and every board's score as the test entered (or the referee ruled) it."""

    tables: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (round, table)
    scores: dict[tuple[int, int, int], tuple[int, int]] = field(default_factory=dict)

    def seat(self, rnd: int, rows: list[dict]) -> None:
        for row in rows:
            self.tables[(rnd, row["table"])] = (row["ns"], row["ew"])

    def record(self, rnd: int, table: int, board: int, score: tuple[int, int]) -> None:
        self.scores[(rnd, table, board)] = score

    def met(self, a: int, b: int) -> bool:
        return any({a, b} == {ns, ew} for ns, ew in self.tables.values())

    def matches(self) -> list[tuple[int, int, int, int]]:
        """(ns, ew, total_ns, total_ew) for every table of every round."""
        out = []
        for (rnd, table), (ns, ew) in sorted(self.tables.items()):
            boards = [s for (r, t, _b), s in self.scores.items() if (r, t) == (rnd, table)]
            out.append((ns, ew, sum(s[0] for s in boards), sum(s[1] for s in boards)))
        return out

    def board_lines(self, board: int) -> dict[int, dict]:
        """Duplicate matchpoints of one board: {table: {ns, ew, mp_ns, mp_ew, pct_ns, pct_ew}}."""
        lines = {t: s for (_r, t, b), s in self.scores.items() if b == board}
        nets = {t: s[0] - s[1] for t, s in lines.items()}
        top = 2 * (len(lines) - 1)
        out = {}
        for t, (ns, ew) in lines.items():
            mp = sum(
                2 if nets[t] > nets[o] else 1 if nets[t] == nets[o] else 0 for o in nets if o != t
            )
            pct = Fraction(100 * mp, top)
            out[t] = {
                "ns": ns,
                "ew": ew,
                "mp_ns": mp,
                "mp_ew": top - mp,
                "pct_ns": pct,
                "pct_ew": 100 - pct,
            }
        return out

    def standings(self, numbers: list[int], seed: str) -> list[Row]:
        """Ranked 'wins' method: MP, point difference, points for, Buchholz, duplicate %;
        equal on all share a rank; the lot from the seed orders them (docs/scoring.md)."""
        rows = {n: Row(n) for n in numbers}
        for ns, ew, tns, tew in self.matches():
            for me, other, mine, theirs in ((ns, ew, tns, tew), (ew, ns, tew, tns)):
                row = rows[me]
                row.points_for += mine
                row.points_against += theirs
                row.opponents.append(other)
                if mine > theirs:
                    row.wins += 1
                    row.match_points += 2
                elif mine == theirs:
                    row.draws += 1
                    row.match_points += 1
                else:
                    row.losses += 1
        for row in rows.values():
            row.buchholz = sum(rows[o].match_points for o in row.opponents)
        pcts: dict[int, list[Fraction]] = {n: [] for n in numbers}
        for board in sorted({b for (_r, _t, b) in self.scores}):
            rnd = next(r for (r, _t, b) in self.scores if b == board)
            for t, line in self.board_lines(board).items():
                ns, ew = self.tables[(rnd, t)]
                pcts[ns].append(line["pct_ns"])
                pcts[ew].append(line["pct_ew"])
        for n, values in pcts.items():
            rows[n].boards = len(values)
            rows[n].duplicate_pct = sum(values, Fraction(0)) / len(values) if values else 0

        def lot(n: int) -> str:
            return hashlib.sha256(f"{seed}:lot:{n}".encode()).hexdigest()

        ranked = sorted(rows.values(), key=lambda r: (tuple(-x for x in r.key), lot(r.number)))
        for row in ranked:
            row.rank = 1 + sum(other.key > row.key for other in ranked)
        return ranked


def cell_number(text: str) -> str:
    """A table cell's text without the shared-rank marks ("3= (shared rank)" → "3")."""
    return text.split("(")[0].replace("=", "").strip()
