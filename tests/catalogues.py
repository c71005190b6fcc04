"""The committed .po catalogues and how to compile them with GNU gettext."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
