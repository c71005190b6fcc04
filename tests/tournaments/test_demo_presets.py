"""#17: every preset of scoring/presets.py has an event in ``manage.py demo``, built with the
preset's options and run end to end through the table's services: its rounds paired, played and
closed, its standings computed after the last round (or the documented state of the one left in
progress), and its games ended by the preset's limits."""

import pytest
from django.utils import translation

from scoring.presets import PRESETS
from tournaments.demo import IN_PROGRESS_PRESETS, PRESET_EVENTS, build_demo
from tournaments.models import BoardResult, Event, Round, StandingsSnapshot
from tournaments.services.events import preset_fields
from tournaments.views.public import ruleset_words

pytestmark = pytest.mark.django_db

# What the demo may set to its own size: the preset's number of rounds and boards.
DEMO_SIZE = {"rounds_count", "boards_per_round"}


def test_every_preset_runs_end_to_end_in_the_demo(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    demo = build_demo()
    assert set(PRESET_EVENTS) == set(PRESETS)
    assert set(demo.presets) == set(PRESETS)
    for code, event in demo.presets.items():
        assert event.name == PRESET_EVENTS[code]
        for key, value in preset_fields(PRESETS[code]).items():
            if key not in DEMO_SIZE:
                assert getattr(event, key) == value, (code, key)
        ran_to_the_end(code, Event.objects.get(pk=event.pk))
    # The games end by the presets' limits. Girona: 8 deals, 10 when the game was level after
    # them (two tie-break deals, then one pair scoring); the opens: 101 points or 12 deals.
    assert set(deals(demo.presets["girona_groups"])) <= {8, 10}
    assert max(deals(demo.presets["open_swiss"])) <= 12
    girona = demo.presets["girona_groups"]
    final = StandingsSnapshot.objects.get(event=girona, after_round=girona.rounds_count)
    assert final.stage["groups_done"] and final.stage["bracket"]
    accelerated_open_kept_clubs_apart(demo.presets["open_swiss_accelerated"])
    # An event without a target says what its games are (it once read "game to None").
    with translation.override("en"):
        words = ruleset_words(girona)
    assert words == (
        "Lliure (western rules), a game of a fixed number of deals, no Sant Vicenç in "
        "botifarra, deal limit 8"
    )
    # Built once: a second run finds them all and changes nothing.
    again = build_demo()
    assert again.presets == demo.presets
    assert Event.objects.filter(name__in=PRESET_EVENTS.values()).count() == len(PRESETS)


def ran_to_the_end(code: str, event: Event) -> None:
    rounds = list(event.rounds.order_by("number"))
    last = IN_PROGRESS_PRESETS.get(code, event.rounds_count)
    # Finished: every planned round was played; in progress: the next one is proposed.
    assert len(rounds) == (event.rounds_count if last == event.rounds_count else last + 1), code
    assert all(r.status == Round.Status.CLOSED for r in rounds[:last]), code
    if code in IN_PROGRESS_PRESETS:
        assert event.status == Event.Status.RUNNING
        assert rounds[last].status == Round.Status.PENDING and rounds[last].tables.exists()
    else:
        assert event.status == Event.Status.FINISHED, code
    snapshot = StandingsSnapshot.objects.get(event=event, after_round=last)
    assert len(snapshot.rows) == event.entries.count(), code
    for rnd in rounds[:last]:
        for table in rnd.tables.all():
            counted = table.results.filter(status__in=BoardResult.COUNTED).count()
            # Every table played, within the boards of the round.
            assert 1 <= counted <= event.boards_per_round, (code, rnd.number, table.number)


def deals(event: Event) -> list[int]:
    return [
        t.results.filter(status__in=BoardResult.COUNTED).count()
        for r in event.rounds.all()
        for t in r.tables.all()
    ]


def accelerated_open_kept_clubs_apart(event: Event) -> None:
    assert event.accelerated and event.club_rounds == 2
    for number in (1, 2):
        tables = event.rounds.get(number=number).tables.select_related("ns__pair", "ew__pair")
        for table in tables:
            assert table.ns.pair.club_id != table.ew.pair.club_id
    # Seeded by rating and accelerated: round 1 seats the two best-rated pairs together.
    best = set(event.entries.order_by("-rating").values_list("pk", flat=True)[:2])
    first = event.rounds.get(number=1).tables.get(number=1)
    assert {first.ns_id, first.ew_id} == best
