"""What the archive import checks of each result and time (issue 21, docs/api.md "Event
archive"): a result whose score is not what its own trump, calls and hand totals score, or not
what its play record or its ruling gives, and a time that cannot be held in UTC, are refused with
a 400 naming the section, never a 500, storing nothing; while every archive the product exports
(the demo's finished events, the championship with a ruling of every kind) imports."""

import copy
import datetime as dt
import io
import json
import random
import unicodedata
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.api.event_run import API, run_event
from tournaments import archive, play
from tournaments.actors import Actor
from tournaments.demo import build_demo, play_round
from tournaments.models import (
    AuditEntry,
    BoardResult,
    Club,
    Dispute,
    Entry,
    Event,
    Player,
    Ruling,
    Submission,
)
from tournaments.services import disputes, events
from tournaments.services.archive import event_import
from tournaments.services.pairings import pairings_propose
from tournaments.services.results import short_values
from tournaments.services.standings import standings_recompute


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    return django_capture_on_commit_callbacks


def _counts():
    models = (Event, Entry, Player, BoardResult, Ruling, AuditEntry, Club)
    return {m.__name__: m.objects.count() for m in models}


def _refused(run, document, field):
    before = _counts()
    answer = run.organiser.post(f"{API}/events/import", document, format="json")
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    error = answer.json()["errors"][0]
    assert error["field"] == field, error
    assert _counts() == before
    return error["message"]


def test_a_result_whose_card_points_contradict_its_score_is_refused(db, commits):
    """Table 2 board 1 of round 1: NS made 50 hand points of 72 and scored. Swapping the hand
    totals (NS 22, EW 50) and the trump (botifarra, x2) while keeping the score leaves the
    standings as they were: only the engine can tell."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    target = next(
        r
        for r in bad["results"]
        if r["source"] == "short" and r["status"] == "confirmed" and r["totals_ns"] == 50
    )
    target["totals_ns"], target["totals_ew"] = target["totals_ew"], target["totals_ns"]
    target["trump"] = "botifarra"
    message = _refused(run, bad, "results")
    where = f"board {target['board']} at table {target['table']} of round {target['round']}"
    assert where in message
    # The trump alone: botifarra doubles the score.
    bad = copy.deepcopy(doc)
    next(r for r in bad["results"] if r["totals_ns"] == 50)["trump"] = "botifarra"
    _refused(run, bad, "results")
    # The capot flag and the multiplier are the engine's too.
    for field, value in (("capot", True), ("multiplier", 4)):
        bad = copy.deepcopy(doc)
        next(r for r in bad["results"] if r["totals_ns"] == 50)[field] = value
        _refused(run, bad, "results")


def test_a_play_record_result_that_disagrees_with_its_own_verdict_is_refused(db, commits):
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()

    def recorded(document):
        return next(
            r
            for r in document["results"]
            if r["source"] == "play_record"
            and r["totals_ns"] is not None
            and any(
                s["play_record"] and s["play_record"]["outcome"] == "complete"
                for s in r["submissions"]
            )
        )

    bad = copy.deepcopy(doc)
    target = recorded(bad)
    target["totals_ns"], target["totals_ew"] = target["totals_ns"] + 1, target["totals_ew"] - 1
    _refused(run, bad, "results")
    # Consistent in itself (the engine scores the new totals) but not the record's verdict.
    # The board is dealt from the event's random seed: a hand shared 36–36 is its own swap.
    bad = copy.deepcopy(doc)
    target = recorded(bad)
    ns, ew = target["totals_ew"], target["totals_ns"]
    if ns == ew:
        ns, ew = ns + 1, ew - 1
    board = Event.objects.get(pk=run.pk).boards.get(number=target["board"])
    short = {k: target[k] for k in ("trump", "delegated", "doubles")}
    scored = short_values(board=board, data=short | {"totals": {"NS": ns, "EW": ew}})
    target["totals_ns"], target["totals_ew"] = ns, ew
    for key in ("score_ns", "score_ew", "multiplier", "capot"):
        target[key] = scored[key]
    _refused(run, bad, "results")
    # The record's trump and calls are the result's too.
    bad = copy.deepcopy(doc)
    recorded(bad)["trump"] = "oros"  # the records of run_event are played in copes
    _refused(run, bad, "results")


def test_a_pair_at_two_places_of_one_round_is_refused_at_rounds(db, commits):
    """Audit: a pair on both sides of a table reached the database's constraint and came back
    as "a value this installation cannot store" at ``archive``; at two tables, or seated and
    resting, only the standings' mismatch caught it."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    first = doc["rounds"][0]
    both_sides = copy.deepcopy(doc)
    both_sides["rounds"][0]["tables"][0]["ew"] = first["tables"][0]["ns"]
    two_tables = copy.deepcopy(doc)
    two_tables["rounds"][0]["tables"][1]["ns"] = first["tables"][0]["ns"]
    seated_and_resting = copy.deepcopy(doc)
    seated_and_resting["rounds"][0]["rests"] = [first["tables"][0]["ns"]]
    for bad in (both_sides, two_tables, seated_and_resting):
        _refused(run, bad, "rounds")


