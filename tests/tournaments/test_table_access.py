"""Table pages: side codes, rate limit, and who may see which table."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import ratelimit, table_access
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db


def tables(event):
    return list(Table.objects.filter(round__event=event, round__number=1).order_by("number"))


def enter_code(client, code, **extra):
    return client.post(reverse("table:enter"), {"code": code}, **extra)


def hold(client, table, side="NS"):
    """Enter our side's code from our half of the table card, as a player would."""
    response = enter_code(client, table.code_for(side))
    assert response.status_code == 302, response.content[:500]
    return client


def home(table):
    return reverse("table:table_home", args=[table.code_ns])


# --- code entry ----------------------------------------------------------------------------


def test_code_form_is_shown(client):
    response = client.get(reverse("table:enter"))
    assert response.status_code == 200
    assert b'name="code"' in response.content
    assert b"csrfmiddlewaretoken" in response.content


def test_a_side_code_opens_the_table_for_that_side_only(client, running_event):
    table = tables(running_event)[0]
    response = enter_code(client, table.code_ew)
    assert response.status_code == 302
    assert response["Location"] == reverse("table:table_home", args=[table.code_ew])
    assert client.session[table_access.SESSION_KEY] == {
        "table": table.pk,
        "side": "EW",
        "v": table.codes_version,
    }
    page = client.get(response["Location"]).content.decode()
    assert table.ns.pair.name in page and table.ew.pair.name in page
    assert "You enter for EW" in page
    # The seed's commitment before play, so the players can check the boards once it is revealed.
    assert running_event.commitment in page and running_event.seed not in page
    # The address may carry the other side's code: the side is still the one typed.
    assert "You enter for EW" in client.get(home(table)).content.decode()


def test_the_two_codes_of_a_table_differ():
    for table in Table.objects.all():
        assert table.code_ns != table.code_ew


def test_code_is_case_insensitive_and_ignores_spaces(client, running_event):
    table = tables(running_event)[0]
    typed = " ".join([table.code_ns[:3].lower(), table.code_ns[3:].lower()]) + " "
    response = enter_code(client, typed)
    assert response.status_code == 302
    assert client.session[table_access.SESSION_KEY]["table"] == table.pk


def test_wrong_code_is_refused_with_a_sentence(client, running_event):
    response = enter_code(
        client, "ZZZZZZ" if tables(running_event)[0].code_ns != "ZZZZZZ" else "YYYYYY"
    )
    assert response.status_code == 400
    assert "No open table has this code" in response.content.decode()
    assert table_access.SESSION_KEY not in client.session


def test_malformed_code_is_refused(client, running_event):
    response = enter_code(client, "O0I1")
    assert response.status_code == 400
    assert "6 letters and digits" in response.content.decode()


def test_code_of_a_closed_round_says_the_round_is_closed(client, running_event):
    table = tables(running_event)[0]
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    response = enter_code(client, table.code_ns)
    assert response.status_code == 403
    assert "round is closed" in response.content.decode()
    assert table_access.SESSION_KEY not in client.session


