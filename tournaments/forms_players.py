"""Forms of the player pages: the privacy setting, and the duplicate to merge."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player


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

    def clean_other(self) -> Player:
        try:
            return Player.objects.get(pk=self.cleaned_data["other"])
        except Player.DoesNotExist:
            raise forms.ValidationError(_("There is no player with this number.")) from None
