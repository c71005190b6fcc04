"""The scoring algorithms are pure: importing them never loads Django (the bridge does that)."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.checker
import scoring.duplicate
import scoring.groups
import scoring.lots
import scoring.pairing
import scoring.presets
import scoring.roundrobin
import scoring.season
import scoring.seeding
import scoring.simulation
import scoring.tournament_file

ROOT = Path(__file__).resolve().parents[2]
PURE = [
    "types",
    "duplicate",
    "matches",
    "standings",
    "pairing",
    "lots",
    "ratings",
    "seeding",
    "season",
    "simulation",
    "presets",
    "roundrobin",
    "groups",
    "methods",
    "tournament_file",
    "generator",
    "checker",
    "cli",
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
        scoring.season,
        scoring.seeding,
        scoring.simulation,
        scoring.presets,
        scoring.roundrobin,
        scoring.groups,
        scoring.pairing,
        scoring.tournament_file,
        scoring.checker,
    ],
)
def test_docstring_examples_run(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0
