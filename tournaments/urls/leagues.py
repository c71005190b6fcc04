"""The league (Lliga) pages, under /leagues/."""

from django.urls import path

from tournaments.views import leagues

app_name = "leagues"
urlpatterns = [
    path("new/", leagues.league_new, name="new"),
    path("<int:pk>/", leagues.league_page, name="league"),
    path("<int:pk>/league.pdf", leagues.league_pdf, name="pdf"),
    path("<int:pk>/league-table.csv", leagues.league_csv, {"part": "table"}, name="csv"),
    path(
        "<int:pk>/league-fixtures.csv",
        leagues.league_csv,
        {"part": "fixtures"},
        name="fixtures_csv",
    ),
    path("<int:pk>/league.xlsx", leagues.league_xlsx, name="xlsx"),
    path("<int:pk>/league.json", leagues.league_json, name="json"),
    path("<int:pk>/manage/", leagues.league_manage, name="manage"),
    path("<int:pk>/fixtures/<int:fixture_pk>/", leagues.fixture_results, name="fixture"),
]
