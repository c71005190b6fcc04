"""Every model has a factory (tests/factories.py), and each builds a saved, valid object."""

import inspect

import factory
import pytest
from django.apps import apps

from tests import factories

FACTORIES = {
    f._meta.model: f
    for _name, f in inspect.getmembers(factories, inspect.isclass)
    if issubclass(f, factory.django.DjangoModelFactory) and f._meta.model is not None
}


def test_every_model_of_the_apps_has_a_factory():
    models = set(apps.get_app_config("tournaments").get_models())
    assert models <= set(FACTORIES), sorted(m.__name__ for m in models - set(FACTORIES))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", sorted(FACTORIES, key=lambda m: m.__name__), ids=lambda m: m.__name__
)
def test_each_factory_builds_a_valid_object(model):
    obj = FACTORIES[model]()
    assert obj.pk is not None
    obj.full_clean(validate_unique=False, validate_constraints=True)


@pytest.mark.django_db
def test_the_play_record_factory_holds_a_real_verdict():
    record = factories.PlayRecordFactory()
    assert record.outcome == "complete"
    assert sum(record.verdict["totals"].values()) == 72
