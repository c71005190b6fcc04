"""The organiser's pages, under /manage/."""

from django.urls import path

from tournaments.views import changes, clock, pairing, registrations, roles, teams, webhooks
from tournaments.views import organiser as views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("new/", views.event_create, name="event_create"),
    path("<int:pk>/", views.event_dashboard, name="event_dashboard"),
    path("<int:pk>/edit/", views.event_edit, name="event_edit"),
    path("<int:pk>/progress.json", views.event_progress, name="event_progress"),
    path("<int:pk>/registration/", views.registration_open, name="registration_open"),
    path("<int:pk>/start/", views.event_start, name="event_start"),
    path("<int:pk>/finish/", views.event_finish, name="event_finish"),
    path("<int:pk>/publish/", views.event_publish, name="event_publish"),
    path("<int:pk>/roles/", roles.event_roles, name="event_roles"),
    path("<int:pk>/roles/invite/", roles.role_invite, name="role_invite"),
    path(
        "<int:pk>/roles/<slug:role>/<int:user_pk>/remove/",
        roles.role_remove,
        name="role_remove",
    ),
    path(
        "<int:pk>/invitations/<int:invitation_pk>/revoke/",
        roles.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<int:pk>/webhooks/", webhooks.webhooks, name="webhooks"),
    path(
        "<int:pk>/webhooks/<int:webhook_pk>/",
        webhooks.webhook_deliveries,
        name="webhook_deliveries",
    ),
    path(
        "<int:pk>/webhooks/<int:webhook_pk>/remove/",
        webhooks.webhook_delete,
        name="webhook_delete",
    ),
    path("<int:pk>/webhooks/<int:webhook_pk>/test/", webhooks.webhook_ping, name="webhook_ping"),
    path(
        "<int:pk>/webhooks/deliveries/<uuid:delivery_id>/resend/",
        webhooks.delivery_resend,
        name="webhook_resend",
    ),
    path("<int:pk>/pairs/", views.entries, name="entries"),
    path("<int:pk>/teams/", teams.team_list, name="teams"),
    path(
        "<int:pk>/rounds/<int:number>/matches/<int:match>/lineup/",
        teams.lineup,
        name="lineup",
    ),
    path("<int:pk>/pairing/", pairing.pairing_method, name="pairing_method"),
    path("<int:pk>/pairing/ratings/", pairing.ratings, name="pairing_ratings"),
    path("<int:pk>/pairing/prohibited/", pairing.forbidden_add, name="forbidden_add"),
    path(
        "<int:pk>/pairing/prohibited/<int:forbidden_pk>/remove/",
        pairing.forbidden_remove,
        name="forbidden_remove",
    ),
    path("<int:pk>/registrations/", registrations.registration_list, name="registrations"),
    path("<int:pk>/registrations/match/", registrations.match_solos, name="registrations_match"),
    path(
        "<int:pk>/registrations/remind/",
        registrations.send_reminders,
        name="registrations_remind",
    ),
    path(
        "<int:pk>/registrations/<int:registration_pk>/paid/",
        registrations.mark_paid,
        name="registration_paid",
    ),
    path(
        "<int:pk>/registrations/<int:registration_pk>/check-in/",
        registrations.check_in,
        name="registration_check_in",
    ),
    path("<int:pk>/pairs/import/", views.entries_import, name="entries_import"),
    path("<int:pk>/pairs/byes/", views.bye_request_add, name="bye_request_add"),
    path(
        "<int:pk>/pairs/byes/<int:request_pk>/remove/",
        views.bye_request_remove,
        name="bye_request_remove",
    ),
    path(
        "<int:pk>/pairs/import/confirm/",
        views.entries_import_confirm,
        name="entries_import_confirm",
    ),
    path("<int:pk>/pairs/<int:entry_pk>/withdraw/", changes.entry_withdraw, name="entry_withdraw"),
    path(
        "<int:pk>/pairs/<int:entry_pk>/reinstate/", changes.entry_reinstate, name="entry_reinstate"
    ),
    path(
        "<int:pk>/pairs/<int:entry_pk>/substitute/",
        changes.entry_substitute,
        name="entry_substitute",
    ),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("<int:pk>/rounds/<int:number>/console/", views.round_console, name="round_console"),
    path("<int:pk>/rounds/<int:number>/propose/", views.round_propose, name="round_propose"),
    path("<int:pk>/rounds/<int:number>/swap/", views.round_swap, name="round_swap"),
    path("<int:pk>/rounds/<int:number>/open/", views.round_open, name="round_open"),
    path("<int:pk>/rounds/<int:number>/close/", views.round_close, name="round_close"),
    path(
        "<int:pk>/rounds/<int:number>/clock/<slug:action>/",
        clock.round_clock,
        name="round_clock",
    ),
    path("<int:pk>/rounds/<int:number>/reopen/", changes.round_reopen, name="round_reopen"),
    path("<int:pk>/rounds/<int:number>/unopen/", changes.round_unopen, name="round_unopen"),
    path("<int:pk>/rounds/<int:number>/pairing/", changes.round_pairing, name="round_pairing"),
    path("<int:pk>/rounds/<int:number>/rulings/", views.round_rulings, name="round_rulings"),
    path(
        "<int:pk>/rounds/<int:number>/tables/<int:table>/new-codes/",
        views.table_new_codes,
        name="table_new_codes",
    ),
    path("<int:pk>/results/<int:result_pk>/correct/", views.result_correct, name="result_correct"),
]
