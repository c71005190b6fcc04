"""Downloads: PDFs (streamed, or built by a task for a big event) and CSV / JSON exports."""

from __future__ import annotations

import json
from typing import Any

from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import exports, pdf, policy, site, tasks_pdf, team_exports, team_selectors
from tournaments import public_selectors as sel
from tournaments.actors import Actor
from tournaments.tournament_export import tournament_file_text
from tournaments.views.public import public_event, refused


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _jobs_unavailable() -> str:
    return _(
        "Large PDFs cannot be built just now (the task queue is not answering): try again in a "
        "few minutes, or print from the page."
    )


@require_http_methods(["GET", "POST"])
def pdf_file(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    ev = public_event(request, pk)
    try:
        return _pdf_file(request, ev, kind)
    except tasks_pdf.JobsUnavailable:
        return refused(request, ev, _jobs_unavailable(), 503)


def _pdf_file(request: HttpRequest, ev: sel.EventView, kind: str) -> HttpResponse:
    job_id = request.GET.get("job")
    if job_id:
        return _job_page(request, ev, kind, job_id)
    try:
        number = pdf.parse_round(request.GET.get("round"))
        per_page = pdf.parse_per_page(request.GET.get("per_page"))
        base = site.site_url(request)
        plan = pdf.pdf_plan(ev, kind, number, base=base, per_page=per_page)
    except pdf.PdfRefused as exc:
        return refused(request, ev, exc.message, exc.status)
    if not plan.large:
        return _download(pdf.render_pdf(plan), "application/pdf", plan.filename)
    if request.method == "POST":
        job_id = tasks_pdf.job_create(
            event_id=ev.event.pk,
            kind=kind,
            round_number=number,
            staff=ev.staff,
            codes=ev.codes,
            language=get_language(),
            base=base,
            per_page=per_page,
            filename=plan.filename,
            total=len(plan.parts),
        )
        url = reverse("public:pdf", args=[ev.event.pk, kind])
        return redirect(f"{url}?job={job_id}")
    return render(
        request,
        "public/pdf_job.html",
        {"event": ev.event, "ev": ev, "plan": plan, "kind": kind, "job": None},
    )


def _job_for(ev: sel.EventView, job_id: str) -> dict[str, Any] | None:
    job = tasks_pdf.job_get(job_id)
    if job is None or job.get("event") != ev.event.pk:
        return None
    if (job.get("staff") and not ev.staff) or (job.get("codes") and not ev.codes):
        return None
    return job


def _job_page(request: HttpRequest, ev: sel.EventView, kind: str, job_id: str) -> HttpResponse:
    job = _job_for(ev, job_id)
    if job is None:
        return refused(request, ev, _("This PDF is no longer available: ask for it again."), 404)
    return render(
        request,
        "public/pdf_job.html",
        {
            "event": ev.event,
            "ev": ev,
            "kind": kind,
            "job": job,
            "job_id": job_id,
            "status_url": reverse("public:pdf_status", args=[ev.event.pk, job_id]),
            "download_url": reverse("public:pdf_download", args=[ev.event.pk, job_id]),
        },
    )


def pdf_status(request: HttpRequest, pk: int, job: object) -> JsonResponse:
    ev = public_event(request, pk)
    job = str(job)
    try:
        found = _job_for(ev, job)
    except tasks_pdf.JobsUnavailable:
        return JsonResponse({"state": "unavailable", "error": _jobs_unavailable()}, status=503)
    if found is None:
        return JsonResponse(
            {"state": "missing", "error": _("This PDF is no longer available: ask for it again.")},
            status=404,
        )
    done = found.get("state") == "done" and tasks_pdf.job_path(ev.event.pk, job).exists()
    return JsonResponse(
        {
            "state": found.get("state") if found.get("state") != "done" or done else "failed",
            "done": found.get("done", 0),
            "total": found.get("total", 0),
            "error": found.get("error", ""),
            "download": reverse("public:pdf_download", args=[ev.event.pk, job]) if done else None,
        }
    )


def pdf_download(request: HttpRequest, pk: int, job: object) -> HttpResponse | FileResponse:
    ev = public_event(request, pk)
    job = str(job)
    try:
        found = _job_for(ev, job)
    except tasks_pdf.JobsUnavailable:
        return refused(request, ev, _jobs_unavailable(), 503)
    path = tasks_pdf.job_path(ev.event.pk, job)
    if found is None or found.get("state") != "done" or not path.exists():
        return refused(request, ev, _("This PDF is not ready."), 404)
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=found.get("filename") or path.name,
        content_type="application/pdf",
    )


