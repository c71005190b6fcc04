"""The scoring algorithms are pure: importing them never loads Django (the bridge does that)."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.butler
import scoring.duplicate
import scoring.league
import scoring.lots
import scoring.ranking
import scoring.scale
import scoring.teams
import scoring.vp

ROOT = Path(__file__).resolve().parents[2]
PURE = [
    "types",
    "duplicate",
    "matches",
    "standings",
    "pairing",
    "lots",
    "scale",
    "vp",
    "team_types",
    "teams",
    "team_standings",
    "butler",
    "ranking",
    "league",
]


def test_scoring_algorithms_never_import_django():
    code = (
        "import sys\n"
        + "".join(f"import scoring.{m}\n" for m in PURE)
        + "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize(
    "module",
    [
        scoring.duplicate,
        scoring.lots,
        scoring.scale,
        scoring.vp,
        scoring.teams,
        scoring.butler,
        scoring.ranking,
        scoring.league,
    ],
)
def test_docstring_examples_run(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0
