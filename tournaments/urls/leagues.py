"""The league (Lliga) pages, under /leagues/."""

from django.urls import path

from tournaments.views import leagues

app_name = "leagues"
urlpatterns = [
    path("new/", leagues.league_new, name="new"),
    path("<num:pk>/", leagues.league_page, name="league"),
    path("<num:pk>/league.pdf", leagues.league_pdf, name="pdf"),
    path("<num:pk>/league-table.csv", leagues.league_csv, {"part": "table"}, name="csv"),
    path(
        "<num:pk>/league-fixtures.csv",
        leagues.league_csv,
        {"part": "fixtures"},
        name="fixtures_csv",
    ),
    path("<num:pk>/league.xlsx", leagues.league_xlsx, name="xlsx"),
    path("<num:pk>/league.json", leagues.league_json, name="json"),
    path("<num:pk>/manage/", leagues.league_manage, name="manage"),
    path("<num:pk>/fixtures/<num:fixture_pk>/", leagues.fixture_results, name="fixture"),
]
