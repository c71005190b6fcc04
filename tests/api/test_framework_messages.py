"""DRF's own messages reach API users too: in Catalan they must be Catalan sentences, not DRF's
catalogue's "El Date té un format incorrecte" or "Token header invàlid"
(api/framework_messages.py lists them for the project's catalogues)."""

import json
import re

import pytest
from django.test import Client
from django.utils import translation
from rest_framework import exceptions, fields, relations
from rest_framework.authentication import TokenAuthentication

ENGLISH = re.compile(r"\b(Date|Datetime|Time|header|Request|Media type|PK|pk|encoding)\b")


def drf_messages() -> list[str]:
    with translation.override("en"):  # the message ids: DRF's lazy messages, read in English
        return _drf_messages()


def _drf_messages() -> list[str]:
    found = []
    for field in (
        fields.DateField,
        fields.DateTimeField,
        fields.TimeField,
        fields.DurationField,
        fields.EmailField,
        fields.URLField,
        relations.PrimaryKeyRelatedField,
    ):
        found += [str(m) for m in field.default_error_messages.values()]
    for error in (
        exceptions.ParseError,
        exceptions.UnsupportedMediaType,
        exceptions.NotAcceptable,
        exceptions.PermissionDenied,
        exceptions.NotAuthenticated,
    ):
        found.append(str(error.default_detail))
    found += [
        "Invalid token header. No credentials provided.",
        "Invalid token header. Token string should not contain spaces.",
        "Invalid token header. Token string should not contain invalid characters.",
    ]
    return found


@pytest.mark.parametrize("message", drf_messages())
def test_drf_messages_the_api_can_give_are_catalan_in_catalan(message):
    with translation.override("ca"):
        catalan = translation.gettext(message)
    assert catalan != message or not message[0].isalpha()
    assert not ENGLISH.search(catalan), catalan


@pytest.mark.django_db
def test_a_bad_token_header_and_a_bad_date_answer_in_catalan(running_event, organiser):
    assert TokenAuthentication.keyword == "Token"
    for header in ("Token", "Token a b"):
        answer = Client(HTTP_ACCEPT_LANGUAGE="ca", HTTP_AUTHORIZATION=header).get(
            f"/api/v1/events/{running_event.pk}"
        )
        assert answer.status_code == 401
        assert answer.json()["detail"].startswith("La capçalera del token no és vàlida")
    client = Client(HTTP_ACCEPT_LANGUAGE="ca")
    client.force_login(organiser)
    answer = client.post(
        "/api/v1/events",
        data=json.dumps({"name": "Nit de dijous", "date": "31/12/2026"}),
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "La data té un format incorrecte" in answer.content.decode("utf-8")


@pytest.mark.django_db
def test_a_body_of_null_is_refused_at_body_in_the_readers_language(running_event, organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="ca")
    client.force_login(organiser)
    for path in ("/api/v1/events", "/api/v1/verify"):
        answer = client.post(path, data="null", content_type="application/json")
        assert answer.status_code == 400, (path, answer.content)
        assert answer.json()["errors"] == [
            {"field": "body", "message": "El cos ha de ser un objecte JSON, no null."}
        ]
