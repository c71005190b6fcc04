"""A merge of players never gives an account the seats of an event that is not finished.

A club's organiser (not an organiser or referee of the event) merged a club member who sits at
table 1 of the OPEN round into the organiser's own player record (which has the organiser's
account): the member's pair then named the organiser's account, which "sat at" table 1 and read
board 1's cards (table 1 has played it, table 2 has not) and table 1's live results. The merge
is now refused while the seats it would hand to an account are in an event not finished
(docs/clubs.md, "Merging duplicates"). (Fair-play audit, item 6.)
"""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, UserFactory
from tournaments.actors import Actor
from tournaments.models import Pair, Player
from tournaments.services import events
from tournaments.services import players as svc

pytestmark = pytest.mark.django_db


def _seated_member_and_club_boss(scene):
    """Table 1's NS second player (no account), made a member of the event's club; the club's
    organiser, who neither organises nor referees the event; and the organiser's own record."""
    club = scene.event.club
    member = scene.world.table.ns.pair.player2
    member.club = club
    member.save(update_fields=["club"])
    boss = UserFactory(username="clubboss")
    club.organisers.add(boss)
    return member, boss, PlayerFactory(name="Club Boss", club=club, user=boss)


def test_a_club_organiser_cannot_take_a_seat_of_the_open_round_by_merging(scene):
    event = scene.event
    member, boss, keep = _seated_member_and_club_boss(scene)
    assert not event.is_referee(boss)

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=boss).key}")
    before = api.get(f"/api/v1/events/{event.pk}/boards/1").json()
    assert before["hands_visible"] is False
    assert api.get(f"/api/v1/results?event={event.pk}").json()["count"] == 0

    web = scene.web("anonymous", fresh=True)
    web.force_login(boss)
    response = web.post(f"/players/{keep.pk}/merge/", {"other": member.pk, "confirm": "1"})
    assert response.status_code == 409, response.content[:500]
    assert "once the event is finished" in response.content.decode()
    assert Player.objects.filter(pk=member.pk).exists()

    after = api.get(f"/api/v1/events/{event.pk}/boards/1").json()
    live = api.get(f"/api/v1/results?event={event.pk}").json()
    assert after["hands_visible"] is False and live["count"] == 0, (after, live["count"])


def test_nor_hand_a_seated_records_account_to_another_records_seats(scene):
    """The other way round: the duplicate has the account, the player who stays the seat."""
    seated, boss, other = _seated_member_and_club_boss(scene)
    web = scene.web("anonymous", fresh=True)
    web.force_login(boss)
    response = web.post(f"/players/{seated.pk}/merge/", {"other": other.pk, "confirm": "1"})
    assert response.status_code == 409, response.content[:500]
    seated.refresh_from_db()
    assert seated.user_id is None and Player.objects.filter(pk=other.pk).exists()


def test_once_the_event_is_finished_the_same_merge_is_allowed(scene):
    """After the event every card and score is public: a duplicate is merged as always."""
    event = scene.event
    member, boss, keep = _seated_member_and_club_boss(scene)
    plan = svc.merge_plan(keep=keep, other=member, actor=Actor(user=boss))
    assert plan.problems == [
        f"{event.name} is not finished and one of the two players has a place in it: the merge "
        "would give that place to the other's account, with the cards and live results of its "
        "tables. Merge them once the event is finished."
    ]
    organiser = Actor(user=scene.world.users["organiser"])
    events.round_close(rnd=event.rounds.get(number=1), actor=organiser, accept_missing=True)
    events.event_finish(event=event, actor=organiser)
    svc.players_merge(keep=keep, other=member, actor=Actor(user=boss))
    assert not Player.objects.filter(pk=member.pk).exists()


def test_players_without_an_account_still_merge_during_an_event(scene):
    """No account gains a seat: a duplicate typed in again is merged even while it plays."""
    club = scene.event.club
    member = scene.world.table.ns.pair.player2
    member.club = club
    member.save(update_fields=["club"])
    keep = PlayerFactory(name=member.name, club=club)
    staff = UserFactory(is_staff=True)
    assert svc.merge_plan(keep=keep, other=member, actor=Actor(user=staff)).ok
    svc.players_merge(keep=keep, other=member, actor=Actor(user=staff))
    assert Pair.objects.get(pk=scene.world.table.ns.pair_id).player2 == keep
