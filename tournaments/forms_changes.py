"""Forms of the undo and late-change pages (tournaments.services.changes decides)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.labels import side_label
from tournaments.models import Entry, Player, Substitution
from tournaments.services.names import max_length

REASON_MAX = 500


class ReasonForm(forms.Form):
    """A change that needs a reason on the audit trail."""

    reason = forms.CharField(
        label=_("Why?"),
        max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: object, required: bool = True, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["reason"].required = required
        if not required:
            self.fields["reason"].label = _("Note for the audit trail")


class SubstituteForm(forms.Form):
    seat = forms.TypedChoiceField(label=_("Player replaced"), coerce=int)
    name = forms.CharField(label=_("New player"), max_length=max_length(Player))
    reason = forms.CharField(
        label=_("Why?"),
        required=False,
        max_length=max_length(Substitution, "reason"),
    )

    def __init__(self, *args: object, entry: Entry, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["seat"].choices = [
            (1, entry.pair.player1.name),
            (2, entry.pair.player2.name),
        ]


class PairingForm(forms.Form):
    """Every table of a proposed round as NS and EW pair numbers, and the bye. ``confirm``
    carries the pairing whose warnings were shown: a changed pairing is checked again."""

    confirm = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: object, entries: list[Entry], tables: int, has_bye: bool, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        choices = [("", "—")] + [(e.number, f"{e.number}. {e.pair.name}") for e in entries]
        self.table_count = tables
        for i in range(1, tables + 1):
            for side, label in (("ns", side_label("NS")), ("ew", side_label("EW"))):
                self.fields[f"t{i}_{side}"] = forms.TypedChoiceField(
                    label=_("Table %(n)s · %(side)s") % {"n": i, "side": label},
                    choices=choices,
                    coerce=int,
                )
        if has_bye:
            self.fields["bye"] = forms.TypedChoiceField(
                label=_("Bye"), choices=choices, coerce=int, required=False, empty_value=None
            )

    def rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(i, self[f"t{i}_ns"], self[f"t{i}_ew"]) for i in range(1, self.table_count + 1)]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        seen: list[int] = [v for k, v in data.items() if k != "confirm" and v is not None]
        twice = sorted({n for n in seen if seen.count(n) > 1})
        if twice:
            raise forms.ValidationError(
                _("Each pair sits once: %(pairs)s appear twice.")
                % {"pairs": ", ".join(map(str, twice))}
            )
        return data

    def pairing(self) -> tuple[list[tuple[int, int]], int | None]:
        data = self.cleaned_data
        tables = [(data[f"t{i}_ns"], data[f"t{i}_ew"]) for i in range(1, self.table_count + 1)]
        return tables, data.get("bye")

    def key(self) -> str:
        """The pairing as a short text, to confirm exactly what was warned about."""
        tables, bye = self.pairing()
        return " ".join(f"{ns}-{ew}" for ns, ew in tables) + f" bye {bye or '-'}"

    @property
    def confirmed(self) -> bool:
        return self.cleaned_data.get("confirm") == self.key()
