"""Django REST Framework's validation messages that its own Catalan or Spanish catalogue does
not translate, listed so that ``makemessages`` puts them in the project's catalogues (which
Django reads before an installed app's): an API error is a sentence in the reader's language
too. Never called; only extracted."""

from django.utils.translation import gettext_noop

MESSAGES = (
    gettext_noop("A valid biginteger is required."),
    gettext_noop("Datetime value out of range."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("Integer value too large to convert to float"),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Invalid input."),
    gettext_noop("Invalid page."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Value must be valid JSON."),
    gettext_noop("The number of days must be between {min_days} and {max_days}."),
)