@pytest.mark.parametrize("option", ["group_size", "qualifiers"])
def test_a_group_option_that_is_not_a_number_is_a_400_at_that_option(db, commits, option):
    """The archive's schema lets an option be text; the event's own check compared the group
    options as numbers even after their field refused them: a 500 (inputs audit, 2026-12-06)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    bad["event"]["options"][option] = "four"
    _refused(run, bad, f"event.options.{option}")


@pytest.mark.parametrize(
    "option, value",
    [("rounds_count", True), ("boards_per_round", 2.5), ("draw", 1), ("ruleset", 7)],
)
def test_an_option_of_the_wrong_type_is_a_400_at_that_option(db, commits, option, value):
    """The schema allows any scalar for every option: ``true`` was stored as 1 round, where the
    events API refuses it (inputs audit, 2026-12-06)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    assert option in doc["event"]["options"]
    bad = copy.deepcopy(doc)
    bad["event"]["options"][option] = value
    _refused(run, bad, f"event.options.{option}")


@pytest.mark.parametrize(
    "path, value",
    [
        ("options.round_minutes", 9999),
        ("options.requested_bye_points", 9),
        ("options.group_size", 1),
        ("registration_cap", 1),
    ],
)
def test_an_option_outside_what_an_event_takes_is_a_400_at_that_option(db, commits, path, value):
    """The events API refuses these values; an import stored them (API audit, 2026-12-07)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    *parents, name = ["event", *path.split(".")]
    holder = bad
    for key in parents:
        holder = holder[key]
    holder[name] = value
    message = _refused(run, bad, f"event.{path}")
    assert message.startswith("Not a value this option takes: from ")


def test_a_round_past_the_events_number_of_rounds_is_refused(db, commits):
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    bad["event"]["options"]["rounds_count"] = len(doc["rounds"]) - 1
    _refused(run, bad, "event.options.rounds_count")
    fewer_played = copy.deepcopy(doc)  # an event finished before its planned rounds imports
    fewer_played["event"]["options"]["rounds_count"] = len(doc["rounds"]) + 1
    answer = run.organiser.post(f"{API}/events/import", fewer_played, format="json")
    assert answer.status_code == 201, answer.content[:300]


def test_parts_that_name_what_the_archive_does_not_hold_are_refused(db, commits):
    """docs/formats.md: an archive whose parts name what it does not hold is refused, naming the
    section. Each of these was imported (audit, 2026-12-07): an audit entry of no result (its
    link dropped), a round without one of its boards, a pair joining after the rounds it played
    or withdrawn after a round the event never had."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    no_result = copy.deepcopy(doc)
    entry = next(a for a in no_result["audit"] if a["result"])
    entry["result"] = {"round": 9, "table": 9, "board": 9}
    _refused(run, no_result, "audit")
    board_missing = copy.deepcopy(doc)
    board_missing["boards"] = [b for b in doc["boards"] if b["number"] != 4]
    _refused(run, board_missing, "boards")
    bye = copy.deepcopy(doc)
    bye["bye_requests"] = [{"pair": 99, "round": 1, "created_by": "x"}]
    _refused(run, bye, "bye_requests")
    for key, value in (("joins_round", 99), ("joins_round", 2), ("withdrawn_after_round", 99)):
        pair = copy.deepcopy(doc)
        pair["pairs"][0][key] = value  # pair 1 is seated in round 1
        _refused(run, pair, "pairs")


