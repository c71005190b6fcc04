"""The C extension engine._solver (the fast perfect-play search); everything else is in
pyproject.toml. The extension is optional: without a compiler, or when its build fails, the
install goes on and engine.solver uses the pure-Python reference search.

With gcc the extension is built profile-guided: compiled with ``-fprofile-generate``, run on the
training deals of ``engine/_training.py``, compiled again with ``-fprofile-use``.
The search then runs about 5% faster (docs/analysis.md, Speed). When any step of that fails,
or with ``BOTIFARRA_SOLVER_PGO=0`` in the environment, it is built once with ``-O3``.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOLVER = "engine._solver"
TRAINING_TIMEOUT_S = 600


class ProfileGuidedBuildExt(build_ext):
    def build_extension(self, ext):
        if ext.name != SOLVER or not self._gcc() or os.environ.get("BOTIFARRA_SOLVER_PGO") == "0":
            return super().build_extension(ext)
        with tempfile.TemporaryDirectory(prefix="solver-pgo-") as work:
            profiles = os.path.join(work, "profiles")
            try:
                self._build(
                    ext,
                    ["-fprofile-generate", "-fprofile-update=single", f"-fprofile-dir={profiles}"],
                    ["-fprofile-generate"],
                )
                self._train(ext, os.path.join(work, "run"))
                if not any(p.suffix == ".gcda" for p in Path(profiles).rglob("*")):
                    raise RuntimeError("the training run wrote no profile")
                self._build(
                    ext,
                    [
                        "-fprofile-use",
                        f"-fprofile-dir={profiles}",
                        "-fprofile-partial-training",
                        "-Wno-missing-profile",
                        "-DSOLVER_PROFILE_GUIDED=1",
                    ],
                    [],
                )
            except Exception as exc:  # noqa: BLE001 (any failure: the plain build below)
                print(
                    f"{SOLVER}: profile-guided build failed ({exc}); building with -O3",
                    file=sys.stderr,
                )
                self._build(ext, [], [])

    def _gcc(self):
        compiler = getattr(self.compiler, "compiler_so", None)
        if not compiler:
            return False
        try:
            version = subprocess.run([compiler[0], "--version"], capture_output=True, text=True)
        except OSError:
            return False
        return "Free Software Foundation" in version.stdout and "clang" not in version.stdout

    def _build(self, ext, compile_args, link_args):
        kept = ext.extra_compile_args, ext.extra_link_args, self.force
        ext.extra_compile_args = [*kept[0], *compile_args]
        ext.extra_link_args = [*kept[1], *link_args]
        self.force = True  # the same object and module paths as the previous build
        try:
            super().build_extension(ext)
        finally:
            ext.extra_compile_args, ext.extra_link_args, self.force = kept

    def _train(self, ext, run):
        """Run engine/_training.py in a child process on a copy of the engine package holding
        the instrumented module just built (not any other build of it on the path)."""
        package = os.path.join(run, "engine")
        shutil.copytree(ROOT / "engine", package, ignore=shutil.ignore_patterns("*.so", "*.pyd"))
        built = self.get_ext_fullpath(ext.name)
        shutil.copy2(built, os.path.join(package, os.path.basename(built)))
        check = (
            "import sys; sys.path.insert(0, sys.argv[1]); import engine.solver as s; "
            "assert s.BACKEND == 'c' and s._solver.__file__.startswith(sys.argv[1]), 'not built'; "
            "from engine._training import train; train()"
        )
        env = {k: v for k, v in os.environ.items() if k != "BOTIFARRA_SOLVER"}
        subprocess.run(
            [sys.executable, "-I", "-c", check, run],
            check=True,
            timeout=TRAINING_TIMEOUT_S,
            env=env,
            cwd=run,
        )


setup(
    cmdclass={"build_ext": ProfileGuidedBuildExt},
    ext_modules=[
        Extension(
            SOLVER,
            sources=["engine/_solver.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ],
)
