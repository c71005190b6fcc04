"""Big PDFs (many pairs or boards) are built by a Celery task, with progress the page polls.

The job's state lives in the cache (``pdf:job:<id>``); the file under MEDIA_ROOT/pdf/<event>/.
The job id is random and the download view checks again who asks, so a link passed on does not
open an organiser's PDF (with boards of an open round) to the public.
"""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from tournaments import pdf, redis_outage, site
from tournaments import public_selectors as sel
from tournaments.models import Event
from tournaments.tasks import BaseTask

log = logging.getLogger(__name__)
JOB_KEY = "pdf:job:{}"
JOB_TIMEOUT = 24 * 3600


def job_path(event_id: int, job_id: str) -> Path:
    return Path(settings.MEDIA_ROOT) / "pdf" / str(event_id) / f"{job_id}.pdf"


class JobsUnavailable(Exception):
    """The jobs' store (the cache) or the task queue does not answer: Redis is down."""


def job_get(job_id: str) -> dict[str, Any] | None:
    try:
        uuid.UUID(job_id)
    except ValueError:
        return None
    if not redis_outage.available():
        raise JobsUnavailable
    try:
        value = cache.get(JOB_KEY.format(job_id))
    except Exception as exc:  # the cache's own connection error, whatever its backend
        redis_outage.failed("PDF jobs")
        raise JobsUnavailable from exc
    return value if isinstance(value, dict) else None


def _job_set(job_id: str, **changes: Any) -> dict[str, Any]:
    job = job_get(job_id) or {}
    job.update(changes)
    try:
        cache.set(JOB_KEY.format(job_id), job, timeout=JOB_TIMEOUT)
    except Exception as exc:
        redis_outage.failed("PDF jobs")
        raise JobsUnavailable from exc
    return job


def job_create(
    *,
    event_id: int,
    kind: str,
    round_number: int | None,
    staff: bool,
    language: str,
    base: str,
    per_page: int = 1,
    codes: bool = False,
    filename: str,
    total: int,
) -> str:
    job_id = str(uuid.uuid4())
    _job_set(
        job_id,
        event=event_id,
        kind=kind,
        round=round_number,
        staff=staff,
        codes=codes,
        language=language,
        base=base,
        per_page=per_page,
        filename=filename,
        state="queued",
        done=0,
        total=total,
        error="",
    )
    try:
        build_pdf.delay_on_commit(job_id)
    except Exception as exc:  # the broker's connection error
        redis_outage.failed("PDF jobs")
        raise JobsUnavailable from exc
    return job_id


@shared_task(base=BaseTask, bind=True)  # type: ignore[untyped-decorator]
def build_pdf(self: Task, job_id: str) -> str:
    """Render the PDF a job describes; safe to run twice (the file is simply rewritten)."""

    job = job_get(job_id)
    if job is None:
        log.warning("PDF job %s expired before it ran", job_id)
        return ""
    try:
        with translation.override(job["language"]):
            event = Event.objects.select_related("club").get(pk=job["event"])
            ev = sel.event_view(event, staff=bool(job["staff"]), codes=bool(job.get("codes")))
            plan = pdf.pdf_plan(
                ev,
                job["kind"],
                job["round"],
                base=job.get("base") or site.site_url(),
                per_page=job.get("per_page", 1),
            )
            _job_set(job_id, state="running", done=0, total=len(plan.parts))

            def progress(done: int, total: int) -> None:
                _job_set(job_id, done=done, total=total)

            data = pdf.render_pdf(plan, progress=progress)
        path = job_path(event.pk, job_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".part")
        tmp.write_bytes(data)
        tmp.replace(path)
    except pdf.PdfRefused as exc:
        _job_set(job_id, state="failed", error=exc.message)
        return ""
    except Exception:  # noqa: BLE001 - a layout bug will not heal on retry: report it
        log.exception("PDF job %s failed", job_id)
        # The reader is told it failed, in their language (the page's own sentence); the
        # programmer's details are in the log, not on the page.
        _job_set(job_id, state="failed", error="")
        return ""
    _job_set(job_id, state="done", file=str(path))
    return str(path)
