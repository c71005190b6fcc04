"""Forms of the player and club pages: the privacy setting, the duplicate to merge, a season."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Season


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(
        label=_("What the public sees of me"),
        choices=Player.Visibility.choices,
        widget=forms.RadioSelect,
    )


class MergeForm(forms.Form):
    other = forms.IntegerField(
        label=_("Number of the duplicate player"),
        min_value=1,
        help_text=_("The duplicate's page address ends with this number. It will be deleted."),
    )

    def clean_other(self) -> Player | None:
        # None for a number nobody has: the page refuses it as a merge not allowed.
        return Player.objects.filter(pk=self.cleaned_data["other"]).first()


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts", "ends", "point_table", "best", "rank_by"]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "point_table": forms.RadioSelect,
            "rank_by": forms.RadioSelect,
        }

    def clean_best(self) -> int | None:
        value = self.cleaned_data.get("best")
        if value is not None and not 1 <= value <= 200:
            raise forms.ValidationError(_("Between 1 and 200 events, or empty for all."))
        return value

    def clean(self) -> dict:
        data = super().clean()
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The last day comes before the first."))
        return data