def _export_table(request: HttpRequest, ev: sel.EventView, kind: str) -> exports.Table:
    """The rows of one export; raises PdfRefused (a clear 400/404) for a bad kind or round."""
    if kind == "standings":
        number = pdf.parse_round(request.GET.get("round"))
        view = sel.standings(ev, after_round=number)
        if number is not None and view.after_round != number:
            raise pdf.PdfRefused(_("There are no standings after round %(n)s yet.") % {"n": number})
        return exports.standings_table(ev, view)
    if kind in ("teams", "butler"):
        if not ev.event.is_team_event:
            raise pdf.PdfRefused(_("This is not a team event."))
        number = pdf.parse_round(request.GET.get("round"))
        view = team_selectors.team_standings(ev, after_round=number)
        if number is not None and view.after_round != number:
            raise pdf.PdfRefused(_("There are no standings after round %(n)s yet.") % {"n": number})
        if kind == "teams":
            return team_exports.team_standings_table(view)
        return team_exports.butler_table(view)
    if kind == "results":
        return exports.results_table(ev)
    if kind == "travellers":
        return exports.travellers_table(ev)
    raise pdf.PdfRefused(_("Unknown export: %(kind)s.") % {"kind": kind})


def export_csv(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The CSV for programs (docs/exports.md): its format never follows the reader's language."""
    ev = public_event(request, pk)
    try:
        table = _export_table(request, ev, kind)
    except pdf.PdfRefused as exc:
        return refused(request, ev, exc.message, exc.status)
    return _download(
        exports.program_csv(table), "text/csv; charset=utf-8", f"event-{ev.event.pk}-{kind}.csv"
    )


def export_sheet_csv(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The same rows as CSV that a spreadsheet opens right in the reader's language."""
    ev = public_event(request, pk)
    try:
        table = _export_table(request, ev, kind)
    except pdf.PdfRefused as exc:
        return refused(request, ev, exc.message, exc.status)
    language = get_language() or "en"
    return _download(
        exports.spreadsheet_csv(table, language),
        "text/csv; charset=utf-8",
        f"event-{ev.event.pk}-{kind}-{language}.csv",
    )


def export_xlsx(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    ev = public_event(request, pk)
    try:
        table = _export_table(request, ev, kind)
    except pdf.PdfRefused as exc:
        return refused(request, ev, exc.message, exc.status)
    titles = {
        "standings": _("Standings"),
        "results": _("Results"),
        "travellers": _("Travellers"),
        "teams": _("Team standings"),
        "butler": _("Butler ranking"),
    }
    return _download(
        exports.xlsx(table, title=str(titles[kind])),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        f"event-{ev.event.pk}-{kind}.xlsx",
    )


def export_records(request: HttpRequest, pk: int) -> HttpResponse:
    ev = public_event(request, pk)
    body = json.dumps(exports.records_json(ev), ensure_ascii=False, indent=1)
    return _download(body, "application/json; charset=utf-8", f"event-{ev.event.pk}-records.json")


@require_GET
def export_tournament_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The event as a tournament file (docs/formats.md): it holds the seed, so anyone may
    download it once the event is finished, and nobody before (organisers included)."""
    ev = public_event(request, pk)
    if ev.event.is_team_event:
        return refused(
            request,
            ev,
            _(
                "A team event has no tournament file: the format pairs on match points, a team "
                "event on victory points."
            ),
            404,
        )
    if not policy.can_download_tournament_file(Actor(user=request.user), ev.event):
        return refused(
            request,
            ev,
            _("The tournament file holds the seed: it is published when the event is finished."),
            403,
        )
    return _download(
        tournament_file_text(ev.event),
        "text/plain; charset=utf-8",
        f"event-{ev.event.pk}.btf",
    )
