"""Club pages (/clubs/): ratings and seasons."""

from django.urls import path

from tournaments.views import clubs

app_name = "clubs"
urlpatterns = [
    path("<int:pk>/", clubs.club_page, name="club"),
    path("<int:pk>/ratings/recompute/", clubs.ratings_recompute, name="ratings_recompute"),
    path("<int:pk>/seasons/new/", clubs.season_new, name="season_new"),
    path("<int:pk>/seasons/<int:season_pk>/", clubs.season_page, name="season"),
    path("<int:pk>/seasons/<int:season_pk>/season.csv", clubs.season_csv, name="season_csv"),
    path("<int:pk>/seasons/<int:season_pk>/season.xlsx", clubs.season_xlsx, name="season_xlsx"),
    path("<int:pk>/seasons/<int:season_pk>/season.pdf", clubs.season_pdf, name="season_pdf"),
]