def test_a_bye_asked_for_a_round_the_event_no_longer_has_still_imports(db, commits):
    """A bye asked for round 3 while the event had three rounds, before the organiser made them
    two (or a round robin's start set them): the product keeps and exports it, and its archive
    must import (the review of 2026-12-07 found the first version of the check refusing it)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    assert doc["event"]["options"]["rounds_count"] == 2
    late = copy.deepcopy(doc)
    late["bye_requests"] = [{"pair": 1, "round": 3, "created_by": "club-organiser"}]
    answer = run.organiser.post(f"{API}/events/import", late, format="json")
    assert answer.status_code == 201, answer.content[:300]


@pytest.mark.parametrize("where", ["time_after", "version"])
def test_a_number_past_its_columns_range_is_refused_on_every_database(db, commits, where):
    """PostgreSQL refused these; SQLite stored them (its columns take any integer)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    if where == "time_after":
        bad["rounds"][0]["tables"][0]["time_after"] = 2**40
    else:
        bad["results"][0]["version"] = 2**40
    _refused(run, bad, "archive")


def test_imported_names_are_stored_as_every_other_way_in_stores_them(db, commits):
    """Players, pairs and clubs came in as typed (spaces, decomposed accents), one player could
    fill both seats of a pair, and a club named with other capitals became a look-alike club
    the importer organised (players audit, 2026-12-06)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    Club.objects.create(name="Casal de Reus")
    twice = copy.deepcopy(doc)
    twice["pairs"][0]["players"][0]["name"] = "  Àngel   Puig "
    twice["pairs"][0]["players"][1]["name"] = unicodedata.normalize("NFD", "àngel puig")
    _refused(run, twice, "pairs[0].players")
    nameless = copy.deepcopy(doc)
    nameless["pairs"][1]["players"][0]["name"] = " \x01 "
    _refused(run, nameless, "pairs[1].players[0].name")
    typed = copy.deepcopy(doc)
    typed["event"]["name"] = "Imported"
    first = typed["pairs"][0]
    first["players"][0]["name"] = unicodedata.normalize("NFD", "  Àngel   Puig ")
    first["club"] = "casal  de REUS"
    answer = run.organiser.post(f"{API}/events/import", typed, format="json")
    assert answer.status_code == 201, answer.content[:300]
    pair = Event.objects.get(name="Imported").entries.get(number=first["number"]).pair
    assert pair.player1.name == "Àngel Puig" and pair.player1.name == unicodedata.normalize(
        "NFC", pair.player1.name
    )
    assert (
        pair.club.name == "Casal de Reus"
        and Club.objects.filter(name__iexact="casal de reus").count() == 1
    )


def test_an_imported_play_record_is_stored_canonical_and_exports_again(db, commits):
    """A record may give its board's hands as null (the board's seeded deal, as when they are
    left out): it replays, and is stored as a submitted record is, so that the imported event's
    archive and its public records file give it out (they were a 500)."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    sent = copy.deepcopy(doc)
    submitted = next(
        s["play_record"]
        for r in sent["results"]
        for s in r["submissions"]
        if s["play_record"] and s["play_record"]["outcome"] == "complete"
    )
    submitted["record"]["deal"]["hands"] = None
    submitted["record"]["ruleset"] = None
    answer = run.organiser.post(f"{API}/events/import", sent, format="json")
    assert answer.status_code == 201, answer.content[:300]
    new = answer.json()["id"]
    Event.objects.filter(pk=new).update(published=True)
    again = run.organiser.get(f"{API}/events/{new}/archive")
    assert again.status_code == 200
    assert run.organiser.get(f"/e/{new}/export/records.json").status_code == 200
    records = [
        s["play_record"]["record"]
        for r in again.json()["results"]
        for s in r["submissions"]
        if s["play_record"]
    ]
    assert records == [
        s["play_record"]["record"]
        for r in doc["results"]
        for s in r["submissions"]
        if s["play_record"]
    ]


