"""Forms of the referee's desk: one per kind of ruling, each turning its fields into the ``data``
that ``disputes.dispute_rule`` takes. The forms check only shapes; the service decides."""

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import play
from tournaments.jsonio import JSONRejected, read_json
from tournaments.models import BoardResult, Dispute, PlayRecord, Ruling, Submission
from tournaments.services import ServiceError

SEATS = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]
PAIRS = [("NS", _("North–South")), ("EW", _("East–West"))]
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


class CorrectedShortForm(RulingForm):
    kind = Ruling.Kind.CORRECTED
    trump = forms.ChoiceField(label=_("Trump"), choices=BoardResult.Trump.choices)
    delegated = forms.BooleanField(label=_("Delegated to the dealer's partner"), required=False)
    contro = forms.ChoiceField(
        label=_("Contro by"), required=False, choices=[("", _("no call"))] + SEATS
    )
    recontro = forms.ChoiceField(
        label=_("Recontro by"), required=False, choices=[("", _("no call"))] + SEATS
    )
    sant_vicenc = forms.ChoiceField(
        label=_("Sant Vicenç by"), required=False, choices=[("", _("no call"))] + SEATS
    )
    totals_ns = forms.IntegerField(label=_("NS hand total"), min_value=0, max_value=72)
    totals_ew = forms.IntegerField(label=_("EW hand total"), min_value=0, max_value=72)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ns, ew = data.get("totals_ns"), data.get("totals_ew")
        if ns is not None and ew is not None and ns + ew != 72:
            self.add_error(
                "totals_ew", _("The two hand totals add up to 72 (now %(n)s).") % {"n": ns + ew}
            )
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
            "totals": {"NS": data["totals_ns"], "EW": data["totals_ew"]},
        }


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
        label=_("North–South"),
        choices=BoardResult.Adjusted.choices,
        initial=BoardResult.Adjusted.AVG,
    )
    adjusted_ew = forms.ChoiceField(
        label=_("East–West"), choices=BoardResult.Adjusted.choices, initial=BoardResult.Adjusted.AVG
    )
    score_ns = forms.IntegerField(
        label=_("Match score counted for NS"), min_value=0, max_value=10000, initial=0
    )
    score_ew = forms.IntegerField(
        label=_("Match score counted for EW"), min_value=0, max_value=10000, initial=0
    )

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
        v.submission.pk: f"{v.title} · {v.who} · {v.source} · {v.totals} · {v.score}"
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
        "corrected_record": {"play_record": record.record if record is not None else ""},
        "adjusted": {},
    }
    forms: dict[str, RulingForm] = {}
    for key, cls in FORMS.items():
        if posted is not None and key == posted_key:
            forms[key] = posted
            continue
        kwargs: dict[str, Any] = {"prefix": key, "initial": initial[key]}
        if key == "accept":
            kwargs |= {"result": result, "labels": labels}
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
    name = aliases.get(name.split(".")[0].split("[")[0], name)
    texts = [p.message for p in problems] if problems else [exc.message]
    for text in texts:
        form.add_error(name if name in form.fields else None, text)
