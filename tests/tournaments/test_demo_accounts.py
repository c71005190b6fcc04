"""``manage.py demo`` gives its accounts a published password: it never takes over an account
it did not make, and a later run leaves its own accounts as they are."""

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, UserFactory
from tournaments.demo import DEMO_EVENT, PASSWORD, DemoRefused, build_demo
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_an_existing_account_of_the_same_name_is_refused():
    UserFactory(username="admin")
    with pytest.raises(DemoRefused, match="admin"):
        build_demo()
    assert not Event.objects.exists()


def test_an_event_named_like_the_demos_does_not_make_the_database_a_demo():
    someone = UserFactory(username="admin")
    someone.set_password("their-own-secret")
    someone.save()
    EventFactory(name=DEMO_EVENT)  # an organiser's own, or an imported archive
    with pytest.raises(DemoRefused, match="admin"):
        build_demo()
    someone.refresh_from_db()
    assert someone.check_password("their-own-secret") and not someone.is_superuser


def test_a_second_run_leaves_the_accounts_as_they_are():
    build_demo()
    users = get_user_model().objects
    admin = users.get(username="admin")
    assert admin.check_password(PASSWORD) and admin.is_superuser
    admin.set_password("changed-by-the-operator")
    admin.save()
    users.filter(username="organiser").update(is_staff=True)
    build_demo()
    admin.refresh_from_db()
    assert admin.check_password("changed-by-the-operator")
    assert users.get(username="organiser").is_staff


def test_each_login_printed_names_the_events_its_account_runs():
    """The co-organiser's line named "the championship", which a new user took for the open
    championship taking sign-ups (a 403 there): it names the event it organises."""
    report = build_demo()
    roles = {username: role for username, _password, role in report.logins}
    organised = Event.objects.filter(organisers__username="coorganiser")
    assert [e.name for e in organised] == [DEMO_EVENT]
    assert f"co-organiser of {DEMO_EVENT}" in roles["coorganiser"]
