"""The organiser's pages, under /manage/."""

from django.urls import path

from tournaments.views import changes, clock, pairing, registrations, roles, teams, webhooks
from tournaments.views import organiser as views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("new/", views.event_create, name="event_create"),
    path("<num:pk>/", views.event_dashboard, name="event_dashboard"),
    path("<num:pk>/edit/", views.event_edit, name="event_edit"),
    path("<num:pk>/progress.json", views.event_progress, name="event_progress"),
    path("<num:pk>/registration/", views.registration_open, name="registration_open"),
    path("<num:pk>/start/", views.event_start, name="event_start"),
    path("<num:pk>/finish/", views.event_finish, name="event_finish"),
    path("<num:pk>/publish/", views.event_publish, name="event_publish"),
    path("<num:pk>/roles/", roles.event_roles, name="event_roles"),
    path("<num:pk>/roles/invite/", roles.role_invite, name="role_invite"),
    path(
        "<num:pk>/roles/<slug:role>/<num:user_pk>/remove/",
        roles.role_remove,
        name="role_remove",
    ),
    path(
        "<num:pk>/invitations/<num:invitation_pk>/revoke/",
        roles.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<num:pk>/webhooks/", webhooks.webhooks, name="webhooks"),
    path(
        "<num:pk>/webhooks/<num:webhook_pk>/",
        webhooks.webhook_deliveries,
        name="webhook_deliveries",
    ),
    path(
        "<num:pk>/webhooks/<num:webhook_pk>/remove/",
        webhooks.webhook_delete,
        name="webhook_delete",
    ),
    path("<num:pk>/webhooks/<num:webhook_pk>/test/", webhooks.webhook_ping, name="webhook_ping"),
    path(
        "<num:pk>/webhooks/deliveries/<uuid:delivery_id>/resend/",
        webhooks.delivery_resend,
        name="webhook_resend",
    ),
    path("<num:pk>/pairs/", views.entries, name="entries"),
    path("<num:pk>/teams/", teams.team_list, name="teams"),
    path(
        "<num:pk>/rounds/<num:number>/matches/<num:match>/lineup/",
        teams.lineup,
        name="lineup",
    ),
    path("<num:pk>/pairing/", pairing.pairing_method, name="pairing_method"),
    path("<num:pk>/pairing/ratings/", pairing.ratings, name="pairing_ratings"),
    path("<num:pk>/pairing/prohibited/", pairing.forbidden_add, name="forbidden_add"),
    path(
        "<num:pk>/pairing/prohibited/<num:forbidden_pk>/remove/",
        pairing.forbidden_remove,
        name="forbidden_remove",
    ),
    path("<num:pk>/registrations/", registrations.registration_list, name="registrations"),
    path("<num:pk>/registrations/match/", registrations.match_solos, name="registrations_match"),
    path(
        "<num:pk>/registrations/remind/",
        registrations.send_reminders,
        name="registrations_remind",
    ),
    path(
        "<num:pk>/registrations/<num:registration_pk>/paid/",
        registrations.mark_paid,
        name="registration_paid",
    ),
    path(
        "<num:pk>/registrations/<num:registration_pk>/check-in/",
        registrations.check_in,
        name="registration_check_in",
    ),
    path("<num:pk>/pairs/import/", views.entries_import, name="entries_import"),
    path("<num:pk>/pairs/byes/", views.bye_request_add, name="bye_request_add"),
    path(
        "<num:pk>/pairs/byes/<num:request_pk>/remove/",
        views.bye_request_remove,
        name="bye_request_remove",
    ),
    path(
        "<num:pk>/pairs/import/confirm/",
        views.entries_import_confirm,
        name="entries_import_confirm",
    ),
    path("<num:pk>/pairs/<num:entry_pk>/withdraw/", changes.entry_withdraw, name="entry_withdraw"),
    path(
        "<num:pk>/pairs/<num:entry_pk>/reinstate/", changes.entry_reinstate, name="entry_reinstate"
    ),
    path(
        "<num:pk>/pairs/<num:entry_pk>/substitute/",
        changes.entry_substitute,
        name="entry_substitute",
    ),
    path("<num:pk>/rounds/<num:number>/", views.round_detail, name="round_detail"),
    path("<num:pk>/rounds/<num:number>/console/", views.round_console, name="round_console"),
    path("<num:pk>/rounds/<num:number>/propose/", views.round_propose, name="round_propose"),
    path("<num:pk>/rounds/<num:number>/swap/", views.round_swap, name="round_swap"),
    path("<num:pk>/rounds/<num:number>/open/", views.round_open, name="round_open"),
    path("<num:pk>/rounds/<num:number>/close/", views.round_close, name="round_close"),
    path(
        "<num:pk>/rounds/<num:number>/clock/<slug:action>/",
        clock.round_clock,
        name="round_clock",
    ),
    path("<num:pk>/rounds/<num:number>/reopen/", changes.round_reopen, name="round_reopen"),
    path("<num:pk>/rounds/<num:number>/unopen/", changes.round_unopen, name="round_unopen"),
    path("<num:pk>/rounds/<num:number>/pairing/", changes.round_pairing, name="round_pairing"),
    path("<num:pk>/rounds/<num:number>/rulings/", views.round_rulings, name="round_rulings"),
    path(
        "<num:pk>/rounds/<num:number>/tables/<num:table>/new-codes/",
        views.table_new_codes,
        name="table_new_codes",
    ),
    path("<num:pk>/results/<num:result_pk>/correct/", views.result_correct, name="result_correct"),
]
