"""The interface in Catalan (the default), Spanish and English.

The catalogues are compiled here from the committed .po files into a temporary directory: no test
depends on a .mo compiled by hand (the .mo files are git-ignored; ``make install`` compiles them).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tests.catalogues import LANGS, MSGFMT, ROOT, msgfmt, po_path
from tournaments.models import Event, Table
from tournaments.templatetags.cards import suit_names, trump_name

needs_gettext = pytest.mark.skipif(MSGFMT is None, reason="needs GNU gettext (msgfmt)")

# A translated text each page must show, per language: (ca, es, en).
STANDINGS = ("Classificació", "Clasificación", "Standings")


def untranslated_and_fuzzy(stats: str) -> tuple[int, int, int]:
    """``msgfmt --statistics``: '925 translated messages, 2 fuzzy translations, 1 untranslated…'"""

    def count(word: str) -> int:
        found = re.search(rf"(\d+) {word}", stats)
        return int(found.group(1)) if found else 0

    return count("translated message"), count("fuzzy translation"), count("untranslated message")


def lang_of(response) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert found, response.content[:300]
    return found.group(1)


# --- the catalogues themselves ---------------------------------------------------------------


@needs_gettext
@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    result = msgfmt(po_path(lang))
    assert result.returncode == 0, result.stderr
    translated, fuzzy, untranslated = untranslated_and_fuzzy(result.stderr)
    assert translated > 500, result.stderr
    assert (fuzzy, untranslated) == (0, 0), result.stderr
    text = po_path(lang).read_text(encoding="utf-8")
    assert "#, fuzzy" not in text and ", fuzzy" not in text


@needs_gettext
@pytest.mark.parametrize("lang", LANGS)
def test_msgfmt_check_passes_without_a_warning(lang):
    """--check: the header is complete and every msgstr keeps its msgid's %(name)s placeholders."""
    result = msgfmt(po_path(lang))
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "translated message" not in line]
    assert warnings == []


@pytest.mark.parametrize("lang", LANGS)
def test_headers_name_the_language_and_two_plural_forms(lang):
    text = po_path(lang).read_text(encoding="utf-8")
    assert f'"Language: {lang}\\n"' in text
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text
    assert re.search(r"Glos+ari", text.split('msgid ""')[0])  # the translators' glossary first


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_and_markup_are_kept(lang):
    """Every %(name)s, {…}, <tag> and `code` of a msgid is in its msgstr (msgfmt checks only
    python-format entries)."""
    pattern = re.compile(r"%\([a-z_]+\)s|%%|<[^>]+>|`[^`]*`")
    entries = _entries(po_path(lang))
    assert entries
    wrong = []
    for msgids, msgstrs in entries:
        for msgid, msgstr in zip(msgids, msgstrs, strict=True):
            if sorted(pattern.findall(msgid)) != sorted(pattern.findall(msgstr)):
                wrong.append((msgid, msgstr))
    assert wrong == []


def _unquote(line: str) -> str:
    return (
        line[line.index('"') + 1 : line.rindex('"')]
        .encode()
        .decode("unicode_escape")
        .encode("latin-1")
        .decode("utf-8")
    )


def _entries(po: Path) -> list[tuple[list[str], list[str]]]:
    """([msgid, msgid_plural?], [msgstr…]) of every entry but the header, from a .po written by
    the gettext tools (one keyword per line, continued by quoted lines)."""
    entries: list[tuple[list[str], list[str]]] = []
    ids: list[str] = []
    strs: list[str] = []
    current: list[str] | None = None
    for line in po.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith(("msgid ", "msgid_plural ")):
            if line.startswith("msgid "):
                ids, strs = [], []
            ids.append(_unquote(line))
            current = ids
        elif line.startswith("msgstr"):
            strs.append(_unquote(line))
            current = strs
        elif line.startswith('"') and current is not None:
            current[-1] += _unquote(line)
        elif not line.strip() and ids:
            if ids[0]:
                entries.append((ids, strs))
            ids, strs, current = [], [], None
    return entries


@needs_gettext
def test_the_catalogues_hold_every_message_of_the_code(tmp_path):
    """makemessages on a copy of the code finds nothing new to translate: a string wrapped since
    the last translation pass fails here (run makemessages, translate, commit the .po)."""
    ignore = shutil.ignore_patterns(
        ".venv",
        ".git",
        "tests",
        "benchmarks",
        "docs",
        "test-artifacts",
        "staticfiles",
        "media",
        "*.sqlite3",
        "__pycache__",
        "*.mo",
        "*.egg-info",
        ".*_cache",
    )
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=ignore)
    env = dict(os.environ, DEBUG="1", PYTHONPATH=str(copy))
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "ca",
            "-l",
            "es",
            "--no-obsolete",
            "-v",
            "0",
        ],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for lang in LANGS:
        stats = msgfmt(copy / "locale" / lang / "LC_MESSAGES" / "django.po")
        _, fuzzy, untranslated = untranslated_and_fuzzy(stats.stderr)
        assert (fuzzy, untranslated) == (0, 0), (lang, stats.stderr)


