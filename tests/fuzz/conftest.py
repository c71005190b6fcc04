"""Fuzz figures: each fuzz test adds what it tried here; the totals are printed at the end of
the session (``-s`` shows them; ``make fuzz`` passes it)."""

from __future__ import annotations

from collections import Counter

import pytest

FIGURES: dict[str, Counter] = {}


def count(name: str, key: str, n: int = 1) -> None:
    FIGURES.setdefault(name, Counter())[key] += n


@pytest.fixture
def fuzz_figures():
    return count


def pytest_terminal_summary(terminalreporter):
    if not FIGURES:
        return
    terminalreporter.section("fuzz figures")
    for name, counter in sorted(FIGURES.items()):
        parts = ", ".join(f"{k}={v}" for k, v in sorted(counter.items()))
        terminalreporter.write_line(f"{name}: {parts}")
