"""``manage.py check --deploy``: what the settings cannot refuse at start-up but a deployment
should not miss (docs/deploy.md)."""

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def site_url_is_set(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """The e-mails are sent in the background, with no request to take the site's address
    from: without SITE_URL their links (and the check-in QR code) say http://127.0.0.1:8000."""
    if settings.SITE_URL:
        return []
    return [
        Warning(
            "SITE_URL is not set: the e-mails (sign-ups, check-in) link to http://127.0.0.1:8000.",
            hint="Set SITE_URL to the site's public address, e.g. https://botifarra.example "
            "(docs/deploy.md).",
            id="botifarra.W001",
        )
    ]
