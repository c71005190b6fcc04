"""One reader is spoken to as tu (Catalan) and tú (Spanish), as the catalogues' headers say;
only what a pair reads together (its sign-up page and e-mails) says vosaltres / vosotros. A
page that mixed the two (the table's scorecard said "El vostre full" beside "el teu resultat")
reads as two voices."""

import re

import polib
import pytest

from tests.catalogues import po_path

# What a pair reads together, addressed to both players.
TO_A_PAIR = (
    "templates/email/registration.txt",
    "templates/registrations/registration.html",
    "tournaments/forms_registrations.py",
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
