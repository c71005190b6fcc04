"""Django REST Framework's and Django forms' messages that their own Catalan or Spanish catalogue
does not translate, or translates leaving English words in the sentence ("El Date té un format
incorrecte", "Token header invàlid") or in another register than the site's ("Introduzca",
"Asegúrese", "Introduïu": the site says tú and tu), listed so that ``makemessages`` puts them in
the project's catalogues (which Django reads before an installed app's and its own): an error is
a sentence in the reader's language and voice too. Never called; only extracted."""

from django.utils.translation import gettext_noop, ngettext_lazy

MESSAGES = (
    # The username's help on the invitation page: Django's Spanish spells "carácteres".
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
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
    # REST framework, in another register
    gettext_noop("A valid integer is required."),
    gettext_noop("Ensure that there are no more than {max_decimal_places} decimal places."),
    gettext_noop("Ensure that there are no more than {max_digits} digits in total."),
    gettext_noop(
        "Ensure that there are no more than {max_whole_digits} digits before the decimal point."
    ),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    # Django's forms (the HTML pages), in another register
    gettext_noop("Enter a valid value."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid time."),
    gettext_noop("Enter a valid date/time."),
    gettext_noop("Enter a valid duration."),
    gettext_noop("Enter a valid UUID."),
    gettext_noop("Enter a valid JSON."),
    gettext_noop("Enter a list of values."),
    gettext_noop("Enter a complete value."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    ngettext_lazy(
        "Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit in total.",
        "Ensure that there are no more than %(max)s digits in total.",
        "max",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s decimal place.",
        "Ensure that there are no more than %(max)s decimal places.",
        "max",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit before the decimal point.",
        "Ensure that there are no more than %(max)s digits before the decimal point.",
        "max",
    ),
    # Django's accounts: the login form, and the password an invited organiser or referee sets
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
)
