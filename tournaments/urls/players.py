"""Player and partnership pages (/players/)."""

from django.urls import path

from tournaments.views import players

app_name = "players"
urlpatterns = [
    path("<int:pk>/", players.player_page, name="player"),
    path("<int:pk>/with/<int:partner>/", players.partnership_page, name="partnership"),
    path("<int:pk>/privacy/", players.player_visibility, name="visibility"),
    path("<int:pk>/merge/", players.player_merge, name="merge"),
]