# --- suit names, labels ----------------------------------------------------------------------


@pytest.mark.usefixtures("site_in_catalan")
def test_suit_names_follow_the_language():
    with translation.override("ca"):
        assert suit_names() == {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}
        assert trump_name("botifarra") == "botifarra (sense trumfo)"
    with translation.override("es"):
        assert suit_names() == {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
        assert trump_name("botifarra") == "botifarra (sin triunfo)"
    with translation.override("en"):
        assert suit_names() == {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}


@pytest.mark.usefixtures("site_in_catalan")
def test_choices_and_calls_are_translated():
    with translation.override("ca"):
        assert Event.Status.RUNNING.label == "En joc"
        assert translation.pgettext("call", "Sant Vicenç") == "Sant Vicenç"
    with translation.override("es"):
        assert Event.Status.RUNNING.label == "En juego"
        assert translation.pgettext("call", "Sant Vicenç") == "San Vicente"
    with translation.override("en"):
        assert Event.Status.RUNNING.label == "Running"


# --- pages -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_a_first_visit_without_accept_language_is_in_catalan(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert lang_of(response) == "ca"
    assert "Introdueix un codi de taula" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ca", "Introdueix un codi de taula"),
        ("es", "Introducir un código de mesa"),
        ("en", "Enter a table code"),
    ],
)
def test_home_page_in_each_language(client, lang, text):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=lang)
    assert lang_of(response) == lang
    assert text in response.content.decode()


@pytest.mark.usefixtures("site_in_catalan")
@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("ca", ("Classificació", "Rondes", "Taulells repartits")),
        ("es", ("Clasificación", "Rondas", "Tableros repartidos")),
        ("en", ("Standings", "Rounds", "Boards dealt")),
    ],
)
def test_organiser_dashboard_in_each_language(client, running_event, organiser, lang, texts):
    client.force_login(organiser)
    response = client.get(
        reverse("tournaments:event_dashboard", args=[running_event.pk]), HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 200
    assert lang_of(response) == lang
    page = response.content.decode()
    for text in texts:
        assert text in page


@pytest.mark.usefixtures("site_in_catalan")
@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("ca", ("Taula 1", "Introdueixes els resultats com a NS", "Taulell 1")),
        ("es", ("Mesa 1", "Introduces los resultados como NS", "Tablero 1")),
        ("en", ("Table 1", "You enter for NS", "Board 1")),
    ],
)
def test_table_page_in_each_language(client, running_event, lang, texts):
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    header = {"HTTP_ACCEPT_LANGUAGE": lang}
    assert client.post(reverse("table:enter"), {"code": table.code_ns}, **header).status_code == 302
    response = client.get(reverse("table:table_home", args=[table.code_ns]), **header)
    assert response.status_code == 200
    assert lang_of(response) == lang
    page = response.content.decode()
    for text in texts:
        assert text in page


@pytest.mark.usefixtures("site_in_catalan")
@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("ca", (STANDINGS[0], "Fulls de mans", "Taulells justos: comprova-ho tu mateix")),
        ("es", (STANDINGS[1], "Hojas de manos", "Tableros justos: compruébalo tú mismo")),
        ("en", (STANDINGS[2], "Hand records", "Fair boards: check them yourself")),
    ],
)
def test_public_event_page_in_each_language(client, running_event, lang, texts):
    running_event.published = True
    running_event.save(update_fields=["published"])
    response = client.get(
        reverse("public:event", args=[running_event.pk]), HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 200
    assert lang_of(response) == lang
    page = response.content.decode()
    for text in texts:
        assert text in page


@pytest.mark.usefixtures("site_in_catalan")
@pytest.mark.parametrize(("lang", "title"), list(zip(("ca", "es", "en"), STANDINGS, strict=True)))
def test_public_standings_title_in_each_language(client, running_event, lang, title):
    running_event.published = True
    running_event.save(update_fields=["published"])
    response = client.get(
        reverse("public:standings", args=[running_event.pk]), HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 200
    assert f"<h1>{title}" in response.content.decode() or title in response.content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_the_language_switcher_changes_the_language(client):
    assert lang_of(client.get(reverse("home"))) == "ca"
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    page = client.get(reverse("home"))
    assert lang_of(page) == "es"
    assert "Introducir un código de mesa" in page.content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert lang_of(client.get(reverse("home"))) == "en"


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_the_switcher_offers_the_three_languages_by_their_own_names(client):
    page = client.get(reverse("home")).content.decode()
    for code, name in (("ca", "Català"), ("es", "Español"), ("en", "English")):
        assert f'<option value="{code}"' in page
        assert name in page


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_messages_from_services_follow_the_language(client):
    """A refused table code: the sentence comes from Python (gettext), not from a template."""
    for lang, text in (
        ("ca", "Cap taula oberta no té aquest codi"),
        ("es", "Ninguna mesa abierta tiene este código"),
        ("en", "No open table has this code"),
    ):
        response = client.post(
            reverse("table:enter"), {"code": "ZZZZZZ"}, HTTP_ACCEPT_LANGUAGE=lang
        )
        assert text in response.content.decode(), lang
