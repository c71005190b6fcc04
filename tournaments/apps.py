from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournaments import checks, converters  # noqa: F401 - checks: registers the deploy checks


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        converters.register()  # before any URL pattern is read
