"""The public sign-up form of an event: a pair, or one player alone."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, Registration
from tournaments.services.names import length_problems, normal_name


def _fits(name: str, field: str) -> str:
    """``name`` as stored, refused when its normal form outgrows the column (a few characters
    decompose into two)."""
    for _field, problem in length_problems(**{field: name}):
        raise forms.ValidationError(problem)
    return name


class SignupForm(forms.Form):
    alone = forms.BooleanField(
        label=_("I am signing up alone: find me a partner"),
        required=False,
        help_text=_(
            "The organiser matches players who signed up alone into pairs and tells you both "
            "by e-mail."
        ),
    )
    player1 = forms.CharField(label=_("Player 1"), max_length=120)
    player2 = forms.CharField(label=_("Player 2"), max_length=120, required=False)
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,  # the column's length (a form's EmailField allows 320)
        help_text=_("The confirmation, and the link to withdraw, are sent here."),
    )
    email2 = forms.EmailField(
        label=_("Partner's e-mail"),
        max_length=254,
        required=False,
        help_text=_("Your partner gets the same messages, and their own results after the event."),
    )

    def clean_player1(self) -> str:
        name = normal_name(self.cleaned_data["player1"])
        if not name:  # nothing printable: control characters only
            raise forms.ValidationError(self.fields["player1"].error_messages["required"])
        return _fits(name, "player1")

    def clean_player2(self) -> str:
        return _fits(normal_name(self.cleaned_data.get("player2") or ""), "player2")

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if data.get("alone"):
            data["player2"], data["email2"] = "", ""
        elif not (data.get("player2") or "").strip() and "player2" not in self.errors:
            self.add_error("player2", _("Name your partner, or tick the box to sign up alone."))
        return data

    def service_fields(self) -> dict[str, object]:
        return {k: v for k, v in self.cleaned_data.items() if k != "alone"}


class MatchForm(forms.Form):
    """Two solo sign-ups of the event to match into a pair."""

    first = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("Partner"))

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        solos = event.registrations.filter(status=Registration.Status.SOLO)
        self.fields["first"].queryset = solos
        self.fields["second"].queryset = solos
        self.fields["first"].error_messages["invalid_choice"] = _(
            "Choose a player still looking for a partner."
        )
        self.fields["second"].error_messages["invalid_choice"] = _(
            "Choose a player still looking for a partner."
        )

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Choose two different players."))
        return data
