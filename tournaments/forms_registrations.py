"""The public sign-up form of an event."""

from django import forms
from django.utils.translation import gettext_lazy as _


class SignupForm(forms.Form):
    player1 = forms.CharField(label=_("Player 1"), max_length=120)
    player2 = forms.CharField(label=_("Player 2"), max_length=120)
    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("The confirmation, and the link to withdraw, are sent here."),
    )
