from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

from tournaments import checks, converters  # noqa: F401 - checks: registers the deploy checks
from tournaments.prepared import plan_once_a_session


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        converters.register()  # before any URL pattern is read
        connection_created.connect(plan_once_a_session, dispatch_uid="plan_once_a_session")
