"""The suite's parallel processes each get a Redis database of their own."""

import os

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.conftest import process_redis_url


def test_each_process_takes_the_database_below_the_previous_ones():
    assert process_redis_url("redis://127.0.0.1:6379/15", "gw0") == "redis://127.0.0.1:6379/15"
    assert process_redis_url("redis://127.0.0.1:6379/15", "gw3") == "redis://127.0.0.1:6379/12"
    assert process_redis_url("redis://:secret@host:6380/2", "gw1") == "redis://:secret@host:6380/1"
    with pytest.raises(pytest.UsageError):
        process_redis_url("redis://127.0.0.1:6379/1", "gw2")


@pytest.mark.skipif(
    not (os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("REDIS_URL")),
    reason="only in a parallel process with Redis (make test in CI)",
)
def test_this_process_uses_its_own_database_everywhere():
    from config.celery import app

    own = settings.REDIS_URL
    assert os.environ["REDIS_URL"] == own == app.conf.broker_url
    assert settings.CACHES["default"]["LOCATION"] == own
    cache.set("process-check", os.environ["PYTEST_XDIST_WORKER"])
    client = cache._cache.get_client("process-check")
    assert client.connection_pool.connection_kwargs["db"] == int(own.rsplit("/", 1)[1])
