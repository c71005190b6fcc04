from django.urls import path, re_path

from api import archive, lifecycle, reads, roles, views, webhooks

app_name = "api"
urlpatterns = [
    # What the tables send during a round comes first: a request tries the patterns in order.
    path("table-token", views.TableTokenView.as_view(), name="table_token"),
    path("results", views.ResultListView.as_view(), name="result_list"),
    path("results/<num:pk>/confirm", views.ResultConfirmView.as_view(), name="result_confirm"),
    path("play-records", views.PlayRecordCreateView.as_view(), name="play_record_create"),
    path("boards/played", views.BoardPlayedView.as_view(), name="board_played"),
    path("auth/token", views.AccountTokenView.as_view(), name="auth_token"),
    path("events", lifecycle.EventsView.as_view(), name="event_list"),
    path("event-presets", lifecycle.PresetsView.as_view(), name="event_presets"),
    path("events/import", archive.EventImportView.as_view(), name="event_import"),
    path("events/<num:pk>", lifecycle.EventView.as_view(), name="event_detail"),
    path("events/<num:pk>/archive", archive.EventArchiveView.as_view(), name="event_archive"),
    path(
        "events/<num:pk>/registration",
        lifecycle.RegistrationOpenView.as_view(),
        name="event_registration",
    ),
    path("events/<num:pk>/start", lifecycle.EventStartView.as_view(), name="event_start"),
    path("events/<num:pk>/finish", lifecycle.EventFinishView.as_view(), name="event_finish"),
    path("events/<num:pk>/publish", lifecycle.EventPublishView.as_view(), name="event_publish"),
    path("events/<num:pk>/pairs", lifecycle.PairsView.as_view(), name="event_pairs"),
    path("events/<num:pk>/pairs/import", lifecycle.PairsImportView.as_view(), name="pairs_import"),
    path(
        "events/<num:pk>/pairs/<num:number>/withdraw",
        lifecycle.PairWithdrawView.as_view(),
        name="pair_withdraw",
    ),
    path(
        "events/<num:pk>/pairs/<num:number>/reinstate",
        lifecycle.PairReinstateView.as_view(),
        name="pair_reinstate",
    ),
    path(
        "events/<num:pk>/pairs/<num:number>/substitute",
        lifecycle.PairSubstituteView.as_view(),
        name="pair_substitute",
    ),
    path("events/<num:pk>/roles", roles.RolesView.as_view(), name="event_roles"),
    path("events/<num:pk>/roles/remove", roles.RoleRemoveView.as_view(), name="role_remove"),
    path("events/<num:pk>/invitations", roles.InvitationsView.as_view(), name="invitations"),
    path(
        "events/<num:pk>/invitations/<num:invitation_pk>/revoke",
        roles.InvitationRevokeView.as_view(),
        name="invitation_revoke",
    ),
    path("events/<num:pk>/webhooks", webhooks.WebhooksView.as_view(), name="webhooks"),
    path(
        "events/<num:pk>/webhooks/<num:webhook_pk>/delete",
        webhooks.WebhookDeleteView.as_view(),
        name="webhook_delete",
    ),
    path(
        "events/<num:pk>/webhooks/<num:webhook_pk>/ping",
        webhooks.WebhookPingView.as_view(),
        name="webhook_ping",
    ),
    path(
        "events/<num:pk>/webhooks/<num:webhook_pk>/deliveries",
        webhooks.WebhookDeliveriesView.as_view(),
        name="webhook_deliveries",
    ),
    path(
        "events/<num:pk>/webhook-deliveries/<uuid:delivery_id>/resend",
        webhooks.DeliveryResendView.as_view(),
        name="webhook_resend",
    ),
    path("events/<num:pk>/rounds/<num:number>", lifecycle.RoundView.as_view(), name="round"),
    path(
        "events/<num:pk>/rounds/<num:number>/propose",
        lifecycle.RoundProposeView.as_view(),
        name="round_propose",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/pairing",
        lifecycle.RoundPairingView.as_view(),
        name="round_pairing",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/swap",
        lifecycle.RoundSwapView.as_view(),
        name="round_swap",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/open",
        lifecycle.RoundOpenView.as_view(),
        name="round_open",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/close",
        lifecycle.RoundCloseView.as_view(),
        name="round_close",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/reopen",
        lifecycle.RoundReopenView.as_view(),
        name="round_reopen",
    ),
    path(
        "events/<num:pk>/rounds/<num:number>/rulings",
        lifecycle.RoundRulingsView.as_view(),
        name="round_rulings",
    ),
    path("events/<num:pk>/rounds", views.EventRoundsView.as_view(), name="event_rounds"),
    path("events/<num:pk>/boards/<num:number>", views.BoardView.as_view(), name="board"),
    path("events/<num:pk>/standings", views.StandingsView.as_view(), name="standings"),
    path("events/<num:pk>/crosstable", reads.CrosstableView.as_view(), name="crosstable"),
    path(
        "events/<num:pk>/boards/<num:number>/traveller",
        reads.TravellerView.as_view(),
        name="traveller",
    ),
    path(
        "events/<num:pk>/pairs/<num:number>/scorecard",
        reads.ScorecardView.as_view(),
        name="scorecard",
    ),
    path("events/<num:pk>/audit", reads.AuditView.as_view(), name="event_audit"),
    path(
        "events/<num:pk>/team-standings",
        views.TeamStandingsView.as_view(),
        name="team_standings",
    ),
    path("rounds/<num:pk>/tables", views.RoundTablesView.as_view(), name="round_tables"),
    path("results/<num:pk>", views.ResultDetailView.as_view(), name="result_detail"),
    path("tables/<num:pk>/new-codes", views.TableNewCodesView.as_view(), name="table_new_codes"),
    path("play-records/<num:pk>", views.PlayRecordDetailView.as_view(), name="play_record_detail"),
    path("verify", views.VerifyView.as_view(), name="verify"),
    path("disputes", views.DisputeListView.as_view(), name="dispute_list"),
    path("disputes/<num:pk>", views.DisputeDetailView.as_view(), name="dispute_detail"),
    path("disputes/<num:pk>/rule", views.DisputeRuleView.as_view(), name="dispute_rule"),
    path(
        "disputes/<num:pk>/withdraw", views.DisputeWithdrawView.as_view(), name="dispute_withdraw"
    ),
    # Last: anything else under /api/v1/ is the API's JSON 404.
    re_path(r"^[\s\S]*$", views.not_found, name="not_found"),  # (a newline in the path too)
]
