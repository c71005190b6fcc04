"""A Content-Security-Policy on every HTML page (config/csp.py), and pages that live with it:
no inline script, no event-handler attribute, no inline style in any template.

The browser side — every page of the journeys still works, no violation reported — is checked
by the browser tests: a blocked script or style is a console error, which fails every one of
them (tests/e2e/conftest.py), and ``test_admin_and_api_docs_run_under_the_policy`` below.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from config.csp import HEADER
from tournaments import charts

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
# Rendered by WeasyPrint into PDFs, never served to a browser (tournaments/pdf.py).
PDF_ONLY = {ROOT / "templates" / "print" / "base.html"}

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
HANDLER_ATTRIBUTE = re.compile(r"""<[a-z][^>]*\son[a-z]+\s*=""", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"""<[a-z][^>]*\sstyle\s*=""", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)


def directives(header: str) -> dict[str, str]:
    return {
        part.split()[0]: " ".join(part.split()[1:])
        for part in (p.strip() for p in header.split(";"))
        if part
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/", "/table/", "/accounts/login/", "/admin/login/", "/api/docs/", "/no-such-page/"],
)
def test_every_html_page_carries_the_policy(url):
    response = Client().get(url)
    assert response["Content-Type"].startswith("text/html")
    policy = directives(response[HEADER])
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in response[HEADER] and "unsafe-eval" not in response[HEADER]
    assert_nothing_inline(response.content.decode())


def assert_nothing_inline(html: str) -> None:
    for attributes in SCRIPT_TAG.findall(html):
        assert "src=" in attributes or 'type="application/json"' in attributes, attributes
    assert not HANDLER_ATTRIBUTE.search(html), HANDLER_ATTRIBUTE.search(html)
    assert not STYLE_ATTRIBUTE.search(html), STYLE_ATTRIBUTE.search(html)
    assert not STYLE_ELEMENT.search(html)


@pytest.mark.django_db
def test_the_public_pages_carry_the_policy(world):
    for url in (f"/e/{world.event.pk}/", f"/e/{world.event.pk}/standings/"):
        response = Client().get(url)
        assert response.status_code == 200, url
        assert "script-src 'self'" in response[HEADER]
        assert_nothing_inline(response.content.decode())


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_has_an_inline_script_or_style(path):
    text = path.read_text(encoding="utf-8")
    for attributes in SCRIPT_TAG.findall(text):
        # A JSON data block is never run by a browser, and a policy does not apply to it.
        assert "src=" in attributes or 'type="application/json"' in attributes, attributes
    assert not HANDLER_ATTRIBUTE.search(text), HANDLER_ATTRIBUTE.search(text)
    if path in PDF_ONLY:
        return
    assert not STYLE_ATTRIBUTE.search(text), STYLE_ATTRIBUTE.search(text)
    assert not STYLE_ELEMENT.search(text)


def test_the_charts_are_drawn_without_a_style():
    svg = charts.traveller_chart(3, [charts.Bar(table=1, net_ns=40, trump="oros", label="1 – 2")])
    svg += charts.rank_chart(name="Pair 1", history=[(1, 3), (2, 1)], pairs=4)
    assert "<svg" in svg
    assert not STYLE_ATTRIBUTE.search(svg) and not STYLE_ELEMENT.search(svg)
