"""One reader is spoken to as tu (Catalan) and tú (Spanish), as the catalogues' headers say;
only what a pair reads together (its registration page and e-mails) says vosaltres / vosotros.
A page that mixed the two (the table's scorecard said "El vostre full" beside "el teu resultat";
the sign-up form, filled in by one player, said "retirar-vos" beside "inscriure't sol") reads
as two voices."""

import re

import polib
import pytest

from tests.catalogues import po_path

# What a pair reads together, addressed to both players.
TO_A_PAIR = (
    "templates/email/registration.txt",
    "templates/registrations/registration.html",
    "templates/print/_table_cards_pages.html",
    "tournaments/services/mailings.py",
    "tournaments/services/registrations.py",
)

# Second person plural (vosaltres, vosotros) or formal (usted) in each catalogue's words. In
# Catalan every word ending as a vosaltres form (trieu, doneu, jugàveu, inscriviu-ne) but the
# nouns and adjectives that end so too.
NOT_VERBS = {"meu", "teu", "seu", "peu", "preu", "correu", "breu", "deu", "neu", "creu", "greu"}
NOT_VERBS |= {"veu", "treu", "diu", "viu", "riu", "inscriu", "escriu", "asseu", "contradiu"}
NOT_VERBS |= {"arxiu", "objectiu", "motiu", "dispositiu", "efectiu", "actiu", "definitiu"}
CATALAN = re.compile(r"\b(vostr[ea]s?|us|vau|vosaltres)\b|\b(\w+(?:eu|iu|ïu))\b")
SPANISH = re.compile(
    r"\b(usted(?:es)?|vuestr[oa]s?|[Ee]lija|[Ii]ndique|[Pp]ulse|[Rr]ecalcule|Dé|[Cc]ópielo"
    r"|[Aa]segúrese|vosotros|jugasteis"
    r"|[Cc]ompruebe|[Ee]scriba|[Gg]uarde|[Ii]nicie|[Aa]bra|[Mm]arque|Su hoja|Sus resultados"
    r"|vea la|[Vv]uelva a (?:intentarlo|inscribirse|probar))\b"
    r"|(?:^|[.:;¿] )(?:Confirme|Introduzca|Seleccione|Escoja)\b"
)


def speaks_to_many_or_formally(lang: str, text: str) -> bool:
    if lang == "es":
        return SPANISH.search(text) is not None
    return any(m.group(1) or m.group(2).lower() not in NOT_VERBS for m in CATALAN.finditer(text))


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_one_reader_is_spoken_to_in_one_voice(lang):
    found = []
    for entry in polib.pofile(str(po_path(lang))):
        where = [path for path, _line in entry.occurrences]
        if not where or all(path in TO_A_PAIR for path in where):
            continue
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        if any(speaks_to_many_or_formally(lang, text) for text in texts):
            found.append((entry.msgid, texts[0] or texts[1]))
    assert not found, "\n".join(map(str, found))


# What a pair reads together says vosotros, never ustedes (a subject said "Confirmen su
# llegada" above a body that says "Confirmad vuestra llegada").
PAIR_FORMAL = re.compile(r"\b(usted(?:es)?|[Ss]u pareja|su llegada|[Cc]onfirmen|[Ii]ndiquen)\b")


def test_what_a_pair_reads_is_never_formal_in_spanish():
    found = [
        (entry.msgid, entry.msgstr)
        for entry in polib.pofile(str(po_path("es")))
        if any(path in TO_A_PAIR for path, _line in entry.occurrences)
        and PAIR_FORMAL.search(entry.msgstr)
    ]
    assert not found, found


