"""Forms of the event's roles page and of an invitation's acceptance
(tournaments.services.roles decides)."""

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.utils.translation import gettext_lazy as _

from tournaments.models import RoleInvitation


class AppointForm(forms.Form):
    who = forms.CharField(
        label=_("Username or e-mail of the account"),
        max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=RoleInvitation.Role.choices, initial=RoleInvitation.Role.REFEREE
    )


class InviteForm(forms.Form):
    """Beside the appoint form on one page: its own ids, so that each label names its field."""

    field_id_prefix = "invite-"  # its fields' boxes (tournaments/_field.html)

    role = forms.ChoiceField(
        label=_("Role"), choices=RoleInvitation.Role.choices, initial=RoleInvitation.Role.REFEREE
    )
    email = forms.EmailField(
        label=_("E-mail of the person (a reminder of whom you sent the link to)"),
        required=False,
        max_length=254,
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)


class AcceptForm(BaseUserCreationForm):
    """A new account: a username and a password checked by the site's password rules."""

    class Meta(BaseUserCreationForm.Meta):
        fields = ("username",)

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        model = self._meta.model
        if model.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This username is taken: choose another."))
        return username
