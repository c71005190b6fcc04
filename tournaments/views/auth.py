from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.utils.translation import gettext as _

from tournaments import ratelimit

LOGIN_ATTEMPTS_PER_MINUTE = 10


class LoginView(auth_views.LoginView):
    """Django's login, with failed attempts per client counted and capped per minute."""

    def _window(self) -> ratelimit.Window:
        return ratelimit.window(
            "login", ratelimit.client_ip(self.request), limit=LOGIN_ATTEMPTS_PER_MINUTE
        )

    def post(self, request, *args, **kwargs) -> HttpResponse:
        w = self._window()
        if ratelimit.is_blocked(w):
            form = self.get_form()
            form.errors.clear()
            form.add_error(
                None,
                _("Too many failed attempts. Try again in %(s)s seconds.") % {"s": w.retry_after},
            )
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            response["Retry-After"] = str(w.retry_after)
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form) -> HttpResponse:
        ratelimit.register_failure(self._window())
        return super().form_invalid(form)
