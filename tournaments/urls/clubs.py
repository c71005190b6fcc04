"""Club pages (/clubs/): ratings and seasons."""

from django.urls import path

from tournaments.views import clubs

app_name = "clubs"
urlpatterns = [
    path("<int:pk>/", clubs.club_page, name="club"),
    path("<int:pk>/ratings/recompute/", clubs.ratings_recompute, name="ratings_recompute"),
]
