import pytest

from tests.factories import EventFactory, UserFactory


@pytest.mark.django_db
def test_home_page_lists_published_events_only(client):
    EventFactory(name="Open championship", published=True)
    EventFactory(name="Secret draft", published=False)
    html = client.get("/").content.decode()
    assert "Open championship" in html
    assert "Secret draft" not in html


@pytest.mark.django_db
def test_admin_login_works_for_staff(client):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    assert client.login(username="boss", password="pass-word-123")
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/tournaments/event/").status_code == 200
    assert client.get("/admin/tournaments/auditentry/").status_code == 200


@pytest.mark.django_db
def test_demo_command_is_idempotent_and_prints_logins(capsys):
    from django.core.management import call_command

    from tournaments.models import Event

    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    second = capsys.readouterr().out
    assert "organiser" in first and "botifarra-demo" in first
    assert Event.objects.count() == 1
    assert "already exists" in second
