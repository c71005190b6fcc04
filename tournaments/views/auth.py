from django.contrib.auth import views as auth_views
from django.http import HttpResponse

from tournaments.forms_login import LoginForm


class LoginView(auth_views.LoginView):
    """Django's login, every attempt counted (``tournaments.ratelimit``); 429 once refused."""

    authentication_form = LoginForm

    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        if form.rate_limited:
            response.status_code = 429
            response["Retry-After"] = str(form.attempt.retry_after)
        return response
