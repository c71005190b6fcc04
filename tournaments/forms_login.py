"""The login forms of the site and of the admin, with every attempt counted before the password
is checked (``tournaments.ratelimit``): one budget per client address and per username for both
forms and for the API's account token."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import ngettext

from tournaments import ratelimit


class CountedLoginMixin:
    """Refuses the attempt, right password or not, once the client or the account is over its
    limit; a right password gives its unit back."""

    attempt: ratelimit.Attempt | None = None

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data  # type: ignore[attr-defined]
        username, password = data.get("username"), data.get("password")
        if username is not None and password:
            self.attempt = ratelimit.login_attempt(
                request=self.request,  # type: ignore[attr-defined]
                username=username,
            )
            if self.attempt.blocked:
                raise forms.ValidationError(
                    ngettext(
                        "Too many failed attempts. Try again in %(s)s second.",
                        "Too many failed attempts. Try again in %(s)s seconds.",
                        self.attempt.retry_after,
                    )
                    % {"s": self.attempt.retry_after},
                    code="rate_limited",
                )
        cleaned = super().clean()  # type: ignore[misc]
        if self.attempt is not None:
            self.attempt.give_back()
        return cleaned

    @property
    def rate_limited(self) -> bool:
        return self.attempt is not None and self.attempt.blocked


class LoginForm(CountedLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(CountedLoginMixin, AdminAuthenticationForm):
    pass
