"""Playwright driving Debian's Chromium against pytest-django's live server."""

import os
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop; Django must still allow its ORM in the test thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


class PageProblems:
    """Console errors and failed requests seen by a page: every browser test checks them."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("requestfailed", self._failed)
        page.on(
            "response",
            lambda res: res.status >= 500 and self.errors.append(f"{res.status}: {res.url}"),
        )

    def _failed(self, request):
        # A fetch still in flight when the page navigates away is cancelled by the browser
        # (net::ERR_ABORTED): normal, not a failure of the server or the page.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"failed: {request.url} ({request.failure})")

    def assert_clean(self):
        assert not self.errors, self.errors


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(name, phone=False)`` → (page, problems, shoot); ``shoot(step)`` saves a PNG."""
    contexts = []

    def make(name: str, *, phone: bool = False):
        options = {"base_url": live_server.url, "locale": "en-GB"}
        if phone:
            options |= {
                "viewport": {"width": 390, "height": 844},
                "is_mobile": True,
                "has_touch": True,
                "device_scale_factor": 2,
            }
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        problems = PageProblems(page)
        folder = SCREENSHOTS / name
        folder.mkdir(parents=True, exist_ok=True)
        counter = {"n": 0}

        def shoot(step: str):
            counter["n"] += 1
            page.screenshot(path=str(folder / f"{counter['n']:02d}-{step}.png"), full_page=True)

        return page, problems, shoot

    yield make
    for context in contexts:
        context.close()
