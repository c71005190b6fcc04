"""The form of the public "check the boards" page."""

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

SEED_MAX = 200


class CheckBoardsForm(forms.Form):
    seed = forms.CharField(
        label=_("Seed"),
        max_length=SEED_MAX,
        # A seed is its exact text (deals.md hashes its UTF-8 bytes): spaces are part of it.
        strip=False,
        help_text=_("Paste the seed the organiser revealed when the event finished."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    board = forms.IntegerField(label=_("Board"), min_value=1, initial=1)

    def clean_seed(self) -> str:
        seed = self.cleaned_data["seed"]
        if not seed.strip():
            raise forms.ValidationError(self.fields["seed"].error_messages["required"], "required")
        return seed

    def __init__(self, *args: object, boards: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["board"]
        field.max_value = boards
        field.validators.append(MaxValueValidator(boards))
        field.widget.attrs["max"] = boards
        field.help_text = _("From 1 to %(n)s.") % {"n": boards}