def test_an_invalid_play_record_is_refused(db, commits):
    """The product never stores an invalid record (a submission's is refused): an archive that
    holds one, even with its true verdict, is refused rather than stored for every later export
    of the event to fail on."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    bad = copy.deepcopy(doc)
    result = bad["results"][0]
    board = Event.objects.get(pk=run.pk).boards.get(number=result["board"])
    record = {"format": "botifarra-play/1", "deal": {"dealer": board.dealer}, "play": []}
    verdict = play.replay(board, dict(record, ruleset=board.event.ruleset)).to_json()
    assert verdict["outcome"] == "invalid"
    result["play_records"].append(
        {
            "record": record,
            "verdict": verdict,
            "outcome": "invalid",
            "created_at": "2026-01-01T10:00:00Z",
        }
    )
    assert "not a valid record" in _refused(run, bad, "results")


def test_a_ruled_result_must_hold_what_its_ruling_gives(db, commits):
    """Table 2 board 2 of round 1 was ruled with a corrected result (copes, NS 44): a result
    that the engine would score, but not the ruling's, is refused; and a referee's values with
    no ruling."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()

    def corrected(document):
        return next(
            r
            for r in document["results"]
            if any(ru["kind"] == "corrected" for d in r["disputes"] for ru in d["rulings"])
        )

    assert corrected(doc)["source"] == "ruling" and corrected(doc)["totals_ns"] == 44
    bad = copy.deepcopy(doc)
    corrected(bad)["trump"] = "oros"  # scores the same as copes, but is not what was ruled
    _refused(run, bad, "results")
    bad = copy.deepcopy(doc)
    corrected(bad)["disputes"][0]["rulings"][0]["data"]["totals"] = {"NS": 40, "EW": 32}
    _refused(run, bad, "results")
    bad = copy.deepcopy(doc)
    corrected(bad)["disputes"] = []  # a referee's values that no ruling gave
    _refused(run, bad, "results")
    bad = copy.deepcopy(doc)
    target = corrected(bad)
    target["adjusted_ns"] = target["adjusted_ew"] = "avg"  # an adjusted score, no such ruling
    _refused(run, bad, "results")


def test_a_time_that_overflows_once_in_utc_is_a_400_not_a_500(db, commits, tmp_path, settings):
    """0001-01-01T00:00:00+05:00 passes ``fromisoformat`` but is before year 1 in UTC, as the
    database holds it: refused by the schema's date-time check at its path."""
    run = run_event(commits)
    doc = run.organiser.get(f"{API}/events/{run.pk}/archive").json()
    run.organiser.raise_request_exception = False
    for path, value in (
        (("event", "created_at"), "0001-01-01T00:00:00+05:00"),
        (("event", "finished_at"), "9999-12-31T23:00:00-05:00"),
    ):
        bad = copy.deepcopy(doc)
        bad[path[0]][path[1]] = value
        message = _refused(run, bad, ".".join(path))
        assert value in message
    bad = copy.deepcopy(doc)
    bad["results"][0]["submissions"][0]["created_at"] = "0001-01-01T00:00:00+01:00"
    _refused(run, bad, "results[0].submissions[0].created_at")
    # A time without an offset is in the site's time zone: 5 hours before UTC in New York.
    site_zone, settings.TIME_ZONE = settings.TIME_ZONE, "America/New_York"
    bad = copy.deepcopy(doc)
    bad["event"]["finished_at"] = "9999-12-31T23:00:00"
    _refused(run, bad, "event.finished_at")
    settings.TIME_ZONE = site_zone
    # The command line says the same, as an error.
    bad = copy.deepcopy(doc)
    bad["event"]["created_at"] = "0001-01-01T00:00:00+05:00"
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match=r"^event\.created_at: .*0001-01-01T00:00:00\+05:00"):
        call_command("import_event", str(path), user=run.username, stdout=io.StringIO())
    assert _counts() == before


