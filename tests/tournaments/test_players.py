"""One player across events: the merge of duplicates (plan, refusals, audit), what a club and the
public see of a player (docs/clubs.md, "What a club sees of its members"), the player and
partnership pages, and never a score of an open round."""

import random
from datetime import date

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.club_history import club_evening, evening_with_a_replacement, players
from tournaments.actors import Actor
from tournaments.demo import play_round
from tournaments.models import AuditEntry, Pair, Player, PlayerMerge, PlayerRating
from tournaments.services import NotAllowed, ServiceError, changes, events
from tournaments.services import players as svc
from tournaments.services.pairings import pairings_propose
from tournaments.services.ratings import ratings_recompute
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser):
    club = ClubFactory(name="Penya Botifarrera")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def two_evenings(club, organiser):
    """Anna plays with Biel on the first evening; on the second she was typed in again as a new
    player ("anna") and played with Carles."""
    anna, biel, carles, dolors, eva, ferran, gina, hug = players(
        "Anna", "Biel", "Carles", "Dolors", "Eva", "Ferran", "Gina", "Hug", club=club
    )
    (anna2,) = players("anna")
    first = club_evening(
        club,
        organiser,
        [(anna, biel), (carles, dolors), (eva, ferran), (gina, hug)],
        when=date(2026, 10, 1),
    )
    second = club_evening(
        club,
        organiser,
        [(anna2, carles), (biel, dolors), (eva, gina), (ferran, hug)],
        when=date(2026, 10, 8),
    )
    return {
        "anna": anna,
        "anna2": anna2,
        "biel": biel,
        "carles": carles,
        "first": first,
        "second": second,
    }


# --- merge ------------------------------------------------------------------------------------


def test_a_merge_moves_the_duplicates_pairs_and_is_audited_in_each_event(
    two_evenings, organiser, django_capture_on_commit_callbacks
):
    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    second = two_evenings["second"]
    moved_pair = Pair.objects.get(player1=anna2)
    with django_capture_on_commit_callbacks(execute=True):
        record = svc.players_merge(keep=anna, other=anna2, actor=Actor(user=organiser))
    assert not Player.objects.filter(pk=anna2.pk).exists()
    moved_pair.refresh_from_db()
    assert moved_pair.player1 == anna
    assert record.moved["pairs"] == [moved_pair.pk] and record.moved["events"] == [second.pk]
    audit = AuditEntry.objects.get(event=second, action="player_merged")
    assert audit.actor == "organiser" and f"#{anna2.pk}" in audit.changes["player"][0]
    assert not AuditEntry.objects.filter(event=two_evenings["first"], action="player_merged")
    # The club's ratings were recomputed: one rating for Anna, over both evenings.
    rating = PlayerRating.objects.get(player=anna)
    assert rating.events == 2


def test_a_merge_keeps_the_more_private_of_the_two_choices(client, two_evenings, organiser):
    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    anna2.user = UserFactory(username="anna")
    anna2.visibility = Player.Visibility.HIDDEN  # her choice, on her account
    anna2.save()
    assert client.get(f"/players/{anna.pk}/").status_code == 200
    svc.players_merge(keep=anna, other=anna2, actor=Actor(user=organiser))
    anna.refresh_from_db()
    assert anna.visibility == Player.Visibility.HIDDEN and anna.user.username == "anna"
    assert client.get(f"/players/{anna.pk}/").status_code == 404


def test_a_merge_keeps_the_duplicates_e_mail_and_the_results_sent_to_it(
    client, two_evenings, organiser
):
    """Players audit, 2026-12-06: a merge dropped the duplicate's e-mail and language without a
    word, and deleted the record of the results already sent to it (sent again later)."""
    from tournaments.models import ResultsMail

    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    anna2.email, anna2.language = "anna@example.org", "ca"
    anna2.save()
    sent = ResultsMail.objects.create(
        event=two_evenings["second"], player=anna2, email="anna@example.org"
    )
    client.force_login(organiser)
    page = client.get(reverse("players:merge", args=[anna.pk]), {"other": anna2.pk})
    assert "The e-mail address anna@example.org is kept." in page.content.decode()
    svc.players_merge(keep=anna, other=anna2, actor=Actor(user=organiser))
    anna.refresh_from_db()
    assert (anna.email, anna.language) == ("anna@example.org", "ca")
    sent.refresh_from_db()
    assert sent.player == anna
    # The player who stays keeps their own address.
    other = Player.objects.create(name="Anna Puig", email="other@example.org", club=anna.club)
    svc.players_merge(keep=other, other=anna, actor=Actor(user=organiser))
    other.refresh_from_db()
    assert other.email == "other@example.org"


