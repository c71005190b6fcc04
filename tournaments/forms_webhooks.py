"""The form of the event's webhooks page (tournaments.services.webhooks decides)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=_("Address that receives the notifications"),
        max_length=500,
        help_text=_("A web address starting with https:// on the program's server."),
        widget=forms.URLInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "placeholder": "https://"}
        ),
    )
