"""What xgettext cannot see is never translated: a gettext call inside an f-string (Python < 3.12
reads the whole f-string as one literal), or an f-string, a concatenation or a variable handed to
gettext (the message is only known at run time). The traveller chart's "EW ahead" stayed English
this way. Every such call in the project is refused here, with where it is."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "config", "tournaments", "scoring", "engine")
GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "npgettext",
    "npgettext_lazy",
}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def hidden_messages(source: str, filename: str) -> list[str]:
    """Where ``source`` calls gettext in a way that xgettext does not extract."""
    found = []
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and _name(inner.func) in GETTEXT:
                    found.append(f"{filename}:{inner.lineno}: gettext inside an f-string")
        if isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
            # pgettext(context, message), ngettext(singular, plural, n): the texts come first
            name = _name(node.func) or ""
            count = 3 if name.startswith("np") else 2 if name.startswith(("n", "p")) else 1
            for arg in node.args[:count]:
                if not _literal(arg):
                    found.append(f"{filename}:{node.lineno}: {name}() of a text built at run time")
    return found


def test_the_check_sees_a_call_inside_an_f_string_and_an_f_string_passed_to_gettext():
    source = (
        "from django.utils.translation import gettext as _\n"
        "a = f'<text>{_(\"EW ahead\")}</text>'\n"
        "b = _(f'Table {n}')\n"
        "c = _('Table %(n)s') % {'n': 1}\n"
        "d = pgettext('seat letter', 'W')\n"
        "e = ngettext('%(n)s pair', '%(n)s pairs', 3)\n"
    )
    found = hidden_messages(source, "x.py")
    assert found == [
        "x.py:2: gettext inside an f-string",
        "x.py:3: _() of a text built at run time",
    ]


def test_no_message_is_hidden_from_xgettext():
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            rel = str(path.relative_to(ROOT))
            found += hidden_messages(path.read_text(encoding="utf-8"), rel)
    assert found == []