def test_a_merge_of_two_players_sent_one_events_results_keeps_one_sending(two_evenings, organiser):
    """One row a person and event: moving the duplicate's onto the one who stays must not
    break that (an IntegrityError, a 500) when both were sent that event's results."""
    from tournaments.models import ResultsMail

    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    second = two_evenings["second"]
    ResultsMail.objects.create(event=second, player=anna, email="a@example.org")
    ResultsMail.objects.create(event=second, player=anna2, email="b@example.org")
    svc.players_merge(keep=anna, other=anna2, actor=Actor(user=organiser))
    assert list(ResultsMail.objects.values_list("event", "player")) == [(second.pk, anna.pk)]


def test_a_merge_moves_substitutions_too(two_evenings, organiser, club):
    """A substitute is typed in by name (a new player); merged into the one who exists."""
    anna, biel, carles = two_evenings["anna"], two_evenings["biel"], two_evenings["carles"]
    running = club_evening(
        club,
        organiser,
        [(biel, carles), *[tuple(players(f"X{i}", f"Y{i}")) for i in range(3)]],
        when=date(2026, 10, 15),
        play=1,
    )
    entry = running.entries.get(number=1)
    sub = changes.player_substitute(entry=entry, actor=Actor(user=organiser), seat=2, name="Anna")
    typed_in = sub.player_in
    assert typed_in != anna
    plan = svc.merge_plan(keep=anna, other=typed_in, actor=Actor(user=organiser))
    assert plan.substitutions == [sub] and plan.events == [running]
    svc.players_merge(keep=anna, other=typed_in, actor=Actor(user=organiser))
    sub.refresh_from_db()
    entry.refresh_from_db()
    assert sub.player_in == anna and entry.pair.player2 == anna


def test_two_players_of_the_same_event_cannot_be_merged(two_evenings, organiser):
    anna, carles = two_evenings["anna"], two_evenings["carles"]
    plan = svc.merge_plan(keep=anna, other=carles, actor=Actor(user=organiser))
    assert not plan.ok and "Both played in" in plan.problems[0]
    with pytest.raises(ServiceError):
        svc.players_merge(keep=anna, other=carles, actor=Actor(user=organiser))
    assert Player.objects.filter(pk=carles.pk).exists()


def test_two_accounts_or_two_licences_are_two_people(two_evenings, organiser):
    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    anna.licence, anna2.licence = "CAT-1", "CAT-2"
    anna.save()
    anna2.save()
    plan = svc.merge_plan(keep=anna, other=anna2, actor=Actor(user=organiser))
    assert not plan.ok and "licence" in plan.problems[0]
    anna2.licence = ""
    anna2.save()
    anna.user, anna2.user = UserFactory(), UserFactory()
    anna.save()
    anna2.save()
    plan = svc.merge_plan(keep=anna, other=anna2, actor=Actor(user=organiser))
    assert plan.problems == ["Both players have their own account: they are two people."]


def test_only_staff_or_an_organiser_of_both_players_clubs_may_merge(two_evenings):
    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    other_club = ClubFactory(name="Altres")
    stranger = UserFactory()
    other_club.organisers.add(stranger)
    with pytest.raises(NotAllowed):
        svc.players_merge(keep=anna, other=anna2, actor=Actor(user=stranger))
    staff = UserFactory(is_staff=True)
    assert svc.merge_plan(keep=anna, other=anna2, actor=Actor(user=staff)).ok


def test_the_merge_page_shows_what_moves_and_merges_only_when_confirmed(
    client, two_evenings, organiser
):
    anna, anna2 = two_evenings["anna"], two_evenings["anna2"]
    client.force_login(organiser)
    url = reverse("players:merge", args=[anna.pk])
    page = client.get(url).content.decode()
    assert f"?other={anna2.pk}" in page  # the same name is offered
    shown = client.get(url, {"other": anna2.pk})
    assert shown.status_code == 200
    assert "1 pair moves to Anna." in shown.content.decode()
    assert two_evenings["second"].name in shown.content.decode()
    assert Player.objects.filter(pk=anna2.pk).exists()  # looking changes nothing
    done = client.post(url, {"other": anna2.pk, "confirm": "1"})
    assert done.status_code == 302
    assert not Player.objects.filter(pk=anna2.pk).exists()
    assert PlayerMerge.objects.get().merged_name == "anna"


