"""One word per concept, as the catalogues' own glossaries promise.

The header of locale/ca/LC_MESSAGES/django.po says «Glossari (trieu sempre aquests termes)»:
board = taulell, «calls = contros»; locale/es/LC_MESSAGES/django.po says «calls = contros» and
«match (two pairs in a round) = enfrentamiento … («match» is English to a Spanish reader)».
A player who reads «Contros» on the short form is told about contros, not «crides» or «voces»,
when a record's calls are wrong; a board is a taulell; the line-up page says enfrentamiento.
tests/i18n/test_demo_pages.py cannot see these: they are Catalan or Spanish words, and its crawl
does not reach the line-up page.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.catalogues import po_path
from tests.i18n.test_translations import _entries


def _pairs(lang: str) -> list[tuple[str, str]]:
    return [
        (msgid, msgstr)
        for ids, strs in _entries(po_path(lang))
        for msgid, msgstr in zip(ids, strs, strict=True)
    ]


# A call of the game (contro, recontro, Sant Vicenç: rule R5), not a call to the referee.
GAME_CALL = re.compile(r"\bcall(s|ed)?\b", re.I)
REFEREE_OR_TIME = re.compile(r"referee|time|called you", re.I)
OTHER_WORD = {"ca": re.compile(r"\bcrid(a|es)\b", re.I), "es": re.compile(r"\bvo(z|ces)\b", re.I)}


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_a_call_of_the_game_is_a_contro_in_every_message(lang):
    wrong = [
        (msgid, msgstr)
        for msgid, msgstr in _pairs(lang)
        if GAME_CALL.search(msgid)
        and not REFEREE_OR_TIME.search(msgid)
        and OTHER_WORD[lang].search(msgstr)
    ]
    assert wrong == []


def test_a_board_is_a_taulell_in_catalan():
    wrong = [
        (msgid, msgstr)
        for msgid, msgstr in _pairs("ca")
        if re.search(r"\bboard\b", msgid)
        and "results board" not in msgid  # a notice board, not a board of the game
        and re.search(r"\btauler", msgstr)
    ]
    assert wrong == []


def test_spanish_never_says_match():
    wrong = [(i, s) for i, s in _pairs("es") if re.search(r"\bmatch\b", s)]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_catalan")
def test_the_line_up_page_in_spanish_does_not_say_match(settings):
    from tournaments.demo import PASSWORD, build_demo
    from tournaments.models import TeamMatch

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    report = build_demo()
    match = TeamMatch.objects.filter(round__event=report.teams).order_by("round__number").first()
    client = Client()
    assert client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:lineup", args=[report.teams.pk, match.round.number, match.number])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Alineaciones" in page  # the page is in Spanish
    assert not re.search(r"\bmatch\b", page.split("<main", 1)[1]), re.findall(
        r"[^.>]*\bmatch\b[^.<]*", page
    )


# A dispute is a reclamació / reclamación (the referee's queue); "en disputa" is its status.
DISPUTE_NOUN = {
    "ca": re.compile(r"\b(una|la|les) disputes?\b|\bdisputes\b", re.I),
    "es": re.compile(r"\b(una|la|las) disputas?\b|\bdisputas\b", re.I),
}


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_a_dispute_is_a_reclamacio_not_a_disputa(lang):
    wrong = [(i, s) for i, s in _pairs(lang) if DISPUTE_NOUN[lang].search(s)]
    assert wrong == []


# A match (two pairs in a round) is a matx / enfrentamiento; a game (partida) is another thing.
@pytest.mark.parametrize("lang", ["ca", "es"])
def test_a_match_is_never_called_a_game(lang):
    wrong = [
        (msgid, msgstr)
        for msgid, msgstr in _pairs(lang)
        if re.search(r"\bmatch(es)?\b", msgid)
        and not re.search(r"\bgames?\b", msgid, re.I)
        and re.search(r"\bpartid", msgstr, re.I)
    ]
    assert wrong == []


def test_the_referees_form_names_the_trumps_as_the_tables_form_does():
    """Issue 16: one vocabulary; the referee's corrected result said "Oros", "Botifarra"
    where the players' form says "♦ oros", "∅ botifarra (no trumps)"."""
    from tournaments import labels
    from tournaments.forms_referee import CorrectedShortForm

    shown = dict(CorrectedShortForm.base_fields["trump"].choices)
    for trump in labels.TRUMPS:
        assert shown[trump] == f"{labels.trump_symbol(trump)} {labels.trump_name(trump)}"


# Buttons that are not an order to the program: a state, a noun, or the pair's own words.
NOT_ORDERS = {"Check in", "Pause", "Sign up", "We have played it: show the cards"}


def _buttons() -> set[str]:
    """The words of every button the templates write as one translated string."""
    found: set[str] = set()
    for template in (po_path("ca").parents[3] / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        found |= set(re.findall(r'<button[^>]*>\s*\{% translate "([^"]+)" %\}\s*</button>', text))
    return found - NOT_ORDERS


def test_buttons_speak_as_each_glossary_says():
    """The catalogues' headers: Catalan buttons in the imperative (tu), «Desa»; Spanish ones in
    the infinitive, «Guardar». One page said «Engegar el rellotge» beside «Desa», another
    «Quita el rol» beside «Terminar el torneo»."""
    buttons = _buttons()
    assert len(buttons) > 40
    ca, es = dict(_pairs("ca")), dict(_pairs("es"))
    infinitive = re.compile(r"(ar|er|ir)(la|las|lo|los|se)?$")

    def verb(text: str) -> str:
        return text.split()[0].lower().rstrip("…:.")

    assert [b for b in buttons if infinitive.search(verb(ca[b]))] == []
    assert [b for b in buttons if not infinitive.search(verb(es[b]))] == []
