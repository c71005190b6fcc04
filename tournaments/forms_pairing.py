"""Forms of the pairing page: the method and its options, seeding ratings, prohibited pairs."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Event
from tournaments.services.pairing_rules import MAX_RATING

METHOD_HELP = {
    Event.Format.SWISS: _(
        "Each round pairs pairs with the same score who have not met; for open events of any "
        "size. Acceleration and clubs kept apart are options of the Swiss."
    ),
    Event.Format.ROUND_ROBIN: _(
        "Everybody plays everybody (Berger tables): for a club evening or a season. With an "
        "odd number of pairs one pair rests each round; directions alternate."
    ),
    Event.Format.GROUPS: _(
        "Groups play a round robin; the best of each group and a repesca of the best of the "
        "rest go on to a knockout, seeded by their group results."
    ),
}


class PairingMethodForm(forms.ModelForm):
    """The pairing method and its options (event options: fixed once the event starts)."""

    class Meta:
        model = Event
        fields = [
            "format",
            "seeding",
            "accelerated",
            "club_rounds",
            "round_robin",
            "group_size",
            "qualifiers",
            "repesca",
            "repesca_min_points",
        ]
        widgets = {
            "format": forms.RadioSelect,
            "seeding": forms.RadioSelect,
            "round_robin": forms.RadioSelect,
        }
        labels = {"format": _("Pairing method")}
        help_texts = {
            "seeding": _(
                "The order of the pairs for round 1 and the groups: the lot drawn from the "
                "event's seed, or the ratings you give below (highest first; the lot orders "
                "equal and missing ones)."
            ),
            "accelerated": _(
                "Swiss: in the first half of the rounds the top half of the field counts "
                "virtual points for the pairing only, so that the favourites do not meet in "
                "round 1 or 2. The standings never show them."
            ),
            "club_rounds": _(
                "Swiss: in rounds 1 to this number, pairs of the same club do not meet when "
                "another pairing exists. 0: no such rule."
            ),
            "round_robin": _(
                "Round robin: once through the whole field, twice (the second time with the "
                "directions turned round), or only the number of rounds set in the event."
            ),
            "group_size": _(
                "Groups and knockout: the most pairs in a group; groups differ by one pair at most."
            ),
            "qualifiers": _("Groups and knockout: how many of each group go through."),
            "repesca": _(
                "Groups and knockout: how many of the best non-qualifiers get a second chance. "
                "Empty: as many as fill the bracket to 2, 4, 8, 16… places."
            ),
            "repesca_min_points": _(
                "Groups and knockout: a pair with fewer match points than this (2 per win) is "
                "not in the repesca."
            ),
        }

    def __init__(self, *args: object, locked: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.locked = locked
        for name in ("club_rounds", "group_size", "qualifiers", "repesca", "repesca_min_points"):
            self.fields[name].widget.attrs["min"] = 0
        self.fields["group_size"].widget.attrs["min"] = 2
        self.fields["qualifiers"].widget.attrs["min"] = 1
        if locked:
            for f in self.fields.values():
                f.disabled = True

    def clean_club_rounds(self) -> int:
        value = self.cleaned_data["club_rounds"]
        if value > 30:
            raise forms.ValidationError(_("Between 0 and 30 rounds."))
        return value

    def clean_group_size(self) -> int:
        value = self.cleaned_data["group_size"]
        if not 2 <= value <= 16:
            raise forms.ValidationError(_("Between 2 and 16 pairs."))
        return value

    def method_help(self) -> list[tuple[object, object]]:
        return [(label, METHOD_HELP[v]) for v, label in Event.Format.choices]


class RatingsForm(forms.Form):
    """One rating per pair (empty: no rating)."""

    def __init__(self, *args: object, entries: list[Entry], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.entries = entries
        for e in entries:
            self.fields[f"rating_{e.pk}"] = forms.IntegerField(
                label=str(e),
                required=False,
                min_value=0,
                max_value=MAX_RATING,
                initial=e.rating,
            )

    def ratings(self) -> dict[int, int | None]:
        return {e.pk: self.cleaned_data.get(f"rating_{e.pk}") for e in self.entries}


class ForbiddenPairForm(forms.Form):
    entry_a = forms.TypedChoiceField(label=_("Pair"), coerce=int)
    entry_b = forms.TypedChoiceField(label=_("never meets"), coerce=int)

    def __init__(self, *args: object, entries: list[Entry], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        choices = [(e.pk, str(e)) for e in entries]
        self.fields["entry_a"].choices = choices
        self.fields["entry_b"].choices = choices

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("entry_a") is not None and data.get("entry_a") == data.get("entry_b"):
            raise forms.ValidationError(_("Choose two different pairs."))
        return data