def test_the_merge_page_refuses_bad_input_with_the_reason(client, two_evenings, organiser):
    anna = two_evenings["anna"]
    client.force_login(organiser)
    url = reverse("players:merge", args=[anna.pk])
    missing = client.post(url, {"other": 999999, "confirm": "1"})
    assert missing.status_code == 400 and "may merge them" in missing.content.decode()
    # A player of no club of this organiser gets the same answer as a number nobody has: the
    # form does not tell which numbers exist (a hidden player's page is a 404).
    stranger = PlayerFactory(name="Some One Else")
    elsewhere = client.post(url, {"other": stranger.pk, "confirm": "1"})
    assert elsewhere.status_code == missing.status_code
    assert elsewhere.context["form"].errors == missing.context["form"].errors
    same_event = client.post(url, {"other": two_evenings["carles"].pk, "confirm": "1"})
    assert same_event.status_code == 409 and "Both played in" in same_event.content.decode()
    assert Player.objects.filter(pk=two_evenings["carles"].pk).exists()
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


# --- who sees what ----------------------------------------------------------------------------


def _rate(club):
    ratings_recompute(club.pk)


def test_the_public_sees_what_the_player_allowed(client, two_evenings, club):
    _rate(club)
    anna = two_evenings["anna"]
    url = reverse("players:player", args=[anna.pk])
    page = client.get(url).content.decode()  # the default: events, partners, results
    assert two_evenings["first"].name in page and "Biel" in page
    assert 'id="ratings"' not in page
    anna.visibility = Player.Visibility.RATING
    anna.save()
    assert 'id="ratings"' in client.get(url).content.decode()
    anna.visibility = Player.Visibility.HIDDEN
    anna.save()
    assert client.get(url).status_code == 404


def test_a_clubs_organiser_sees_a_private_members_page_and_rating(
    client, two_evenings, club, organiser
):
    _rate(club)
    anna = two_evenings["anna"]
    anna.visibility = Player.Visibility.HIDDEN
    anna.save()
    client.force_login(organiser)
    page = client.get(reverse("players:player", args=[anna.pk])).content.decode()
    assert 'id="ratings"' in page and "This page is private" in page
    other = UserFactory()
    ClubFactory(name="Altres").organisers.add(other)
    client.force_login(other)
    assert client.get(reverse("players:player", args=[anna.pk])).status_code == 404


def test_only_the_player_changes_their_privacy(client, two_evenings):
    anna = two_evenings["anna"]
    anna.user = UserFactory()
    anna.save()
    url = reverse("players:visibility", args=[anna.pk])
    client.force_login(UserFactory())
    client.post(url, {"visibility": "hidden"})
    anna.refresh_from_db()
    assert anna.visibility == Player.Visibility.RESULTS
    client.force_login(anna.user)
    page = client.get(reverse("players:player", args=[anna.pk])).content.decode()
    assert 'id="privacy"' in page
    client.post(url, {"visibility": "hidden"})
    anna.refresh_from_db()
    assert anna.visibility == Player.Visibility.HIDDEN


def test_a_player_page_never_shows_a_place_from_an_open_round(client, club, organiser):
    lineup = [tuple(players(f"A{i}", f"B{i}")) for i in range(4)]
    running = club_evening(club, organiser, lineup, when=date(2026, 11, 1), rounds=2, play=0)

    pairings_propose(running.pk, 1, actor=Actor(user=organiser))
    rnd = events.round_open(rnd=running.rounds.get(number=1), actor=Actor(user=organiser))
    play_round(rnd, random.Random(3))
    standings_recompute(running.pk)
    url = reverse("players:player", args=[lineup[0][0].pk])
    public = client.get(url).content.decode()
    assert running.name in public and "no round closed yet" in public
    assert " of 4" not in public
    client.force_login(organiser)  # the event's organiser sees the live place, as everywhere
    assert " of 4" in client.get(url).content.decode()


def test_the_partnership_page_lists_the_events_played_together(client, two_evenings):
    anna, biel = two_evenings["anna"], two_evenings["biel"]
    page = client.get(reverse("players:partnership", args=[anna.pk, biel.pk])).content.decode()
    assert "1 event together." in page
    assert two_evenings["first"].name in page and two_evenings["second"].name not in page
    biel.visibility = Player.Visibility.HIDDEN
    biel.save()
    assert client.get(reverse("players:partnership", args=[anna.pk, biel.pk])).status_code == 404


