"""The docstring examples of every engine module run as tests (style.md convention 10)."""

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(
    name
    for _, name, _ in pkgutil.iter_modules(engine.__path__, "engine.")
    if name != "engine.__main__"
)


@pytest.mark.parametrize("name", ["engine", *MODULES])
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
