"""Public results pages: who sees what, in every language, and nothing of an open round."""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from tests.factories import EventFactory, UserFactory
from tests.tournaments.public_event import (
    assert_no_open_round_hands,
    build_played_event,
)
from tournaments.actors import Actor
from tournaments.models import Board, BoardResult, Entry, Event
from tournaments.queue import STANDINGS_QUEUED
from tournaments.services import events
from tournaments.templatetags.cards import hand_lines

pytestmark = pytest.mark.django_db
LANGUAGES = ("ca", "es", "en")


@pytest.fixture
def played_event(running_event, organiser):
    return build_played_event(running_event, organiser)


@pytest.fixture
def referee(played_event):
    user = UserFactory(username="referee")
    played_event.referees.add(user)
    return user


def get(client, name, *args, lang="en", query=""):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse(name, args=args) + query)


def page_urls(event):
    return [
        ("public:event", [event.pk], ""),
        ("public:standings", [event.pk], ""),
        ("public:standings", [event.pk], "?after=1"),
        ("public:standings", [event.pk], "?fragment=1"),
        ("public:round_results", [event.pk, 1], ""),
        ("public:round_results", [event.pk, 2], ""),
        ("public:traveller", [event.pk, 1], ""),
        ("public:scorecard", [event.pk, 1], ""),
        ("public:hand_records", [event.pk], ""),
        ("public:hand_records", [event.pk], "?round=1"),
    ]


def test_each_printable_page_has_print_and_a_pdf(client, played_event):
    """docs/walkthrough.md step 17: standings, round results, travellers, scorecards and hand
    records each print (*Print*) and have a PDF (the round page and the scorecard lacked one;
    audit)."""
    pk = played_event.pk
    for name, args, pdf_kind in (
        ("public:standings", [pk], "standings"),
        ("public:round_results", [pk, 1], "travellers"),
        ("public:traveller", [pk, 1], "travellers"),
        ("public:scorecard", [pk, 1], "scorecards"),
        ("public:hand_records", [pk], "hand-records"),
    ):
        page = get(client, name, *args).content.decode()
        assert "data-print" in page and "js/public.js" in page, name
        assert reverse("public:pdf", args=[pk, pdf_kind]) in page, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_public_page_renders_in_each_language(client, played_event, lang):
    first = played_event.entries.get(number=1).pair.name
    for name, args, query in page_urls(played_event):
        response = get(client, name, *args, lang=lang, query=query)
        assert response.status_code == 200, (name, query)
        content = response.content.decode()
        if not query.startswith("?fragment"):
            assert f'<html lang="{lang}">' in content, (name, query)
        if name not in ("public:hand_records",):
            assert first in content, (name, query)


@pytest.mark.parametrize("lang,month", [("ca", "de 20"), ("es", "de 20"), ("en", ", 20")])
def test_event_date_is_localised(client, played_event, lang, month):
    content = get(client, "public:event", played_event.pk, lang=lang).content.decode()
    assert played_event.date.strftime("%Y") in content
    assert month in content


def test_unpublished_event_is_404_for_the_public(client, running_event, organiser):
    event = build_played_event(running_event, organiser, publish=False)
    for name, args, query in page_urls(event):
        assert get(client, name, *args, query=query).status_code == 404, name
    stranger = UserFactory(username="stranger")
    client.force_login(stranger)
    assert get(client, "public:event", event.pk).status_code == 404


def test_unpublished_event_shows_a_banner_to_organisers_and_referees(
    client, running_event, organiser
):
    event = build_played_event(running_event, organiser, publish=False)
    ref = UserFactory(username="ref")
    event.referees.add(ref)
    for user in (organiser, ref):
        client.force_login(user)
        for name, args, query in page_urls(event):
            response = get(client, name, *args, query=query)
            assert response.status_code == 200, name
            if not query.startswith("?fragment"):
                assert "Not published yet" in response.content.decode(), name


def test_missing_event_is_404(client, db):
    assert get(client, "public:event", 999).status_code == 404


def test_event_page_describes_the_rules_and_the_fairness_check(client, played_event):
    Event.objects.filter(pk=played_event.pk).update(
        ruleset="obligada", match_mode="game", game_target=101
    )
    content = get(client, "public:event", played_event.pk).content.decode()
    assert "Obligada (eastern rules), game to 101, Sant Vicenç allowed in botifarra" in content
    assert played_event.commitment in content
    assert played_event.seed not in content  # secret while the event runs
    assert "botifarra commit --seed=" in content