def test_a_merge_moves_the_duplicates_places_on_teams(client, club, organiser):
    """A player typed again for a team event: the merge moves the team membership (it used to
    fail with a server error: the membership protects the player it names)."""
    from tests.teams.conftest import team_event
    from tournaments.models import TeamMember

    team = team_event(Actor(user=organiser), 2, rounds_count=1, boards_per_round=2, club=club)
    member = TeamMember.objects.filter(team__event=team).order_by("pk").first()
    (keep,) = players(member.player.name, club=club)
    client.force_login(organiser)
    url = reverse("players:merge", args=[keep.pk])
    page = client.get(url, {"other": member.player.pk})
    assert page.status_code == 200 and "1 place on a team moves." in page.content.decode()
    done = client.post(url, {"other": member.player.pk, "confirm": "1"})
    assert done.status_code == 302
    assert TeamMember.objects.get(pk=member.pk).player_id == keep.pk
    assert not Player.objects.filter(pk=member.player_id).exists()
    assert PlayerMerge.objects.get().moved["teams"] == [member.team_id]


def test_a_place_on_a_team_of_an_event_not_finished_is_not_given_to_an_account(club, organiser):
    """The team's member would sit at its match's tables once lined up: merged into a player
    with an account, that account would reach them (tests/security/test_merge_takeover.py)."""
    from tests.teams.conftest import team_event
    from tournaments.models import TeamMember

    team = team_event(Actor(user=organiser), 2, rounds_count=1, boards_per_round=2, club=club)
    member = TeamMember.objects.filter(team__event=team).order_by("pk").first()
    (keep,) = players(member.player.name, club=club)
    keep.user = UserFactory()
    keep.save()
    plan = svc.merge_plan(keep=keep, other=member.player, actor=Actor(user=organiser))
    assert not plan.ok and "Merge them once the event is finished." in plan.problems[0]


def test_two_players_of_the_same_team_event_cannot_be_merged(club, organiser):
    from tests.teams.conftest import team_event
    from tournaments.models import TeamMember

    team = team_event(Actor(user=organiser), 2, rounds_count=1, boards_per_round=2, club=club)
    a, b = (m.player for m in TeamMember.objects.filter(team__event=team).order_by("pk")[:2])
    plan = svc.merge_plan(keep=a, other=b, actor=Actor(user=organiser))
    assert plan.problems == [f"Both played in {team.name}: they are two people."]


def test_a_hidden_partner_is_not_listed_among_a_players_partners(client, club, organiser):
    """clubs.md: a hidden player's name appears only on their events' pages and the season."""
    ps = players(*[f"H{i}" for i in range(8)], club=club)
    Player.objects.filter(pk=ps[4].pk).update(
        name="Hidden Partner", visibility=Player.Visibility.HIDDEN
    )
    club_evening(club, organiser, [(ps[i], ps[i + 4]) for i in range(4)], when=date(2026, 10, 1))
    assert client.get(reverse("players:player", args=[ps[4].pk])).status_code == 404
    page = client.get(reverse("players:player", args=[ps[0].pk])).content.decode()
    partners = (
        page.split('id="partners"')[1].split("</section>")[0] if 'id="partners"' in page else ""
    )
    assert "Hidden Partner" not in partners
    assert reverse("players:partnership", args=[ps[0].pk, ps[4].pk]) not in page


def test_an_event_finished_before_its_planned_rounds_shows_a_final_place(client, club, organiser):
    field = players(*[f"S{i}" for i in range(8)], club=club)
    event = club_evening(
        club,
        organiser,
        [(field[i], field[i + 4]) for i in range(4)],
        when=date(2026, 9, 1),
        rounds=3,
        play=2,
        finish=False,
    )
    url = reverse("players:player", args=[field[0].pk])
    assert "after round 2" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    events.event_finish(event=event, actor=Actor(user=organiser))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert " of 4" in page and "after round" not in page


def test_a_merge_audits_an_event_where_the_duplicate_was_replaced_before_round_1(club, organiser):
    field = players(*[f"Q{i}" for i in range(8)], club=club)
    event, sub = evening_with_a_replacement(club, organiser, field, when=date(2026, 10, 1))
    duplicate = sub.player_out  # replaced before round 1: never played
    (keep,) = players("Q4 again", club=club)
    plan = svc.merge_plan(keep=keep, other=duplicate, actor=Actor(user=organiser))
    assert plan.ok and plan.substitutions == [sub] and plan.events == [event]
    svc.players_merge(keep=keep, other=duplicate, actor=Actor(user=organiser))
    sub.refresh_from_db()
    assert sub.player_out == keep
    assert AuditEntry.objects.filter(event=event, action="player_merged").count() == 1
