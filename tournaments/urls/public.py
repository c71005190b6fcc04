"""Public results (``/e/``): readable without logging in once the event is published."""

from django.urls import path

from tournaments.views import public, public_files, registrations, teams

app_name = "public"
urlpatterns = [
    path("<int:pk>/", public.event_page, name="event"),
    path("<int:pk>/standings/", public.standings, name="standings"),
    path("<int:pk>/groups/", public.groups, name="groups"),
    path("<int:pk>/teams/", teams.team_standings, name="team_standings"),
    path("<int:pk>/teams/matches/", teams.team_rounds, name="team_rounds"),
    path(
        "<int:pk>/teams/matches/<int:number>/<int:match>/",
        teams.team_match,
        name="team_match",
    ),
    path("<int:pk>/butler/", teams.butler, name="butler"),
    path("<int:pk>/register/", registrations.signup, name="register"),
    path("<int:pk>/registration/<str:token>/", registrations.registration, name="registration"),
    path("<int:pk>/check-in/<str:token>/", registrations.check_in_link, name="check_in"),
    path("<int:pk>/screen/", public.screen, name="screen"),
    path("<int:pk>/crosstable/", public.crosstable, name="crosstable"),
    path("<int:pk>/pairings/", public.pairings, name="pairings"),
    path("<int:pk>/check/", public.check_boards, name="check_boards"),
    path("<int:pk>/rounds/<int:number>/", public.round_results, name="round_results"),
    path("<int:pk>/rounds/<int:number>/table-cards/", public.table_cards, name="table_cards"),
    path("<int:pk>/boards/<int:board>/", public.traveller, name="traveller"),
    path("<int:pk>/pairs/<int:entry_number>/", public.scorecard, name="scorecard"),
    path("<int:pk>/hand-records/", public.hand_records, name="hand_records"),
    path("<int:pk>/pdf/<slug:kind>/", public_files.pdf_file, name="pdf"),
    path("<int:pk>/pdf-jobs/<uuid:job>/", public_files.pdf_status, name="pdf_status"),
    path("<int:pk>/pdf-jobs/<uuid:job>/download/", public_files.pdf_download, name="pdf_download"),
    path("<int:pk>/export/<slug:kind>.csv", public_files.export_csv, name="export_csv"),
    path(
        "<int:pk>/export/spreadsheet/<slug:kind>.csv",
        public_files.export_sheet_csv,
        name="export_sheet_csv",
    ),
    path("<int:pk>/export/<slug:kind>.xlsx", public_files.export_xlsx, name="export_xlsx"),
    path("<int:pk>/export/records.json", public_files.export_records, name="export_records"),
    path(
        "<int:pk>/export/tournament.btf",
        public_files.export_tournament_file,
        name="export_tournament_file",
    ),
]
