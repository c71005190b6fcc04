"""The site in Catalan (the compiled catalogues are a fixture of tests/conftest.py)."""

import pytest


@pytest.fixture
def site_in_catalan(settings, compiled_locale):
    """The site as deployed: Catalan by default (tests/conftest.py pins English elsewhere)."""
    settings.LOCALE_PATHS = [compiled_locale]
    settings.LANGUAGE_CODE = "ca"
