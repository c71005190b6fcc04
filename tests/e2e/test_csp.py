"""The pages that lean most on scripts still work under the Content-Security-Policy (no inline
script or style): the admin with its widgets, the API's Swagger page, the language menu. Every
other browser test covers its own pages: a blocked script or style is a console error there."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory

# Run before any script of the page: collects what the browser refused under the policy.
WATCH = (
    "window.__csp = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));"
)


def refused(page) -> list[str]:
    return page.evaluate("window.__csp")


@pytest.mark.django_db(transaction=True)
def test_admin_and_api_docs_run_under_the_policy(new_page, running_event):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    page, problems, shoot = new_page("csp")
    page.add_init_script(WATCH)

    page.goto("/admin/login/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", "pass-word-123")
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()
    assert refused(page) == []

    # The club form's two-list picker is built by the admin's scripts (events are read-only
    # in the admin: their pages have none).
    page.goto(f"/admin/tournaments/club/{running_event.club.pk}/change/")
    expect(page.locator("#id_organisers_from")).to_be_attached()
    expect(page.locator("#id_organisers_to")).to_be_attached()
    shoot("admin-club")
    assert refused(page) == []
    # The admin asks for /favicon.ico, a 404 of no concern here: only the policy is checked.
    assert not [e for e in problems.errors if "Content Security Policy" in e], problems.errors

    page, problems, shoot = new_page("csp-api-docs")
    page.add_init_script(WATCH)
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=20_000)
    shoot("api-docs")
    assert refused(page) == []
    problems.assert_clean()


@pytest.mark.django_db(transaction=True)
def test_the_language_menu_changes_the_page_only_with_its_button(new_page):
    """WCAG 3.2.2: choosing an option changes nothing by itself; the button switches."""
    page, problems, _shoot = new_page("csp-language")
    page.add_init_script(WATCH)
    page.goto("/")
    page.select_option("#lang-select", "es")
    page.wait_for_timeout(500)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.click("#lang-submit")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert refused(page) == []
    problems.assert_clean()


@pytest.mark.django_db(transaction=True)
def test_a_background_pdf_page_follows_its_job(
    new_page, running_event, organiser, settings, tmp_path
):
    """static/js/pdf_job.js: the page polls the job and offers the file once it is made."""
    from django.urls import reverse

    from tests.tournaments.public_event import build_played_event
    from tournaments import tasks_pdf

    settings.MEDIA_ROOT = tmp_path
    event = build_played_event(running_event, organiser)
    job = "0c5a3f0e-9d7b-4f57-9e55-2f0b8a1d3c11"
    tasks_pdf._job_set(
        job,
        event=event.pk,
        kind="scorecards",
        round=None,
        staff=False,
        language="en",
        filename="scorecards.pdf",
        state="running",
        done=1,
        total=3,
        error="",
    )
    page, problems, shoot = new_page("csp-pdf-job")
    page.add_init_script(WATCH)
    page.goto(reverse("public:pdf", args=[event.pk, "scorecards"]) + f"?job={job}")
    expect(page.locator("#pdf-state")).to_have_text("Making the PDF…")
    path = tasks_pdf.job_path(event.pk, job)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%PDF-1.4\n%%EOF\n")
    tasks_pdf._job_set(job, state="done", done=3, file=str(path))
    expect(page.locator("#pdf-state")).to_have_text("The PDF is ready.", timeout=10_000)
    expect(page.locator("#pdf-download")).to_be_visible()
    shoot("pdf-ready")
    assert refused(page) == []
    problems.assert_clean()
