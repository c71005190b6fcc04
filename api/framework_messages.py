"""Django REST Framework's messages that its own Catalan or Spanish catalogue does not translate,
or translates leaving English words in the sentence ("El Date té un format incorrecte", "Token
header invàlid") or in another register than the site's, listed so that ``makemessages`` puts
them in the project's catalogues (which Django reads before an installed app's): an API error is
a sentence in the reader's language too. Never called; only extracted."""

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
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Duration has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a date but got a datetime."),
    gettext_noop("Expected a datetime but got a date."),
    gettext_noop("Invalid token header. No credentials provided."),
    gettext_noop("Invalid token header. Token string should not contain spaces."),
    gettext_noop("Invalid token header. Token string should not contain invalid characters."),
    gettext_noop("Incorrect type. Expected pk value, received {data_type}."),
    gettext_noop('Invalid pk "{pk_value}" - object does not exist.'),
    gettext_noop("Malformed request."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid email address."),
)
