"""The page marks a field that may be left empty ("(optional)", templates/tournaments/_field.html):
a label that says so itself would read "(optional) (optional)"."""

import importlib
import pkgutil

import pytest
from django import forms
from django.utils import translation

import tournaments
from tournaments.forms_changes import ReasonForm


def project_forms() -> list[type[forms.BaseForm]]:
    for module in pkgutil.iter_modules(tournaments.__path__):
        if module.name.startswith("forms"):
            importlib.import_module(f"tournaments.{module.name}")
    found, todo = [], [forms.Form, forms.ModelForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("tournaments."):
                found.append(sub)
    return found


def test_the_project_has_forms_to_check():
    assert len(project_forms()) > 20


@pytest.mark.parametrize("form", project_forms(), ids=lambda f: f.__name__)
def test_no_declared_label_says_optional(form):
    with translation.override("en"):
        labels = [str(f.label) for f in form.base_fields.values() if f.label]
    assert not [label for label in labels if "optional" in label.lower()]


def test_the_optional_reason_says_optional_once():
    with translation.override("en"):
        field = ReasonForm(required=False).fields["reason"]
        assert not field.required
        assert "optional" not in str(field.label).lower()
