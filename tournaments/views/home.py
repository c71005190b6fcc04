from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Event


def home(request: HttpRequest) -> HttpResponse:
    events = Event.objects.filter(published=True).select_related("club")[:30]
    return render(request, "home.html", {"events": events})