def test_finished_event_reveals_the_seed_with_the_commands(client, played_event, organiser):
    actor = Actor(user=organiser)
    events.round_close(rnd=played_event.rounds.get(number=2), actor=actor, accept_missing=True)
    events.event_finish(event=played_event, actor=actor)
    content = get(client, "public:event", played_event.pk).content.decode()
    assert f"botifarra deal --seed={played_event.seed} --board N" in content
    assert f"botifarra commit --seed={played_event.seed}" in content
    assert played_event.commitment in content


def test_standings_show_ranks_shared_ranks_withdrawn_and_stale_note(client, played_event):
    snapshot = played_event.snapshots.get(after_round=1)  # the last round closed
    rows = snapshot.rows
    rows[1]["rank"] = rows[0]["rank"]  # a tie
    rows[2]["withdrawn"] = True
    snapshot.rows = rows
    snapshot.save()
    Event.objects.filter(pk=played_event.pk).update(
        standings_requested_at=timezone.now(),
        standings_updated_at=timezone.now() - timezone.timedelta(minutes=1),
    )
    cache.set(STANDINGS_QUEUED.format(played_event.pk), "now", timeout=60)  # one is queued
    # ... for a change the public may see: a result of the closed round (a ruling, say). The
    # open round's own results are the staff's (tests/security/test_public_stale_flag.py).
    BoardResult.objects.filter(table__round__event=played_event, table__round__number=1).update(
        updated_at=timezone.now()
    )
    content = get(client, "public:standings", played_event.pk).content.decode()
    assert content.count("(shared rank)") == 2
    assert 'class="withdrawn"' in content
    assert "being updated…" in content
    assert 'data-url="' in content and "fragment=1" in content  # refreshes itself
    fragment = get(client, "public:standings", played_event.pk, query="?fragment=1")
    assert "<html" not in fragment.content.decode()
    assert "being updated…" in fragment.content.decode()


def test_standings_after_an_earlier_round_do_not_refresh(client, played_event, organiser):
    client.force_login(organiser)  # organisers see round 2 live: round 1 is an earlier one
    content = get(client, "public:standings", played_event.pk, query="?after=1").content.decode()
    assert "Standings after round 1" in content
    assert "data-url=" not in content


def test_the_public_sees_no_standings_of_the_open_round(client, played_event, organiser):
    assert played_event.rounds.get(number=2).status == "open"
    assert played_event.snapshots.filter(after_round=2).exists()
    public = get(client, "public:standings", played_event.pk, query="?after=2").content.decode()
    assert "Standings after round 2" not in public and "Standings after round 1" in public
    client.force_login(organiser)
    staff = get(client, "public:standings", played_event.pk, query="?after=2").content.decode()
    assert "Standings after round 2" in staff


def test_standings_with_a_bad_round_is_a_clear_400(client, played_event):
    response = get(client, "public:standings", played_event.pk, query="?after=abc")
    assert response.status_code == 400
    assert "must be a number" in response.content.decode()


def test_traveller_lists_every_table_with_chart_and_deal(client, played_event):
    content = get(client, "public:traveller", played_event.pk, 1).content.decode()
    board = Board.objects.get(event=played_event, number=1)
    for tokens in board.hands.values():
        assert str(hand_lines(tokens)) in content
    assert content.count('<th scope="row" class="num">') == 2  # two tables
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in content and "<title" in content
    assert "NS net score" in content
    for result in board.results.all():
        assert f">{result.score_ns}<" in content or f">{result.score_ew}<" in content


def test_open_round_boards_never_reach_the_public(client, played_event):
    event = played_event
    response = get(client, "public:traveller", event.pk, 3)
    assert response.status_code == 403
    assert_no_open_round_hands(response.content.decode(), event)
    assert get(client, "public:hand_records", event.pk, query="?round=2").status_code == 403
    for name, args, query in page_urls(event):
        content = get(client, name, *args, query=query).content.decode()
        assert_no_open_round_hands(content, event)
        assert reverse("public:traveller", args=[event.pk, 3]) not in content, name
    round2 = get(client, "public:round_results", event.pk, 2).content.decode()
    assert "shown once the round is closed" in round2
    scorecard = get(client, "public:scorecard", event.pk, 1).content.decode()
    assert ">3</a></th>" not in scorecard and ">4</a></th>" not in scorecard


