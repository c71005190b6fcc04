"""Forms of the referee's desk: one per kind of ruling, each turning its fields into the ``data``
that ``disputes.dispute_rule`` takes. The forms check only shapes; the service decides."""

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import play
from tournaments.actors import label_for_display
from tournaments.forms_results import call_choices, read_totals
from tournaments.jsonio import JSONRejected, read_json
from tournaments.labels import side_name_lazy, trump_form_choices
from tournaments.models import Board, BoardResult, Dispute, PlayRecord, Ruling, Submission
from tournaments.services import ServiceError
from tournaments.services.disputes import adjusted_score_problem

PAIRS = [("NS", side_name_lazy("NS")), ("EW", side_name_lazy("EW"))]
CALLS = ("contro", "recontro", "sant_vicenc")


class RulingForm(forms.Form):
    """What every ruling needs: the kind (a hidden field) and a written explanation."""

    kind: str = ""
    explanation = forms.CharField(
        label=_("Explanation for the players"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=_("Required. The players read this on their table page."),
    )

    def ruling_data(self) -> dict[str, Any]:
        """The ``data`` argument of ``dispute_rule`` (call after ``is_valid``)."""
        raise NotImplementedError


class AcceptForm(RulingForm):
    kind = Ruling.Kind.ACCEPT
    submission = forms.ModelChoiceField(
        label=_("Submission to accept"),
        queryset=Submission.objects.none(),
        widget=forms.RadioSelect,
        empty_label=None,
    )

    def __init__(
        self, *args: Any, result: BoardResult, labels: dict[int, str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["submission"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = result.submissions.all()
        self.name_choices(labels)

    def name_choices(self, labels: dict[int, str]) -> None:
        """Name each submission as the desk shows it (a refused ruling's form too)."""
        field = self.fields["submission"]
        assert isinstance(field, forms.ModelChoiceField)
        field.label_from_instance = lambda s: labels.get(s.pk, str(s.pk))

    def ruling_data(self) -> dict[str, Any]:
        return {"submission": self.cleaned_data["submission"].pk}


class PenaltyForm(RulingForm):
    kind = Ruling.Kind.PENALTY
    offending_pair = forms.ChoiceField(
        label=_("Pair that played the illegal card"), choices=PAIRS, widget=forms.RadioSelect
    )

    def ruling_data(self) -> dict[str, Any]:
        return {"offending_pair": self.cleaned_data["offending_pair"]}


def _call_field(label: Any) -> forms.ChoiceField:
    # The seats are set per board in __init__ (call_choices): only those who may make the call.
    return forms.ChoiceField(
        label=label, required=False, choices=[("", _("no call"))], widget=forms.RadioSelect
    )


def _total_field(label: Any, side: str) -> forms.CharField:
    # Text as typed (kept on a refusal), read by forms_results.read_totals like the players'
    # form: one total may stay empty (72 minus the other).
    return forms.CharField(
        label=label,
        required=False,
        max_length=12,
        widget=forms.NumberInput(
            attrs={"min": 0, "max": 72, "inputmode": "numeric", "data-total": side}
        ),
    )


class CorrectedShortForm(RulingForm):
    """The corrected short result: the players' form in the referee's hands (the same seats for
    each call, the same hand totals with 72 − x, the same live score: ``forms_results``)."""

    kind = Ruling.Kind.CORRECTED
    trump = forms.ChoiceField(
        label=_("Trump"), choices=trump_form_choices, widget=forms.RadioSelect
    )
    delegated = forms.BooleanField(label=_("Delegated to the dealer's partner"), required=False)
    contro = _call_field(_("Contro by"))
    recontro = _call_field(_("Recontro by"))
    sant_vicenc = _call_field(_("Sant Vicenç by"))
    totals_ns = _total_field(_("NS hand total"), "NS")
    totals_ew = _total_field(_("EW hand total"), "EW")

    def __init__(self, *args: Any, board: Board, preview: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for call, seats in call_choices(board).items():
            field = self.fields[call]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", _("no call")), *seats]
        if preview:
            # The live score is only a look: it needs no explanation.
            self.fields["explanation"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        totals, errors = read_totals(data.get("totals_ns") or "", data.get("totals_ew") or "")
        for name, messages_ in errors.items():
            for message in messages_:
                self.add_error(name if name in self.fields else "totals_ew", message)
        data["totals"] = totals
        made = [call for call in CALLS if data.get(call)]
        if made and made != list(CALLS[: len(made)]):
            self.add_error("contro", _("A recontro needs a contro, and Sant Vicenç a recontro."))
        return data

    def ruling_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "trump": data["trump"],
            "delegated": bool(data["delegated"]),
            "doubles": [{"seat": data[call], "call": call} for call in CALLS if data.get(call)],
            "totals": data["totals"],
        }

    def call_fields(self) -> list[str]:
        return [call for call in CALLS if self.cleaned_data.get(call)]


class PlayRecordField(forms.CharField):
    """A play record pasted as JSON text; cleans to the parsed object."""

    widget = forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"})

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            return None
        try:
            record = read_json(text)
        except JSONRejected as exc:
            raise forms.ValidationError(exc.message, code="json") from None
        if not isinstance(record, dict):
            raise forms.ValidationError(_("A play record is a JSON object {…}."), code="json")
        return record

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, dict):
            return json.dumps(value, ensure_ascii=False, indent=1)
        return value


class CorrectedRecordForm(RulingForm):
    """A play record the referee pastes or edits: replayed first (preview), then ruled with."""

    kind = Ruling.Kind.CORRECTED
    play_record = PlayRecordField(label=_("Play record (JSON)"), max_length=20000)

    def __init__(self, *args: Any, preview: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if preview:
            # Replaying is only a look: it stores nothing and needs no explanation.
            self.fields["explanation"].required = False

    def ruling_data(self) -> dict[str, Any]:
        return {"play_record": self.cleaned_data["play_record"]}


class AdjustedForm(RulingForm):
    kind = Ruling.Kind.ADJUSTED
    adjusted_ns = forms.ChoiceField(
        label=side_name_lazy("NS"),
        choices=BoardResult.Adjusted.choices,
        initial=BoardResult.Adjusted.AVG,
    )
    adjusted_ew = forms.ChoiceField(
        label=side_name_lazy("EW"),
        choices=BoardResult.Adjusted.choices,
        initial=BoardResult.Adjusted.AVG,
    )
    score_ns = forms.IntegerField(
        label=_("Match score counted for NS"), min_value=0, max_value=10000, initial=0
    )
    score_ew = forms.IntegerField(
        label=_("Match score counted for EW"), min_value=0, max_value=10000, initial=0
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        ns, ew = data.get("score_ns"), data.get("score_ew")
        if ns is not None and ew is not None:
            problem = adjusted_score_problem(ns, ew)
            if problem:
                self.add_error("score_ns", problem)
        return data

    def ruling_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "adjusted_ns": data["adjusted_ns"],
            "adjusted_ew": data["adjusted_ew"],
            "score": {"NS": data["score_ns"], "EW": data["score_ew"]},
        }


FORMS: dict[str, type[RulingForm]] = {
    "accept": AcceptForm,
    "penalty": PenaltyForm,
    "corrected_short": CorrectedShortForm,
    "corrected_record": CorrectedRecordForm,
    "adjusted": AdjustedForm,
}


def ruling_forms(
    dispute: Dispute,
    result: BoardResult,
    views: list[Any],
    record: PlayRecord | None,
    posted: RulingForm | None,
    posted_key: str | None,
) -> dict[str, RulingForm]:
    labels = {
        v.submission.pk: f"{v.title} · {label_for_display(v.who)} · {v.source} · {v.totals} · {v.score}"
        for v in views
        if v.submission is not None
    }
    offender = result.offending_pair
    if record is not None and record.outcome == "illegal":
        offender = play.pair_of(record.verdict["seat"])
    doubles = {d.get("call"): d.get("seat") for d in (result.doubles or []) if isinstance(d, dict)}
    initial: dict[str, dict[str, Any]] = {
        "accept": {},
        "penalty": {"offending_pair": offender or None},
        "corrected_short": {
            "trump": result.trump,
            "delegated": result.delegated,
            "totals_ns": result.totals_ns,
            "totals_ew": result.totals_ew,
            **doubles,
        },
        # The record as the table sent it (referees.md §3), to edit and replay.
        "corrected_record": {"play_record": record.as_received() if record is not None else ""},
        "adjusted": {},
    }
    forms: dict[str, RulingForm] = {}
    for key, cls in FORMS.items():
        if posted is not None and key == posted_key:
            if isinstance(posted, AcceptForm):
                posted.name_choices(labels)
            forms[key] = posted
            continue
        kwargs: dict[str, Any] = {"prefix": key, "initial": initial[key]}
        if key == "accept":
            kwargs |= {"result": result, "labels": labels}
        if key == "corrected_short":
            kwargs["board"] = result.board
        forms[key] = cls(**kwargs)
    return forms


def add_service_error(form: RulingForm, exc: ServiceError) -> None:
    problems = getattr(exc, "problems", None)
    aliases = {
        "score": "score_ns",
        "totals": "totals_ns",
        "doubles": "contro",
        "offending_pair": "offending_pair",
    }
    if isinstance(form, CorrectedRecordForm) and exc.field != "explanation":
        messages_ = [f"{p.path}: {p.message}" for p in problems] if problems else [exc.message]
        for text in messages_:
            form.add_error("play_record", text)
        return
    name = exc.field or ""
    name = {"totals.NS": "totals_ns", "totals.EW": "totals_ew"}.get(name, name)
    name = aliases.get(name.split(".")[0].split("[")[0], name)
    if problems:
        for p in problems:
            field = {"totals.NS": "totals_ns", "totals.EW": "totals_ew"}.get(p.path, name)
            form.add_error(field if field in form.fields else None, p.message)
        return
    form.add_error(name if name in form.fields else None, exc.message)
