"""The words a Catalan or Spanish reader meets: seat letters and sides (N E S O, NS EO), the
elision of Catalan ("d'EO", "d'abril"), dates and times, the traveller chart, the API's refusals
and the message for a paste that is not a play record (docs/players.md, the .po glossaries)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

import engine
from engine import ProblemCode
from tests.tournaments.public_event import build_played_event
from tournaments import charts, labels
from tournaments.labels import problem_text
from tournaments.models import BoardResult, Table
from tournaments.table_pages import status_label

pytestmark = pytest.mark.usefixtures("site_in_catalan")


@pytest.mark.parametrize(
    ("lang", "letters", "sides"),
    [
        ("ca", {"N": "N", "E": "E", "S": "S", "W": "O"}, {"NS": "NS", "EW": "EO"}),
        ("es", {"N": "N", "E": "E", "S": "S", "W": "O"}, {"NS": "NS", "EW": "EO"}),
        ("en", {"N": "N", "E": "E", "S": "S", "W": "W"}, {"NS": "NS", "EW": "EW"}),
    ],
)
def test_west_is_o_in_catalan_and_spanish(lang, letters, sides):
    with translation.override(lang):
        assert labels.seat_letters() == letters
        assert labels.side_labels() == sides
        assert labels.calls_text([{"seat": "W", "call": "contro"}]).endswith(f"({letters['W']})")
        assert labels.sides_text(12, 60) == f"NS 12 · {sides['EW']} 60"


def test_catalan_joins_a_side_or_a_seat_that_starts_with_a_vowel():
    with translation.override("ca"):
        problem = engine.Problem(
            ProblemCode.TOTAL_NOT_NUMBER, {"pair": "EW", "value": "82"}, "totals.EW"
        )
        assert problem_text(problem).startswith("El total d'EO ")
        missing = engine.Problem(ProblemCode.HAND_MISSING, {"seat": "W"}, "deal.hands.W")
        assert problem_text(missing) == "Falta la mà d'Oest (R3)."
        assert labels.seat_of("N") == "de Nord" and labels.side_of("NS") == "de NS"
    with translation.override("es"):
        assert problem_text(problem).startswith("El total de EO ")


def test_the_status_of_an_entered_board_says_who_it_waits_for():
    with translation.override("ca"):
        ns = BoardResult(status=BoardResult.Status.ENTERED, entered_side="NS")
        ew = BoardResult(status=BoardResult.Status.ENTERED, entered_side="EW")
        assert status_label(ns, "NS") == "Introduït per NS, pendent d'EO"
        assert status_label(ew, "EW") == "Introduït per EO, pendent de NS"
    with translation.override("es"):
        assert status_label(ns, "NS") == "Introducido por NS, pendiente de EO"


@pytest.mark.parametrize(
    ("lang", "day", "text"),
    [
        ("ca", datetime.date(2026, 11, 30), "30 de novembre de 2026"),
        ("ca", datetime.date(2026, 4, 1), "1 d'abril de 2026"),
        ("ca", datetime.date(2026, 8, 15), "15 d'agost de 2026"),
        ("es", datetime.date(2026, 11, 30), "30 de noviembre de 2026"),
    ],
)
def test_dates_read_as_people_write_them(lang, day, text):
    with translation.override(lang):
        assert formats.date_format(day, "DATE_FORMAT") == text


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ca", ("EO al davant", "NS al davant")), ("es", ("EO por delante", "NS por delante"))],
)
def test_the_traveller_chart_is_in_the_readers_language(lang, words):
    with translation.override(lang):
        svg = charts.traveller_chart(1, [charts.Bar(table=1, net_ns=12, trump="oros")])
    for word in words:
        assert word in svg
    assert "ahead" not in svg


@pytest.mark.django_db
def test_the_standings_say_when_they_were_computed_at_a_time(client, running_event, organiser):
    event = build_played_event(running_event, organiser)
    url = reverse("public:standings", args=[event.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ca").content.decode()
    assert "Calculada a les " in page and "Calculada el" not in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Calculada a las " in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ca", "No s'ha trobat: aquí no hi ha res amb aquest número"),
        ("es", "No encontrado: aquí no hay nada con este número"),
        ("en", "Not found: nothing here has this number"),
    ],
)
def test_an_api_404_answers_in_the_requests_language(lang, text):
    response = Client().get("/api/v1/events/987654", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 404
    body = response.json()
    assert body["detail"].startswith(text)
    assert "matches the given query" not in body["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ca", "Massa intents: torna-ho a provar d'aquí a "),
        ("es", "Demasiados intentos: vuelve a probar dentro de "),
    ],
)
def test_a_throttled_api_answer_is_all_in_one_language(organiser, lang, text):
    client = Client()
    for _ in range(10):
        client.post(
            "/api/v1/auth/token",
            {"username": organiser.username, "password": "x"},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=lang,
        )
    blocked = client.post(
        "/api/v1/auth/token",
        {"username": organiser.username, "password": "x"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert blocked.status_code == 429
    detail = blocked.json()["detail"]
    assert detail.startswith(text), detail
    assert "Expected" not in detail and "throttled" not in detail


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ca", "Això no és un registre de joc: copia tot el text"),
        ("es", "Esto no es un registro de juego: copia todo el texto"),
    ],
)
def test_a_paste_that_is_not_json_gets_a_sentence_without_parser_words(running_event, lang, text):
    table = Table.objects.get(round__event=running_event, round__number=1, number=1)
    client = Client()
    client.post(reverse("table:enter"), {"code": table.code_ns}, HTTP_ACCEPT_LANGUAGE=lang)
    url = reverse("table:board_play", args=[table.code_ns, 1])
    client.post(reverse("table:board_played", args=[table.code_ns, 1]), HTTP_ACCEPT_LANGUAGE=lang)
    response = client.post(url, {"record": "hello"}, HTTP_ACCEPT_LANGUAGE=lang)
    page = response.content.decode()
    assert response.status_code == 400
    assert text in page
    box = page[page.index('class="tp-problems') :]
    box = box[: box.index("</div>")]
    assert text in box
    for jargon in ("Expecting", "char 0", "JSON", "column", "valor"):
        assert jargon not in box, jargon


@pytest.mark.parametrize(
    ("count", "words"), [(1, "després d'1 carta sense"), (5, "després de 5 cartes sense")]
)
def test_a_count_picks_its_plural_form_in_each_language(count, words):
    """A number in a sentence: one card is not "1 cartes" (ngettext, not a fixed plural)."""
    problem = engine.Problem(engine.ProblemCode.PLAY_TOO_SHORT, {"count": count}, "play")
    with translation.override("ca"):
        assert words in labels.problem_text(problem)
    with translation.override("en"):
        assert f"after {count} card{'s' if count > 1 else ''} without" in labels.problem_text(
            problem
        )


@pytest.mark.parametrize(
    ("lang", "out_of_order", "wrong_pair", "no_call"),
    [
        (
            "en",
            "Sant Vicenç is only allowed after a recontro (R5).",
            "Contro is called by the opponents (EW) of the pair that chose, not by North (R5).",
            "no call",
        ),
        (
            "ca",
            "Sant Vicenç només es pot cantar després d'un recontro (R5).",
            "Contro el canten els contraris (EO) de la parella que ha triat, no Nord (R5).",
            "ningú",
        ),
        (
            "es",
            "San Vicente solo se permite después de un recontro (R5).",
            "Contro lo cantan los contrarios (EO) de la pareja que eligió, no Norte (R5).",
            "nadie",
        ),
    ],
)
def test_a_call_is_named_as_people_say_it(lang, out_of_order, wrong_pair, no_call):
    """Not the format's token (sant_vicenc), and the pair that may call is the one in brackets:
    North's pair chose, so a contro is the opponents', EW's (R5)."""
    early = engine.Problem(
        ProblemCode.CALL_OUT_OF_ORDER,
        {"call": "sant_vicenc", "before": "recontro"},
        "doubles[1].call",
    )
    by_chooser = engine.Problem(
        ProblemCode.CALL_WRONG_PAIR,
        {"call": "contro", "pair": "EW", "seat": "N"},
        "doubles[0].seat",
    )
    with translation.override(lang):
        assert problem_text(early) == out_of_order
        assert problem_text(by_chooser) == wrong_pair
        # The referee's "Recontro by" and "Sant Vicenç by" fields: nobody called it.
        assert translation.gettext("no call") == no_call


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ca", "aquest camp hi falta"),
        ("es", "falta este campo"),
        ("en", "this field is missing"),
    ],
)
def test_an_archive_the_schema_refuses_is_explained_in_one_language(organiser, lang, text):
    """jsonschema's own messages are English and quote the value: each kind gets a sentence of
    the reader's language, the field's path beside it (docs/api.md: messages in the site's
    language)."""
    from tournaments import archive

    client = Client()
    client.force_login(organiser)
    refused = client.post(
        "/api/v1/events/import",
        {"format": archive.FORMAT, "version": 1},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert refused.status_code == 400, refused.content
    body = refused.content.decode()
    assert text in body and "exported_at" in body
    assert "required property" not in body
    wrong_type = client.post(
        "/api/v1/events/import",
        {"format": archive.FORMAT, "version": "one"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert wrong_type.status_code == 400
    assert "is not of type" not in wrong_type.content.decode()


@pytest.mark.parametrize(("lang", "side"), [("ca", "EO"), ("es", "EO"), ("en", "EW")])
def test_a_penalty_ruling_names_the_side_in_the_readers_words(lang, side):
    """The rulings' list (the dispute page, the players' Rulings page) says "contra EO" where
    every other line of the page does: not the record's code "EW"."""
    from tournaments.models import Ruling
    from tournaments.referee_desk import ruling_summary

    penalty = Ruling(kind=Ruling.Kind.PENALTY, data={"offending_pair": "EW"})
    with translation.override(lang):
        assert ruling_summary(penalty).endswith(f" {side}")


@pytest.mark.django_db
def test_an_archives_unknown_field_is_named_by_its_path(running_event):
    from django.utils import timezone

    from tournaments import archive

    document = archive.event_archive(running_event, exported_at=timezone.now())
    assert archive.schema_problems(document) == []
    document["zzz"] = 1
    document["event"]["yyy"] = 2
    document["event"]["xxx"] = 3
    # A traveller's keys are board numbers (patternProperties): only the other one is named.
    document["standings"][0]["travellers"]["x"] = {"top": 1, "lines": []}
    with translation.override("es"):
        problems = dict(archive.schema_problems(document))
    assert set(problems) == {"zzz", "event.xxx", "event.yyy", "standings[0].travellers.x"}
    assert problems["zzz"] == "este campo no forma parte del formato del archivo."
