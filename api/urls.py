from django.urls import path

from api import views

app_name = "api"
urlpatterns = [
    path("auth/token", views.AccountTokenView.as_view(), name="auth_token"),
    path("table-token", views.TableTokenView.as_view(), name="table_token"),
    path("events", views.EventListView.as_view(), name="event_list"),
    path("events/<int:pk>", views.EventDetailView.as_view(), name="event_detail"),
    path("events/<int:pk>/rounds", views.EventRoundsView.as_view(), name="event_rounds"),
    path("events/<int:pk>/boards/<int:number>", views.BoardView.as_view(), name="board"),
    path("events/<int:pk>/standings", views.StandingsView.as_view(), name="standings"),
    path("rounds/<int:pk>/tables", views.RoundTablesView.as_view(), name="round_tables"),
    path("results", views.ResultListView.as_view(), name="result_list"),
    path("results/<int:pk>", views.ResultDetailView.as_view(), name="result_detail"),
    path("results/<int:pk>/confirm", views.ResultConfirmView.as_view(), name="result_confirm"),
    path("boards/played", views.BoardPlayedView.as_view(), name="board_played"),
    path("tables/<int:pk>/new-codes", views.TableNewCodesView.as_view(), name="table_new_codes"),
    path("play-records", views.PlayRecordCreateView.as_view(), name="play_record_create"),
    path("play-records/<int:pk>", views.PlayRecordDetailView.as_view(), name="play_record_detail"),
    path("verify", views.VerifyView.as_view(), name="verify"),
    path("disputes", views.DisputeListView.as_view(), name="dispute_list"),
    path("disputes/<int:pk>", views.DisputeDetailView.as_view(), name="dispute_detail"),
    path("disputes/<int:pk>/rule", views.DisputeRuleView.as_view(), name="dispute_rule"),
    path(
        "disputes/<int:pk>/withdraw", views.DisputeWithdrawView.as_view(), name="dispute_withdraw"
    ),
]
