from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.views import health, home, roles
from tournaments.views.auth import LoginView

urlpatterns = [
    path("", home.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    # The API and the table pages first: they serve a round's requests.
    path("api/v1/", include("api.urls", namespace="api")),
    path("table/", include("tournaments.urls.table", namespace="table")),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/invitation/<str:token>/", roles.invitation_accept, name="invitation_accept"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manage/", include("tournaments.urls.organiser", namespace="tournaments")),
    path("referee/", include("tournaments.urls.referee", namespace="referee")),
    path("e/", include("tournaments.urls.public", namespace="public")),
    path("players/", include("tournaments.urls.players", namespace="players")),
    path("clubs/", include("tournaments.urls.clubs", namespace="clubs")),
    path("leagues/", include("tournaments.urls.leagues", namespace="leagues")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]
