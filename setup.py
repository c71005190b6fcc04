"""The C extension engine._solver (the fast perfect-play search); everything else is in
pyproject.toml. The extension is optional: without a compiler, or when its build fails, the
install goes on and engine.solver uses the pure-Python reference search."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._solver",
            sources=["engine/_solver.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
