"""setup.py builds the C solver profile-guided with gcc: a training run of engine/_training.py
between two compilations. A training script that stops working would silently give the plain
build; these tests catch that."""

import os
import shutil
import subprocess

import pytest

import engine.solver
from engine._training import train

pytestmark = pytest.mark.skipif(
    engine.solver.BACKEND != "c", reason="the C extension is not built here"
)


def _gcc() -> bool:
    cc = shutil.which("gcc")
    if cc is None:
        return False
    out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    return "Free Software Foundation" in out


def test_the_training_workload_runs_on_the_solver_and_searches():
    assert train(deals=1, records=1) > 100_000


@pytest.mark.skipif(
    os.environ.get("BOTIFARRA_SOLVER_PGO") == "0", reason="built without profile guidance"
)
def test_with_gcc_the_installed_solver_was_built_profile_guided():
    if not _gcc():
        pytest.skip("no gcc here: setup.py builds the plain extension")
    assert engine.solver.PROFILE_GUIDED, (
        "the C solver was built without profile guidance: the training run failed during "
        "`pip install` (run `pip install -e . -v` and look for 'profile-guided build failed'), "
        "or it was built with BOTIFARRA_SOLVER_PGO=0 (then set it for the tests too)"
    )
