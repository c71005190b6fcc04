import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from config import celery_app

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Import every view, and all they import, while the worker starts rather than in the first
# request it serves: about a second of CPU that would otherwise fall on the first players to
# reach a fresh worker, at the start of a round when all the tables arrive at once.
get_resolver().url_patterns  # noqa: B018
celery_app.loader.import_default_modules()  # the tasks, which the first result would queue
# Everything loaded so far lives as long as the worker: out of the collector's sight, a full
# collection (which a request's allocations set off now and then) no longer walks the whole
# framework. About a tenth more requests a second at saturation (docs/operations.md).
gc.collect()
gc.freeze()
