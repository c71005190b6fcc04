"""The scoring algorithms are pure: importing them never loads Django (``tournaments.scoring_io``
reads the models into their plain objects).

Every module of ``scoring/`` is found here by listing the
package, so a new module is covered without being named.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import scoring

ROOT = Path(__file__).resolve().parents[2]
NOT_PURE: set[str] = set()
PURE = sorted(
    m.name
    for m in pkgutil.iter_modules(scoring.__path__)
    if m.name not in NOT_PURE and not m.name.startswith("_")
)


def test_the_pure_modules_are_found():
    assert {"standings", "pairing", "matches", "ratings", "teams", "checker"} <= set(PURE)


def test_scoring_algorithms_never_import_django():
    code = (
        "import sys\n"
        + "".join(f"import scoring.{m}\n" for m in PURE)
        + "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize("name", PURE)
def test_docstring_examples_run(name):
    failures, _ = doctest.testmod(importlib.import_module(f"scoring.{name}"))
    assert failures == 0
