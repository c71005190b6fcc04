"""Every page of the demo, rendered in Catalan and in Spanish, holds no English.

The demo is built with the demo command's own function (``tournaments.demo.build_demo``), then
its pages are walked by following links, as each of its people: a visitor (public pages), the
organiser and the referee (logged in with the demo's password) and both sides of every open
table (their codes). Each route is visited at most ``PER_ROUTE`` times per person; admin, API,
PDF and export files are left out (the API has its own tests in test_words.py).

What is read: the text of the page, the ``title``, ``aria-label``, ``alt`` and ``placeholder``
attributes, and the strings of the JSON blocks that give the scripts their words (ids ending in
``text``; the others hold data: deals, addresses). What is not:
``<code>``, ``<pre>``, ``<textarea>`` and ``<kbd>`` (table codes, play records, commands).

The heuristic: a text is English when, after removing the demo's proper names (pairs, players,
events, club, venue, usernames), it holds a word of ``ENGLISH``: common English words that are
neither Catalan nor Spanish words (function words, and the game's English nouns and verbs), or
the English side and seat codes ``EW`` and ``W`` (Catalan and Spanish read ``EO`` and ``O``).
Web addresses, the scripts' placeholders and tokens holding a digit or one of ``/:_-`` (table
codes, paths, identifiers such as ``botifarra-play/1``) are taken out first.
Words shared with Catalan or Spanish (``a``, ``no``, ``on``, ``total``, ``final``, ``set``…)
are not in the list, so a page passes with them.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from tournaments.demo import (
    DEMO_EVENING,
    DEMO_EVENT,
    LEAGUE_CLUBS,
    PAIR_NAMES,
    PASSWORD,
    TEAM_NAMES,
    build_demo,
)
from tournaments.demo import table_codes as open_tables

PER_ROUTE = 4
SKIP_PREFIXES = ("/admin", "/api/", "/accounts/logout", "/i18n/", "/healthz", "/static/")
SKIP_PARTS = ("/pdf/", "/pdf-jobs/", "/export/")

ENGLISH = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "are",
        "was",
        "were",
        "with",
        "for",
        "from",
        "your",
        "you",
        "this",
        "that",
        "these",
        "those",
        "which",
        "what",
        "when",
        "where",
        "who",
        "will",
        "would",
        "can",
        "cannot",
        "could",
        # not "has": Catalan («ho has fet»)
        "have",
        "had",
        "been",
        "be",
        "it",
        "its",
        "not",
        "by",
        "at",
        "an",
        "if",
        "then",
        "there",
        "their",
        "they",
        "we",
        "our",
        "here",
        "yet",
        "any",
        "each",
        "every",
        "after",
        "before",
        "only",
        "more",
        "than",
        "into",
        "out",
        "up",
        "about",
        "ahead",
        "matches",
        "match",
        "table",
        "tables",
        "board",
        "boards",
        "round",
        "rounds",
        "pair",
        "pairs",
        "score",
        "scores",
        "scored",
        "standings",
        "entered",
        "enter",
        "send",
        "back",
        "show",
        "hide",
        "print",
        "download",
        "open",
        "closed",
        "none",
        "all",
        "one",
        "two",
        "three",
        "should",
        "must",
        "may",
        "please",
        "page",
        "pages",
        "event",
        "events",
        "result",
        "results",
        "player",
        "players",
        "referee",
        "referees",
        "dealer",
        "trump",
        "trumps",
        "north",
        "east",
        "south",
        "west",
        "rank",
        "name",
        "names",
        "number",
        "played",
        "play",
        "new",
        "edit",
        "save",
        "cancel",
        "delete",
        "remove",
        "yes",
        "next",
        "previous",
        "first",
        "last",
        "still",
        "wait",
        "waiting",
        "see",
        "view",
        "link",
        "code",
        "codes",
        "live",
        "updates",
        "itself",
        "sound",
        "arrives",
        "ago",
        "behind",
        "hand",
        "hands",
        "tricks",
        "trick",
        "confirm",
        "confirmed",
        "dispute",
        "disputes",
        "ruling",
        "rulings",
        "called",
        "call",
        "calls",
        "against",
        "difference",
        "screen",
        "pause",
        "finish",
        "finished",
        "start",
        "started",
        "pending",
        "round's",
        "board's",
        "pair's",
        "seed",
        "commitment",
        "check",
    ]
)
CODES = frozenset({"EW", "W"})  # English side and seat codes: EO and O in Catalan and Spanish
SKIP_TAGS = frozenset({"script", "style", "code", "pre", "textarea", "kbd", "template"})
URL = re.compile(r"\b\w+://\S+")
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")  # the scripts' own placeholders
TOKEN = re.compile(r"[^\s,.;()«»\"“”¿?¡!]+")
WORD = re.compile(r"[^\W\d_]+(?:['’·][^\W\d_]+)*")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.texts: list[str] = []
        self._skip: list[str] = []
        self._json = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        for key in ("title", "aria-label", "alt", "placeholder"):
            if a.get(key):
                self.texts.append(a[key])
        if tag in SKIP_TAGS:
            self._skip.append(tag)
            # The words the scripts show (tp-text, replay-text…), not their data (deals, URLs).
            self._json = (
                tag == "script"
                and a.get("type") == "application/json"
                and a.get("id", "").endswith("text")
            )

    def handle_endtag(self, tag):
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()
            self._json = False

    def handle_data(self, data):
        if self._json:
            self.texts += _strings(json.loads(data))
        elif not self._skip and data.strip():
            self.texts.append(data.strip())


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def english_in(text: str, names: list[str]) -> set[str]:
    """The English words of ``text`` once the proper names are taken out."""
    for name in names:
        text = text.replace(name, " ")
    text = URL.sub(" ", text)  # addresses are not words
    text = PLACEHOLDER.sub(" ", text)
    found = set()
    for token in TOKEN.findall(text):
        if any(ch.isdigit() or ch in "/:_-" for ch in token):
            continue  # a code, a path or an identifier: S8R7W6, botifarra-play/1, /table/…
        for word in WORD.findall(token):
            if word in CODES or word.lower() in ENGLISH:
                found.add(word)
    return found


def test_the_heuristic_sees_english_and_lets_catalan_and_spanish_through():
    names = ["Anna Puig – Jordi Vila"]
    assert english_in("EW ahead", names) == {"EW", "ahead"}
    assert english_in("Matches", names) == {"Matches"}
    assert english_in("last result 2 minuts ago", names) == {"last", "result", "ago"}
    assert english_in("Introduït per NS, pendent d'EO", names) == set()
    assert english_in("Total de la mà EO: 30 · contro (O)", names) == set()
    assert english_in("Posición de Anna Puig – Jordi Vila: no hay resultados", names) == set()
    assert english_in("Cancel·la", names) == set()
    assert english_in("Codi QR http://127.0.0.1:8000/table/ABC123/", names) == set()


def _crawl(client: Client, starts: list[str], lang: str, names: list[str], found: dict) -> int:
    seen: set[str] = set()
    per_route: dict[str, int] = {}
    todo = list(starts)
    pages = 0
    while todo:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        try:
            route = resolve(urlparse(url).path).view_name
        except Resolver404:
            continue
        if per_route.get(route, 0) >= PER_ROUTE:
            continue
        per_route[route] = per_route.get(route, 0) + 1
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
        if response.status_code in (301, 302):
            todo.append(response["Location"])
            continue
        if "html" not in response.get("Content-Type", ""):
            continue
        pages += 1
        page = _Page()
        page.feed(response.content.decode())
        for text in page.texts:
            words = english_in(text, names)
            if words:
                found.setdefault((lang, text[:160]), (url, sorted(words)))
        for href in page.links:
            target = urlparse(urljoin(url, href))
            if target.netloc and target.netloc != "testserver":
                continue
            path = target.path + (f"?{target.query}" if target.query else "")
            if path.startswith(SKIP_PREFIXES) or any(p in path for p in SKIP_PARTS):
                continue
            todo.append(path)
    return pages


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_no_page_of_the_demo_holds_english_in_catalan_or_spanish(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    report = build_demo()
    assert report.event is not None
    names = sorted(
        {f"{a} – {b}" for a, b in PAIR_NAMES}
        | {n for pair in PAIR_NAMES for n in pair}
        | {DEMO_EVENT, DEMO_EVENING, "Casal de la Botifarra", "Casal, sala gran", "Vic"}
        | set(TEAM_NAMES)
        | set(LEAGUE_CLUBS)
        | {login for login, _password, _who in report.logins},
        key=len,
        reverse=True,
    )
    found: dict = {}
    pages = 0
    for lang in ("ca", "es"):
        pages += _crawl(Client(), ["/", "/table/", f"/e/{report.event.pk}/"], lang, names, found)
        for username in ("organiser", "referee"):
            client = Client()
            assert client.login(username=username, password=PASSWORD)
            pages += _crawl(client, ["/manage/", "/"], lang, names, found)
        for table in open_tables(report.event):
            for code in (table.code_ns, table.code_ew):
                client = Client()
                client.post("/table/", {"code": code}, HTTP_ACCEPT_LANGUAGE=lang)
                pages += _crawl(client, [f"/table/{code}/"], lang, names, found)
    assert pages > 150  # the walk really went through the demo
    assert found == {}, "\n".join(f"{k[0]} {v[0]}: {k[1]!r} {v[1]}" for k, v in found.items())
