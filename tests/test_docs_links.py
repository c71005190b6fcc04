"""The documentation a user's clone holds: every relative link of the README and docs/ leads to
a file of the project (a link outside it, e.g. to a checkout's neighbour, is broken there)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files_of_the_project(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            continue  # a URL, an anchor of the page, or a path of the running site
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_the_specifications_other_programs_rely_on_are_shipped():
    for name in ("rules.md", "deals.md", "play-record.md"):
        assert (ROOT / "docs" / "spec" / name).stat().st_size > 1000
    assert len(list((ROOT / "tests" / "data" / "examples").glob("*.json"))) == 40
