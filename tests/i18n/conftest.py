"""The catalogues compiled from the committed .po files, and the site in Catalan."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("ca", "es")
MSGFMT = shutil.which("msgfmt")


def po_path(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def msgfmt(po: Path, out: Path | str = os.devnull) -> subprocess.CompletedProcess:
    return subprocess.run(
        [MSGFMT, "--check", "--statistics", "-o", str(out), str(po)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="session")
def compiled_locale(tmp_path_factory) -> Path:
    """The committed .po files compiled (``msgfmt --check``) into a temporary LOCALE_PATHS."""
    if MSGFMT is None:
        pytest.skip("needs GNU gettext (msgfmt)")
    root = tmp_path_factory.mktemp("locale")
    for lang in LANGS:
        target = root / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        result = msgfmt(po_path(lang), target / "django.mo")
        assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def site_in_catalan(settings, compiled_locale):
    """The site as deployed: Catalan by default (tests/conftest.py pins English elsewhere)."""
    settings.LOCALE_PATHS = [compiled_locale]
    settings.LANGUAGE_CODE = "ca"
