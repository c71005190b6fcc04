"""The players' pages at the table: /table/ (code entry) and /table/<code>/…"""

from django.urls import path

from tournaments.views import clock, table_app, table_evening, table_play, teams
from tournaments.views import table as views

app_name = "table"
urlpatterns = [
    path("", views.enter, name="enter"),
    path("sw.js", table_app.service_worker, name="service_worker"),
    # Before the code's pages: "offline" is no code (codes have 6 characters).
    path("offline/", table_app.offline, name="offline"),
    path("<str:code>/manifest.webmanifest", table_app.manifest, name="manifest"),
    path("<str:code>/", views.table_home, name="table_home"),
    path("<str:code>/boards/", views.board_list, name="board_list"),
    path("<str:code>/time/", clock.table_time, name="table_time"),
    path("<str:code>/scorecard/", table_evening.pair_scorecard, name="pair_scorecard"),
    path("<str:code>/standings/", table_evening.pair_standings, name="pair_standings"),
    path("<str:code>/rulings/", table_evening.pair_rulings, name="pair_rulings"),
    path("<str:code>/match/", teams.table_match, name="table_match"),
    path("<str:code>/board/<num:number>/", views.board_short, name="board_short"),
    path("<str:code>/board/<num:number>/preview/", views.short_preview, name="short_preview"),
    path("<str:code>/board/<num:number>/confirm/", views.board_confirm, name="board_confirm"),
    path("<str:code>/board/<num:number>/referee/", views.board_referee, name="board_referee"),
    path("<str:code>/board/<num:number>/play/", table_play.board_play, name="board_play"),
    path("<str:code>/board/<num:number>/played/", table_play.board_played, name="board_played"),
    path("<str:code>/board/<num:number>/play/legal/", table_play.play_legal, name="play_legal"),
    path("<str:code>/board/<num:number>/play/submit/", table_play.play_submit, name="play_submit"),
]
