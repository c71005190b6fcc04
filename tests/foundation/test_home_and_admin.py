import pytest

from tests.factories import EventFactory, UserFactory
from tournaments import play as adapter


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
def test_the_demo_never_takes_over_an_account_it_did_not_make():
    """Its accounts get the README's password: an existing "admin" keeps its own (audit)."""
    from django.core.management import CommandError, call_command

    from tournaments.models import Event

    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    with pytest.raises(CommandError, match="accounts named admin"):
        call_command("demo")
    admin.refresh_from_db()
    assert admin.check_password("pass-word-123") and not admin.check_password("botifarra-demo")
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_demo_command_is_idempotent_and_prints_logins(capsys):
    from django.core.management import call_command

    from tournaments.models import Event, PlayerRating, Registration, Season

    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    second = capsys.readouterr().out
    assert "organiser" in first and "botifarra-demo" in first
    # the championship, the evening, the round robin, the groups and knockout, the season's six
    # finished evenings, the open championship, the team event, and the events of the presets
    # not shown by those (tournaments.demo.PRESET_EVENTS: two opens, Girona's groups, a club
    # league)
    assert Event.objects.count() == 16
    season = Season.objects.get()
    assert Event.objects.filter(club=season.club, status="finished").count() == 6
    assert PlayerRating.objects.filter(club=season.club, events=6).count() == 12
    open_signups = Registration.objects.filter(event__status="registration")
    assert open_signups.filter(status="confirmed").count() == 3
    assert open_signups.filter(status="solo").count() == 2  # for the organiser to match
    assert f"/clubs/{season.club_id}/seasons/{season.pk}/" in first
    assert "already exist" in second
    # A second run still prints every address of the first (the season's and the sign-ups'),
    # but the invitation's link, which is shown once.
    assert [line for line in second.splitlines() if "http" in line] == [
        line for line in first.splitlines() if "http" in line and "shown once" not in line
    ]


@pytest.mark.django_db
def test_demo_shows_everything_a_newcomer_should_see(client):
    """Issue 2's target: a club, organiser, referee, 16 pairs, a Swiss event with seeded boards,
    two rounds played, one dispute open, standings computed; and an evening whose round 2
    pairings wait for the organiser (issue 6)."""
    from django.core.management import call_command

    from tournaments.demo import DEMO_EVENING, DEMO_EVENT
    from tournaments.models import Dispute, Event, Round

    call_command("demo")
    event = Event.objects.get(name=DEMO_EVENT)
    assert event.entries.count() == 16 and event.referees.exists()
    assert event.boards.count() == event.total_boards
    assert all(adapter.matches_seed(board) for board in event.boards.all())
    assert list(event.rounds.values_list("status", flat=True)) == ["closed", "open"]
    assert Dispute.objects.filter(
        result__table__round__event=event, status="open", reason="illegal_play"
    ).exists()
    assert event.snapshots.filter(after_round=2).exists()
    evening = Event.objects.get(name=DEMO_EVENING)
    assert evening.snapshots.filter(after_round=1).exists()
    pending = evening.rounds.get(number=2)
    assert pending.status == Round.Status.PENDING and pending.tables.count() == 4
    assert client.login(username="organiser", password="botifarra-demo")
    page = client.get(f"/manage/{evening.pk}/rounds/2/")
    assert page.status_code == 200


@pytest.mark.django_db
def test_demo_round_in_progress_shows_every_console_state(client, capsys):
    """Issue 14: a round in progress with tables in every state, a console and a projector
    view to open (their addresses printed)."""
    from django.core.management import call_command

    from tournaments import selectors
    from tournaments.demo import DEMO_EVENT
    from tournaments.models import Event

    call_command("demo")
    printed = capsys.readouterr().out
    event = Event.objects.get(name=DEMO_EVENT)
    assert f"/manage/{event.pk}/rounds/2/" in printed and f"/e/{event.pk}/screen/" in printed
    rows = selectors.round_tables(event.rounds.get(number=2))
    states = {cell.state for row in rows for cell in row.cells}
    assert {"not_started", "entered", "confirmed", "disputed", "missing"} <= states
    assert any(row.behind for row in rows)
    assert any(cell.declared_without_result for row in rows for cell in row.cells)
    assert client.login(username="organiser", password="botifarra-demo")
    console = client.get(f"/manage/{event.pk}/rounds/2/console/")
    assert console.status_code == 200 and 'data-state="not_started"' in console.content.decode()
    assert client.get(f"/e/{event.pk}/screen/").status_code == 200


@pytest.mark.django_db
def test_demo_shows_roles_an_invitation_and_the_new_pages(client, capsys):
    """Issue 14: a co-organiser appointed, a referee's invitation pending (its link printed,
    and it works), the crosstable, the pairings list and the check-the-boards page."""
    import re

    from django.core.management import call_command

    from tournaments.demo import DEMO_EVENT
    from tournaments.models import AuditEntry, Event

    call_command("demo")
    printed = capsys.readouterr().out
    event = Event.objects.get(name=DEMO_EVENT)
    assert event.organisers.filter(username="coorganiser").exists()
    assert AuditEntry.objects.filter(event=event, action="role_granted").count() == 2
    assert event.invitations.filter(accepted_at=None, revoked_at=None).count() == 1
    for path in ("roles/", "crosstable/", "pairings/", "check/"):
        assert path in printed
    link = re.search(r"https?://\S+(/accounts/invitation/\S+/)", printed).group(1)
    assert client.get(link).status_code == 200
    assert client.login(username="coorganiser", password="botifarra-demo")
    page = client.get(f"/manage/{event.pk}/roles/").content.decode()
    assert "nova.arbitra@example.org" in page and 'data-user="coorganiser"' in page
    for path in ("crosstable/", "pairings/?round=2", "check/"):
        assert client.get(f"/e/{event.pk}/{path}").status_code == 200
