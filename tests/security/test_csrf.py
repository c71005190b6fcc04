"""CSRF: every page that takes a POST refuses one without the token, whoever sends it.

The routes come from the same walk as the permission matrix (every route with a POST in
``EXPECTED``, the admin's too), so a new form is covered by construction. Django's
``set_language`` is not exempt either (it changes the session's language). The API enforces CSRF
for session-authenticated callers (DRF's SessionAuthentication) and not for token callers.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from tests.security.routes import fill, walk
from tests.security.test_permission_matrix import rule_for, values_for

WEB_PRINCIPALS = ["anonymous", "organiser", "referee", "table"]


def _post(client, url, data=None, **extra):
    with transaction.atomic():
        response = client.post(url, data or {}, **extra)
        transaction.set_rollback(True)
    return response


def csrf_refused(response) -> bool:
    return response.status_code == 403 and b"CSRF" in response.content


def web_post_routes(scene):
    for route in walk():
        rule = rule_for(route)
        assert rule is not None, route.key
        if rule.area == "api" or rule.post is None:
            continue
        yield route.key, fill(route.pattern, values_for(route, rule, scene))


@pytest.mark.django_db
def test_every_form_refuses_a_post_without_the_token(scene):
    problems = []
    checked = 0
    for who in WEB_PRINCIPALS:
        client = scene.web(who, csrf=True)
        for key, url in web_post_routes(scene):
            response = _post(client, url)
            checked += 1
            if not csrf_refused(response):
                problems.append(f"{key} as {who}: {response.status_code}")
    print(f"csrf_checked_posts: {checked}")
    assert checked > 100
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["organiser", "table"])
def test_the_token_lets_the_same_posts_through(scene, who):
    """The control: with the token, no POST is refused for CSRF (a refusal is then the view's)."""
    client = scene.web(who, csrf=True)
    client.get("/table/")  # any page with a form sets the cookie
    token = client.cookies["csrftoken"].value
    for key, url in web_post_routes(scene):
        if key in ("logout", "admin:logout"):
            continue
        response = _post(client, url, {"csrfmiddlewaretoken": token})
        assert not csrf_refused(response), key


@pytest.mark.django_db
def test_the_api_enforces_csrf_for_session_callers(scene):
    world = scene.world
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(world.users["organiser"])
    body = world.short(board=2, table=world.other.pk)  # not entered yet
    refused = session.post("/api/v1/results", body, format="json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    # Reads need no token.
    assert session.get("/api/v1/results").status_code == 200
    # With the token (as the site's own pages would send it) the write goes through.
    session.get("/accounts/login/")
    token = session.cookies["csrftoken"].value
    accepted = session.post("/api/v1/results", body, format="json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201, accepted.content


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["organiser", "other_table"])
def test_token_callers_need_no_csrf_token(scene, who):
    client = scene.world.client(who)
    client.handler.enforce_csrf_checks = True
    body = scene.world.short(board=2, table=scene.world.other.pk)
    response = client.post("/api/v1/results", body, format="json")
    assert response.status_code == 201, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("ca", "No s'ha pogut enviar aquest formulari"),
        ("es", "No se ha podido enviar este formulario"),
        ("en", "This form could not be sent"),
    ],
)
def test_a_refused_form_says_so_in_the_readers_language(language, title):
    """The refusal is the site's own page (its layout, the reader's language), not Django's
    English-titled bare page: a phone whose page was open too long meets it."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post("/table/", {"code": "ABCDEF"})
    html = response.content.decode()
    assert response.status_code == 403
    shown = html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert unescape(shown) == title
    assert f'<html lang="{language}">' in html
    assert "CSRF" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("referer", "back_to"),
    [
        ("http://testserver/table/", "http://testserver/table/"),
        ("https://evil.example/", "/"),
        ("", "/"),
    ],
)
def test_the_refusal_pages_language_switch_goes_back_to_a_page(referer, back_to):
    """The refused form's address may take only a POST: the switch goes back to the page the
    form came from (this site's), else home, never to a 405 or another site."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="ca")
    extra = {"HTTP_REFERER": referer} if referer else {}
    html = client.post("/table/", {"code": "ABCDEF"}, **extra).content.decode()
    assert f'name="next" type="hidden" value="{back_to}"' in html
