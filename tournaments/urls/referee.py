from django.urls import path

from tournaments.views import referee as views

app_name = "referee"
urlpatterns = [
    path("event/<num:pk>/", views.queue, name="queue"),
    path("event/<num:pk>/live/", views.queue_fragment, name="queue_fragment"),
    path("event/<num:pk>/results/<num:result_pk>/review/", views.review, name="review"),
    path("dispute/<num:pk>/", views.dispute, name="dispute"),
    path("dispute/<num:pk>/preview/", views.short_preview, name="short_preview"),
]
