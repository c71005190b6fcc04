"""Every stylesheet closes what it opens: a block left open (an @media without its closing
brace) silently moves every later rule into it — public.css printed the round-robin grid and the
season ranking without their rules, on paper and in the PDFs, for that reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = sorted((Path(__file__).resolve().parents[2] / "static" / "css").glob("*.css"))


@pytest.mark.parametrize("path", CSS, ids=lambda p: p.name)
def test_every_block_of_the_stylesheet_is_closed(path):
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    text = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', text)  # braces inside strings do not count
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"{path.name}:{number}: a brace closes nothing"
    assert depth == 0, f"{path.name}: {depth} block(s) left open"
