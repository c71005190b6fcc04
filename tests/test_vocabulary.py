"""The game's words are translated in one place, ``tournaments/labels.py``: a side, a seat, a
suit or trump, a call written as a message anywhere else would be a second id for the same word,
translated apart (and a change in labels.py would not reach it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VOCABULARY = ROOT / "tournaments" / "labels.py"
WORDS = (
    "North–South",
    "East–West",
    "North – South",
    "East – West",
    "NS",
    "EW",
    "North",
    "East",
    "South",
    "West",
    "oros",
    "copes",
    "espases",
    "bastos",
    "botifarra",
    "contro",
    "recontro",
    "Sant Vicenç",
)
_WORD = "|".join(re.escape(w) for w in WORDS)
# A message of one of those words: _("NS"), gettext_lazy("North"), pgettext("side", "EW"),
# {% translate "East–West" %}, {% translate "NS" context "…" %}.
MESSAGE = re.compile(
    r"(?:\b_|\bgettext(?:_lazy)?|\bpgettext(?:_lazy)?\(\s*[\"'][^\"']*[\"'],|\{%\s*translate)"
    rf"\s*\(?\s*([\"'])({_WORD})\1"
)


def _messages(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{number}: {found.group(2)}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for found in MESSAGE.finditer(line)
    ]


def test_the_games_words_are_messages_only_in_the_vocabulary_module():
    sources = [
        path
        for folder in ("tournaments", "api", "scoring", "config", "templates")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".html", ".txt") and path != VOCABULARY
    ]
    assert sources
    assert [m for path in sources for m in _messages(path)] == []


def test_the_scan_finds_the_vocabularys_own_messages():
    found = "\n".join(_messages(VOCABULARY))
    for word in ("North–South", "EW", "Sant Vicenç"):
        assert f": {word}\n" in f"{found}\n"
    assert MESSAGE.search('_("NS\'s pair number.")') is None
    for template in ('<th>{% translate "NS" context "pair column" %}</th>', "{% translate 'EW' %}"):
        assert MESSAGE.search(template).group(2) in ("NS", "EW")