def _every_ruling(event: Event, organiser: Actor, referee: Actor, rng: random.Random) -> None:
    """Round 2 of the demo championship is open, with a conflict and an illegal card waiting
    for the referee: rule them, and rule on others with every kind of ruling, revisions too."""
    rnd = event.rounds.get(number=2)
    for dispute in Dispute.objects.filter(result__table__round=rnd, status="open"):
        result = dispute.result
        if dispute.reason == Dispute.Reason.ILLEGAL_PLAY:
            offender = result.offending_pair
            disputes.dispute_rule(
                dispute=dispute,
                actor=referee,
                kind="penalty",
                explanation="Revoke.",
                data={"offending_pair": offender},
            )
        else:  # the pairs disagree: the referee accepts the East–West version
            chosen = result.submissions.filter(side="EW").latest("pk")
            disputes.dispute_rule(
                dispute=dispute,
                actor=referee,
                kind="accept",
                explanation="EW counted right.",
                data={"submission": chosen.pk},
            )
    confirmed = list(
        BoardResult.objects.filter(table__round=rnd, status="confirmed").order_by("pk")
    )
    recorded = next(r for r in confirmed if r.source == "play_record")
    shorts = [r for r in confirmed if r.source == "short"]
    assert len(shorts) >= 3

    def review(result):
        return disputes.dispute_request(result=result, actor=referee, reason="Review")

    # A play record accepted again (its submission).
    disputes.dispute_rule(
        dispute=review(recorded),
        actor=referee,
        kind="accept",
        explanation="As played.",
        data={"submission": recorded.submissions.get().pk},
    )
    # An adjusted score, then revised with another.
    dispute = review(shorts[0])
    disputes.dispute_rule(
        dispute=dispute,
        actor=referee,
        kind="adjusted",
        explanation="Slow play.",
        data={"adjusted_ns": "avg_plus", "adjusted_ew": "avg_minus", "score": {"NS": 0, "EW": 0}},
    )
    disputes.dispute_rule(
        dispute=dispute,
        actor=referee,
        kind="adjusted",
        explanation="Slow play, East–West.",
        data={"adjusted_ns": "avg_plus", "adjusted_ew": "avg_minus", "score": {"NS": 30, "EW": 0}},
    )
    # A corrected play record, then (another dispute) an adjusted score over it.
    board = shorts[1].board
    trump = "botifarra"
    record = play.record(board, trump=trump, cards=play.random_play(board, trump, rng))
    disputes.dispute_rule(
        dispute=review(shorts[1]),
        actor=referee,
        kind="corrected",
        explanation="The cards as played.",
        data={"play_record": record},
    )
    disputes.dispute_rule(
        dispute=review(shorts[1]),
        actor=referee,
        kind="adjusted",
        explanation="The board was fouled.",
        data={"adjusted_ns": "avg", "adjusted_ew": "avg"},
    )
    # An adjusted score replaced by a corrected short result.
    dispute = review(shorts[2])
    disputes.dispute_rule(
        dispute=dispute,
        actor=referee,
        kind="adjusted",
        explanation="Pending.",
        data={"adjusted_ns": "avg", "adjusted_ew": "avg"},
    )
    disputes.dispute_rule(
        dispute=dispute,
        actor=referee,
        kind="corrected",
        explanation="Counted again.",
        data={
            "trump": "espases",
            "delegated": True,
            "doubles": [],
            "totals": {"NS": 30, "EW": 42},
        },
    )


