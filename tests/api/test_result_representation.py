"""The result answer written out by hand equals DRF's representation through the fields."""

import pytest
from django.utils import timezone

from api import serializers as s
from tests.factories import BoardResultFactory, DisputeFactory, PlayRecordFactory
from tournaments.models import BoardResult, Dispute

pytestmark = pytest.mark.django_db


def _results():
    yield BoardResultFactory()
    yield BoardResultFactory(status=BoardResult.Status.CONFIRMED, confirmed_by="table 3 EW")
    yield BoardResultFactory(
        trump="botifarra",
        delegated=True,
        doubles=[{"seat": "E", "call": "contro"}, {"seat": "N", "call": "recontro"}],
        multiplier=4,
        totals_ns=30,
        totals_ew=42,
        score_ns=0,
        score_ew=24,
        entered_side="",
        entered_by="organiser",
    )
    yield BoardResultFactory(totals_ns=None, totals_ew=None, offending_pair="EW", score_ns=72)
    yield BoardResultFactory(
        status=BoardResult.Status.RULED, adjusted_ns="A+", adjusted_ew="A-", capot=True
    )
    yield DisputeFactory().result  # an open dispute
    yield DisputeFactory(status=Dispute.Status.RULED).result
    yield PlayRecordFactory().result


@pytest.mark.parametrize("serializer", [s.ResultSerializer, s.ResultDetailSerializer])
def test_the_written_out_answer_equals_the_fields_representation(serializer, settings):
    settings.TIME_ZONE = "Europe/Madrid"  # a zone with an offset: datetimes are converted
    timezone.activate("Europe/Madrid")
    try:
        for made in _results():
            result = BoardResult.objects.select_related(
                "table__round__event", "table__ns", "table__ew", "board"
            ).get(pk=made.pk)
            for details in (False, True):
                answer = serializer(result, context={"details": details})
                fast = answer.data
                slow = answer.field_representation(result)
                assert fast == slow
                assert list(fast) == list(slow)  # the same keys in the same order
    finally:
        timezone.deactivate()
