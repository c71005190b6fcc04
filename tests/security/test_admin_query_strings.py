"""A hand-edited admin address is a bad request at worst, never a 500: a relation pre-filled on an
add form with something that is not an id (Django's autocomplete looked it up as one), and a
date drill-down with a number too large for a date (Django caught ValueError only)."""

import pytest
from django.contrib import admin
from django.test import Client

from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

ADMINS = [a for m, a in admin.site._registry.items() if m._meta.app_label == "tournaments"]


@pytest.fixture
def staff():
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=True)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def add_url(model_admin) -> str:
    meta = model_admin.model._meta
    return f"/admin/{meta.app_label}/{meta.model_name}/add/"


@pytest.mark.parametrize(
    "model_admin",
    [a for a in ADMINS if any(f.is_relation and f.concrete for f in a.model._meta.fields)],
    ids=lambda a: a.model.__name__,
)
@pytest.mark.parametrize("value", ["abc", "1e400", "%C2%B2", "%ED%A0%80", "9" * 30])
def test_an_add_form_prefilled_with_no_id_opens_without_it(staff, model_admin, value):
    relations = [f.name for f in model_admin.model._meta.fields if f.is_relation]
    answer = staff.get(add_url(model_admin) + "?" + "&".join(f"{r}={value}" for r in relations))
    assert answer.status_code in (200, 403), answer.status_code


def test_an_add_form_prefilled_with_an_id_keeps_it(staff):
    club = ClubFactory(name="Penya de Valls")
    page = staff.get(f"/admin/tournaments/player/add/?club={club.pk}").content.decode()
    assert f'<option value="{club.pk}" selected>Penya de Valls</option>' in page


@pytest.mark.parametrize(
    "model_admin", [a for a in ADMINS if a.date_hierarchy], ids=lambda a: a.model.__name__
)
@pytest.mark.parametrize(
    "query",
    ["{d}__year=2147483648", "{d}__year=2026&{d}__month=99999999999999999999", "{d}__day=x"],
)
def test_a_date_drill_down_out_of_range_is_a_bad_lookup(staff, model_admin, query):
    meta = model_admin.model._meta
    url = f"/admin/{meta.app_label}/{meta.model_name}/"
    answer = staff.get(url + "?" + query.format(d=model_admin.date_hierarchy))
    assert answer.status_code == 302 and answer["Location"] == f"{url}?e=1"
    assert staff.get(url + f"?{model_admin.date_hierarchy}__year=2026").status_code == 200
