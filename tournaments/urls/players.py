"""Player and partnership pages (/players/)."""

from django.urls import path

from tournaments.views import players

app_name = "players"
urlpatterns = [
    path("<num:pk>/", players.player_page, name="player"),
    path("<num:pk>/with/<num:partner>/", players.partnership_page, name="partnership"),
    path("<num:pk>/privacy/", players.player_visibility, name="visibility"),
    path("<num:pk>/merge/", players.player_merge, name="merge"),
]