def test_the_demo_events_round_trip_with_rulings_of_every_kind(db, settings, commits):
    """Every archive the product exports imports: the demo's finished events, and its
    championship played to its end with a ruling of every kind (and revisions, and an
    organiser's correction after it finished)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with commits(execute=True):
        report = build_demo()
    users = get_user_model().objects
    organiser = Actor(user=users.get(username="organiser"))
    referee = Actor(user=users.get(username="referee"))
    event = report.event
    rng = random.Random(7)
    with commits(execute=True):
        _every_ruling(event, organiser, referee, rng)
        events.round_close(rnd=event.rounds.get(number=2), actor=organiser, accept_missing=True)
        for number in range(3, event.rounds_count + 1):
            pairings_propose(event.pk, number, actor=organiser)
            rnd = events.round_open(rnd=event.rounds.get(number=number), actor=organiser)
            play_round(rnd, rng)
            events.round_close(rnd=rnd, actor=organiser, accept_missing=True)
        event = events.event_finish(event=Event.objects.get(pk=event.pk), actor=organiser)
        late = BoardResult.objects.filter(table__round__event=event, status="confirmed").first()
        correction = disputes.correction_open(result=late, actor=organiser, reason="Typo.")
        disputes.dispute_rule(
            dispute=correction,
            actor=organiser,
            kind="corrected",
            explanation="The score sheet says 40.",
            data={"trump": late.trump, "totals": {"NS": 40, "EW": 32}},
        )
        standings_recompute(event.pk)
    kinds = set(
        Ruling.objects.filter(dispute__result__table__round__event=event).values_list(
            "kind", flat=True
        )
    )
    assert kinds == {"accept", "penalty", "corrected", "adjusted"}
    finished = list(Event.objects.filter(status=Event.Status.FINISHED).order_by("pk"))
    assert event in finished and len(finished) > 1
    when = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    for original in finished:
        document = json.loads(json.dumps(archive.event_archive(original, exported_at=when)))
        imported = event_import(document=document, actor=organiser)
        assert imported.pk != original.pk
        assert BoardResult.objects.filter(table__round__event=imported).count() == len(
            document["results"]
        )
        # And the public archive (no accounts) too.
        public = json.loads(
            json.dumps(archive.public_archive(archive.event_archive(original, exported_at=when)))
        )
        event_import(document=public, actor=organiser)
    assert Submission.objects.exists()


def test_a_round_robin_of_more_rounds_than_a_swiss_may_choose_imports(organiser, commits):
    """A round robin of 32 pairs has 31 rounds, more than the 30 an organiser may choose: its
    archive was refused at event.options.rounds_count (review of 2026-12-07)."""
    from rest_framework.test import APIClient

    from tests.factories import EventFactory, PairFactory

    actor = Actor(user=organiser)
    event = EventFactory(
        organisers=[organiser],
        status="registration",
        format="roundrobin",
        boards_per_round=1,
        club=None,
    )
    for number in range(1, 33):
        Entry.objects.create(event=event, pair=PairFactory(), number=number)
    with commits(execute=True):
        events.event_start(event=event, actor=actor)
        events.boards_generate(event=event)
        events.event_finish(event=Event.objects.get(pk=event.pk), actor=actor)
    assert Event.objects.get(pk=event.pk).rounds_count == 31
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    document = api.get(f"{API}/events/{event.pk}/archive").json()
    with commits(execute=True):
        answer = api.post(f"{API}/events/import", document, format="json")
    assert answer.status_code == 201, answer.content[:300]
    assert Event.objects.get(pk=answer.json()["id"]).rounds_count == 31
    # Not any number, though: no more than a double round robin of its pairs could have.
    document["event"]["options"]["rounds_count"] = 65
    _refused(SimpleNamespace(organiser=api), document, "event.options.rounds_count")
