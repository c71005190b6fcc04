"""Dates and times as the site shows them: month names as Catalan dates need them, and a
stored time formatted in Python as the templates' ``time`` filter shows it.

Django writes a Catalan date as ``j E \\d\\e Y``, where ``E`` is the month's name in the
"alt. month" context, and its own catalogue gives bare names: "30 novembre de 2026". Catalan
says "30 de novembre de 2026" and "1 d'abril de 2026". Our catalogue (``LOCALE_PATHS``, read
before Django's) gives these forms; the messages are written here so that ``makemessages``
keeps them in locale/ca and locale/es (Spanish dates use ``F``: its translations are the bare
names and are not shown).
"""

import datetime

from django.utils import formats, timezone
from django.utils.translation import pgettext_lazy

ALT_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)


def local_time(moment: datetime.datetime) -> str:
    """``{{ moment|time:"TIME_FORMAT" }}``: in the site's time zone and the active language's
    format. (Django's ``time`` filter called from Python formats the stored UTC time as it is.)"""
    return formats.time_format(timezone.localtime(moment), "TIME_FORMAT")