@pytest.mark.parametrize(
    ("lang", "form", "api"),
    [
        ("ca", "Introdueix un nombre enter.", "Cal un nombre enter vàlid."),
        ("es", "Introduce un número entero.", "Hace falta un número entero válido."),
    ],
)
def test_the_frameworks_own_errors_speak_as_the_site_does(lang, form, api, site_in_catalan):
    """Django's and REST framework's catalogues say "Introduïu" and "Introduzca": the site's
    catalogue, read first, says them as the rest of its pages do."""
    from django import forms
    from django.utils import translation
    from rest_framework import serializers

    with translation.override(lang):
        with pytest.raises(forms.ValidationError) as page:
            forms.IntegerField().clean("x")
        with pytest.raises(serializers.ValidationError) as call:
            serializers.IntegerField().run_validation("x")
        assert [str(m) for m in page.value.messages] == [form]  # lazy: read in the language
        assert [str(m) for m in call.value.detail] == [api]


def _framework_texts(lang: str) -> list[tuple[str, str]]:
    """(English, what the site shows in ``lang``) of each message api/framework_messages.py
    lists: what gettext returns, whichever catalogue answers (the site's, Django's, DRF's)."""
    from django.utils import translation

    from api.framework_messages import MESSAGES

    out = []
    with translation.override(lang):
        for message in MESSAGES:
            if isinstance(message, str):
                out.append((message, translation.gettext(message)))
            else:  # a plural (ngettext_lazy keeps its forms in _kw): both forms
                forms = (message._kw["singular"], message._kw["plural"])
                for n, english in ((1, forms[0]), (2, forms[1])):
                    out.append((english, translation.ngettext(*forms, n)))
    return out


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_the_framework_messages_the_site_shows_are_its_own(lang, site_in_catalan):
    """Each is translated into ``lang`` itself (Django's Spanish lacked the password's length
    and fell back to the site's Catalan) and in the site's voice."""
    shown = _framework_texts(lang)
    untranslated = [english for english, text in shown if text == english]
    other_voice = [text for _english, text in shown if speaks_to_many_or_formally(lang, text)]
    other_language = [
        text for _english, text in shown if lang == "es" and re.search(r"\b(és|amb|aquest)\b", text)
    ]
    assert (untranslated, other_voice, other_language) == ([], [], [])


def _errors_of(call) -> list[str]:
    from django.core.exceptions import ValidationError

    try:
        call()
    except ValidationError as refused:
        return [str(m) for m in refused.messages]
    return []


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ca", "es"])
def test_the_password_login_and_number_errors_speak_the_pages_language(lang, site_in_catalan):
    """The errors an invited organiser's password, the login form and the event form's fee
    raise, as Django makes them: in ``lang``, in the site's voice, none left in English."""
    from django import forms
    from django.contrib.auth import password_validation
    from django.contrib.auth.forms import AuthenticationForm
    from django.utils import translation

    with translation.override(lang):
        shown = _errors_of(lambda: password_validation.validate_password("1234"))
        shown += _errors_of(
            lambda: forms.DecimalField(max_digits=6, decimal_places=2).clean("1234567.5")
        )
        login = AuthenticationForm(data={"username": "nobody", "password": "wrong-pass"})
        shown += [str(e) for e in login.non_field_errors()] if not login.is_valid() else []
        shown += [str(password_validation.password_validators_help_text_html())]
    assert len(shown) >= 5, shown
    english = [t for t in shown if re.search(r"\b(the|password|must|Ensure|Please)\b", t)]
    catalan_in_spanish = [t for t in shown if lang == "es" and re.search(r"\b(és|ha de)\b", t)]
    other_voice = [t for t in shown if speaks_to_many_or_formally(lang, t)]
    assert (english, catalan_in_spanish, other_voice) == ([], [], [])


def test_the_username_help_is_spelled_right_in_spanish():
    """Django's own Spanish says "carácteres" on the invitation page's username field."""
    from django.contrib.auth import get_user_model
    from django.utils import translation

    with translation.override("es"):
        help_text = str(get_user_model()._meta.get_field("username").help_text)
    assert "caracteres" in help_text and "carácteres" not in help_text
