"""Club pages (/clubs/): ratings and seasons."""

from django.urls import path

from tournaments.views import clubs

app_name = "clubs"
urlpatterns = [
    path("<num:pk>/", clubs.club_page, name="club"),
    path("<num:pk>/ratings/recompute/", clubs.ratings_recompute, name="ratings_recompute"),
    path("<num:pk>/seasons/new/", clubs.season_new, name="season_new"),
    path("<num:pk>/seasons/<num:season_pk>/", clubs.season_page, name="season"),
    path("<num:pk>/seasons/<num:season_pk>/season.csv", clubs.season_csv, name="season_csv"),
    path("<num:pk>/seasons/<num:season_pk>/season.xlsx", clubs.season_xlsx, name="season_xlsx"),
    path("<num:pk>/seasons/<num:season_pk>/season.pdf", clubs.season_pdf, name="season_pdf"),
]
