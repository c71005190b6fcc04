"""Issue 2: a test that needs a service carries its marker (``postgres``, ``redis``,
``browser``), so that it skips with a reason when the service is absent and fails instead under
REQUIRE_SERVICES=1 (tests/conftest.py). A test that skips itself on the database's vendor would
skip in CI too, unseen."""

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_no_test_skips_itself_on_the_database_vendor():
    found = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if path.name != "conftest.py"
        and re.search(r"connection\.vendor\s*!=", (text := path.read_text(encoding="utf-8")))
        and "pytest.skip(" in text
    ]
    assert found == []