def test_pages_of_a_table_whose_round_closed_say_so(client, running_event):
    table = tables(running_event)[0]
    hold(client, table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    for url in (
        home(table),
        reverse("table:board_short", args=[table.code_ns, 1]),
        reverse("table:board_play", args=[table.code_ns, 1]),
    ):
        response = client.get(url)
        assert response.status_code == 403
        assert "This round is closed" in response.content.decode()


@pytest.fixture
def same_minute(monkeypatch):
    """The attempts of a test fall in one counting window even across a minute boundary."""
    monkeypatch.setattr(ratelimit, "_slot", lambda period: 12345)


def test_rate_limit_answers_429_once_the_failures_of_a_minute_are_spent(
    client, running_event, same_minute
):
    table = tables(running_event)[0]
    for _ in range(ratelimit.TABLE_CODE.limit):
        assert (
            enter_code(client, "ZZZZZ2" if table.code_ns != "ZZZZZ2" else "ZZZZZ3").status_code
            == 400
        )
    response = enter_code(client, table.code_ns)  # even the right code: no guessing by trying
    assert response.status_code == 429
    assert "Try again in" in response.content.decode()
    assert 1 <= int(response["Retry-After"]) <= 60
    assert table_access.SESSION_KEY not in client.session


def test_rate_limit_is_per_client_address(client, running_event, same_minute):
    table = tables(running_event)[0]
    for _ in range(ratelimit.TABLE_CODE.limit):
        enter_code(
            client, "ZZZZZ2" if table.code_ns != "ZZZZZ2" else "ZZZZZ3", REMOTE_ADDR="10.0.0.1"
        )
    assert enter_code(client, table.code_ns, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert enter_code(client, table.code_ns, REMOTE_ADDR="10.0.0.2").status_code == 302


def test_successes_do_not_count_towards_the_limit(client, running_event, same_minute):
    table = tables(running_event)[0]
    for _ in range(ratelimit.TABLE_CODE.limit + 2):
        assert enter_code(client, table.code_ns).status_code == 302


def test_new_codes_end_the_phones_of_the_old_ones(client, running_event, organiser):
    from tournaments.actors import Actor
    from tournaments.services import events

    table = tables(running_event)[0]
    hold(client, table, "NS")
    assert client.get(home(table)).status_code == 200
    old = table.code_ns
    events.table_new_codes(table=table, actor=Actor(user=organiser))
    table.refresh_from_db()
    assert table.code_ns != old
    assert client.get(home(table)).status_code == 403
    assert client.get(reverse("table:table_home", args=[old])).status_code == 403
    assert enter_code(Client(), old).status_code == 400
    assert enter_code(Client(), table.code_ns).status_code == 302


def test_a_phone_whose_table_got_new_codes_is_told_to_type_the_new_one(
    client, running_event, organiser
):
    """Not "another table" (audit): the phone held this table; the page and the outbox's JSON
    answer say new codes were given, whatever code the address holds (the answer must not tell
    which codes exist: review)."""
    from tournaments.actors import Actor
    from tournaments.services import events

    table, other = tables(running_event)[:2]
    hold(client, table, "NS")
    old = table.code_ns
    table = events.table_new_codes(table=table, actor=Actor(user=organiser))
    assert table.code_ns != old
    page = client.get(reverse("table:table_home", args=[old]))
    assert page.status_code == 403 and b"New codes for your table" in page.content
    sent = client.post(
        reverse("table:board_short", args=[old, 1]),
        data="{}",
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert sent.status_code == 403 and sent.json()["code"] == "replaced"
    assert "new code" in sent.json()["error"]
    for code in (other.code_ns, "ZZZZZZ", table.code_ns):
        answer = client.get(
            reverse("table:table_home", args=[code]), HTTP_ACCEPT="application/json"
        )
        assert (answer.status_code, answer.json()["code"]) == (403, "replaced"), code
    # Someone who never held the table learns nothing of its codes from the old one.
    stranger = Client().get(reverse("table:table_home", args=[old]))
    assert stranger.status_code == 302


def test_a_phone_holding_another_code_is_offered_the_form_with_the_addresss_code(
    client, running_event
):
    """A card's QR code scanned on a phone that typed another table's code: "Not your table",
    with the code form filled in with the QR's code, for any well-formed code alike."""
    table, other = tables(running_event)[:2]
    hold(client, table, "NS")
    for code in (other.code_ew, "ZZZZZZ"):
        page = client.get(reverse("table:table_home", args=[code]))
        assert page.status_code == 403 and b"Not your table" in page.content
        assert f'href="{reverse("table:enter")}?code={code}"'.encode() in page.content


# --- who sees which table ------------------------------------------------------------------


def page_urls(table):
    code = table.code_ns
    return [
        home(table),
        reverse("table:board_list", args=[code]),
        reverse("table:board_short", args=[code, 1]),
        reverse("table:short_preview", args=[code, 1]),
        reverse("table:board_play", args=[code, 1]),
        reverse("table:board_referee", args=[code, 1]),
    ]


def test_the_tables_code_holder_sees_its_pages(client, running_event):
    table = tables(running_event)[0]
    hold(client, table)
    for url in page_urls(table):
        assert client.get(url).status_code == 200, url


def test_another_tables_code_holder_is_forbidden(client, running_event):
    mine, other = tables(running_event)
    hold(client, mine)
    for url in page_urls(other):
        assert client.get(url).status_code == 403, url
    for name in ("board_confirm", "board_referee", "board_short"):
        url = reverse(f"table:{name}", args=[other.code_ns, 1])
        assert client.post(url, {"reason": "x"}).status_code == 403, url
    for name in ("play_legal", "play_submit"):
        url = reverse(f"table:{name}", args=[other.code_ns, 1])
        response = client.post(url, "{}", content_type="application/json")
        assert response.status_code == 403, url


def test_anonymous_visitors_are_sent_to_the_code_form(client, running_event):
    table = tables(running_event)[0]
    for url in page_urls(table):
        response = client.get(url, HTTP_ACCEPT="text/html")
        if "preview" in url:
            continue  # a JSON endpoint: covered below
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("table:enter"))
    response = client.get(
        reverse("table:short_preview", args=[table.code_ns, 1]), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403


def test_anonymous_redirect_does_not_tell_whether_a_code_exists(client, running_event):
    table = tables(running_event)[0]
    real = client.get(home(table))
    fake = client.get(reverse("table:table_home", args=["ZZZZZZ"]))
    assert real.status_code == fake.status_code == 302


def test_organiser_uses_the_pages_as_organiser(client, running_event, organiser):
    table = tables(running_event)[0]
    client.force_login(organiser)
    for url in page_urls(table):
        assert client.get(url).status_code == 200, url
    assert "You act as the organiser" in client.get(home(table)).content.decode()
    # Even after typing a side's code: an organiser's act is audited as the organiser's.
    enter_code(client, table.code_ew)
    assert "You act as the organiser" in client.get(home(table)).content.decode()


def test_logged_in_stranger_is_forbidden(client, running_event):
    table = tables(running_event)[0]
    client.force_login(UserFactory(username="stranger"))
    assert client.get(home(table)).status_code == 403


def test_logged_in_player_is_sent_to_their_table(client, running_event):
    table = tables(running_event)[0]
    user = UserFactory(username="ewplayer")
    player = table.ew.pair.player2
    player.user = user
    player.save()
    client.force_login(user)
    response = client.get(reverse("table:enter"))
    assert response.status_code == 302
    assert response["Location"] == reverse("table:table_home", args=[table.code_ew])
    page = client.get(home(table))
    assert page.status_code == 200
    assert "You enter for EW" in page.content.decode()
    # Another table of the round is not theirs.
    assert client.get(home(tables(running_event)[1])).status_code == 403


def test_normalise_code():
    assert table_access.normalise_code(" ab c-d e f ") == "ABCDEF"
    assert table_access.code_well_formed("ABCDEF")
    assert not table_access.code_well_formed("ABCDE0")
    assert not table_access.code_well_formed("ABCDE")


def test_failures_of_an_earlier_minute_do_not_count(client, running_event, monkeypatch):
    table = tables(running_event)[0]
    monkeypatch.setattr(ratelimit, "_slot", lambda period: 1)
    for _ in range(ratelimit.TABLE_CODE.limit):
        enter_code(client, "ZZZZZ2" if table.code_ns != "ZZZZZ2" else "ZZZZZ3")
    assert enter_code(client, table.code_ns).status_code == 429
    monkeypatch.setattr(ratelimit, "_slot", lambda period: 2)
    assert enter_code(client, table.code_ns).status_code == 302


def test_code_entry_still_counts_when_redis_is_down(
    client, running_event, same_minute, settings, monkeypatch
):
    """Redis down mid-event: the counter moves to the database; a table still joins."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    table = tables(running_event)[0]
    assert enter_code(client, table.code_ns).status_code == 302
    for _ in range(ratelimit.TABLE_CODE.limit):
        assert (
            enter_code(client, "ZZZZZ2" if table.code_ns != "ZZZZZ2" else "ZZZZZ3").status_code
            == 400
        )
    assert enter_code(client, table.code_ns).status_code == 429
