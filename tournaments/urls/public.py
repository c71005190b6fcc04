"""Public results (``/e/``): readable without logging in once the event is published."""

from django.urls import path

from tournaments.views import public, public_files, registrations, teams

app_name = "public"
urlpatterns = [
    path("<num:pk>/", public.event_page, name="event"),
    path("<num:pk>/standings/", public.standings, name="standings"),
    path("<num:pk>/groups/", public.groups, name="groups"),
    path("<num:pk>/teams/", teams.team_standings, name="team_standings"),
    path("<num:pk>/teams/matches/", teams.team_rounds, name="team_rounds"),
    path(
        "<num:pk>/teams/matches/<num:number>/<num:match>/",
        teams.team_match,
        name="team_match",
    ),
    path("<num:pk>/butler/", teams.butler, name="butler"),
    path("<num:pk>/register/", registrations.signup, name="register"),
    path("<num:pk>/registration/<str:token>/", registrations.registration, name="registration"),
    path("<num:pk>/check-in/<str:token>/", registrations.check_in_link, name="check_in"),
    path("<num:pk>/screen/", public.screen, name="screen"),
    path("<num:pk>/crosstable/", public.crosstable, name="crosstable"),
    path("<num:pk>/pairings/", public.pairings, name="pairings"),
    path("<num:pk>/check/", public.check_boards, name="check_boards"),
    path("<num:pk>/rounds/<num:number>/", public.round_results, name="round_results"),
    path("<num:pk>/rounds/<num:number>/table-cards/", public.table_cards, name="table_cards"),
    path("<num:pk>/boards/<num:board>/", public.traveller, name="traveller"),
    path("<num:pk>/pairs/<num:entry_number>/", public.scorecard, name="scorecard"),
    path("<num:pk>/hand-records/", public.hand_records, name="hand_records"),
    path("<num:pk>/pdf/<slug:kind>/", public_files.pdf_file, name="pdf"),
    path("<num:pk>/pdf-jobs/<uuid:job>/", public_files.pdf_status, name="pdf_status"),
    path("<num:pk>/pdf-jobs/<uuid:job>/download/", public_files.pdf_download, name="pdf_download"),
    path("<num:pk>/export/<slug:kind>.csv", public_files.export_csv, name="export_csv"),
    path(
        "<num:pk>/export/spreadsheet/<slug:kind>.csv",
        public_files.export_sheet_csv,
        name="export_sheet_csv",
    ),
    path("<num:pk>/export/<slug:kind>.xlsx", public_files.export_xlsx, name="export_xlsx"),
    path("<num:pk>/export/records.json", public_files.export_records, name="export_records"),
    path(
        "<num:pk>/export/tournament.btf",
        public_files.export_tournament_file,
        name="export_tournament_file",
    ),
]
