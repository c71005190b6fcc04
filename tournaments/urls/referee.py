from django.urls import path

from tournaments.views import referee as views

app_name = "referee"
urlpatterns = [
    path("event/<int:pk>/", views.queue, name="queue"),
    path("event/<int:pk>/live/", views.queue_fragment, name="queue_fragment"),
    path("dispute/<int:pk>/", views.dispute, name="dispute"),
    path("dispute/<int:pk>/preview/", views.short_preview, name="short_preview"),
]
