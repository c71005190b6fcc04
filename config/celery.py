import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("botifarra")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(related_name="tasks_pdf")  # big PDFs (tournaments/tasks_pdf.py)
app.autodiscover_tasks(related_name="tasks_analysis")  # perfect-play analysis (own queue)