def test_a_player_of_the_open_round_does_not_see_other_travellers(client, played_event):
    user = UserFactory(username="player")
    entry = played_event.entries.get(number=1)
    entry.pair.player1.user = user
    entry.pair.player1.save()
    client.force_login(user)
    assert get(client, "public:traveller", played_event.pk, 3).status_code == 403


def test_organisers_and_referees_see_open_round_boards(client, played_event, organiser, referee):
    for user in (organiser, referee):
        client.force_login(user)
        response = get(client, "public:traveller", played_event.pk, 3)
        assert response.status_code == 200
        board = Board.objects.get(event=played_event, number=3)
        assert str(hand_lines(board.hands["N"])) in response.content.decode()
        # Boards of rounds not played yet too: organisers make the physical boards before play.
        response = get(client, "public:hand_records", played_event.pk, query="?round=3")
        assert response.status_code == 200
        assert response.content.decode().count('class="hr-board') == 2


def test_hand_records_put_four_boards_to_a_page(client, running_event, organiser):
    Event.objects.filter(pk=running_event.pk).update(boards_per_round=6, rounds_count=1)
    running_event.refresh_from_db()
    events.boards_generate(event=running_event)
    client.force_login(organiser)
    content = get(
        client, "public:hand_records", running_event.pk, query="?round=1"
    ).content.decode()
    assert content.count('class="hr-board') == 6
    assert content.count('class="hr-page page-break"') == 1  # 4 + 2
    assert content.count('class="hr-page') == 2


def test_bad_board_pair_and_round_numbers_are_404(client, played_event):
    assert get(client, "public:traveller", played_event.pk, 999).status_code == 404
    assert get(client, "public:scorecard", played_event.pk, 99).status_code == 404
    assert get(client, "public:round_results", played_event.pk, 3).status_code == 404
    assert get(client, "public:hand_records", played_event.pk, query="?round=x").status_code == 400


def test_table_cards_with_their_codes_are_for_organisers_only(client, played_event, organiser):
    url = reverse("public:table_cards", args=[played_event.pk, 2])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(UserFactory(username="nobody"))
    assert client.get(url).status_code == 403
    referee = UserFactory(username="table-card-referee")
    played_event.referees.add(referee)
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    content = client.get(url).content.decode()
    tables = list(played_event.rounds.get(number=2).tables.all())
    for table in tables:
        for code in (table.code_ns, table.code_ew):
            assert code in content
            assert f"http://testserver/table/{code}/" in content
        assert table.ns.pair.name in content and table.ew.pair.name in content
    assert content.count("qrline") == 2 * len(tables)  # one QR code per side of each table
    # Every table holds the seed's commitment before play (the seed stays secret).
    assert content.count(played_event.commitment) == len(tables)
    assert played_event.seed not in content


def test_withdrawn_pair_marked_on_event_page(client, played_event):
    Entry.objects.filter(event=played_event, number=2).update(withdrawn_after_round=1)
    assert "withdrawn" in get(client, "public:event", played_event.pk).content.decode()


def test_standings_page_reads_in_few_queries(client, played_event, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        get(client, "public:standings", played_event.pk)
    with django_assert_max_num_queries(20):
        get(client, "public:traveller", played_event.pk, 1)
    with django_assert_max_num_queries(20):
        get(client, "public:scorecard", played_event.pk, 1)


def test_hand_records_read_in_few_queries(
    client, played_event, organiser, django_assert_max_num_queries
):
    client.force_login(organiser)
    with django_assert_max_num_queries(15):
        get(client, "public:hand_records", played_event.pk, query="?round=1")
    with django_assert_max_num_queries(15):
        get(client, "public:table_cards", played_event.pk, 2)


@pytest.mark.django_db
def test_a_game_without_a_target_is_described_by_its_deals_not_as_a_game_to_none():
    from tournaments.views.public import ruleset_words

    girona = EventFactory(match_mode=Event.MatchMode.GAME, game_target=None, deal_limit=8)
    words = ruleset_words(girona)
    assert "None" not in words
    assert "game of a fixed number of deals" in words and "deal limit 8" in words
    assert "game to 101" in ruleset_words(EventFactory(match_mode=Event.MatchMode.GAME))


def test_the_event_page_links_the_room_screen(client, played_event):
    """docs/organisers.md sends organisers to the screen from the event's public page."""
    content = client.get(reverse("public:event", args=[played_event.pk])).content.decode()
    assert f'href="{reverse("public:screen", args=[played_event.pk])}"' in content
