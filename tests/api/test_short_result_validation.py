"""The quick checks of a short result and of a confirmation accept only what DRF's serializer
accepts, with the same validated data; everything else goes through the serializer (and its
wording of errors)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from api import serializers as s

pytestmark = pytest.mark.django_db

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=2**31 + 2),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["oros", "copes", "espases", "bastos", "botifarra", "NS", "EW", "N", "5"]),
)
INT = st.one_of(st.integers(min_value=-1, max_value=80), st.sampled_from([2**31 - 1, 2**31]), ODD)
CALL = st.fixed_dictionaries(
    {"seat": st.one_of(st.sampled_from(["N", "E", "S", "W"]), ODD)},
    optional={"call": st.one_of(st.sampled_from(["contro", "recontro", "sant_vicenc"]), ODD)},
)
BODY = st.fixed_dictionaries(
    {
        "table": st.one_of(st.integers(min_value=0, max_value=10), INT),
        "board": st.one_of(st.integers(min_value=0, max_value=40000), INT),
        "trump": st.one_of(
            st.sampled_from(["oros", "copes", "espases", "bastos", "botifarra"]), ODD
        ),
    },
    optional={
        "delegated": st.one_of(st.booleans(), ODD),
        "doubles": st.one_of(st.lists(CALL, max_size=4), ODD),
        "totals": st.one_of(
            st.fixed_dictionaries({"NS": INT, "EW": INT}, optional={"x": ODD}), ODD
        ),
        "offending_pair": st.one_of(st.sampled_from(["NS", "EW"]), ODD),
        "version": INT,
        "unknown": ODD,
    },
)


def by_the_serializer(body):
    form = s.ShortResultSerializer(data=body)
    return form.plain_data() if form.is_valid() else None


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(BODY)
def test_the_quick_check_agrees_with_the_serializer(body):
    quick = s._short_result(body)
    if quick is not None:
        assert quick == by_the_serializer(body)
    try:
        validated = s.ShortResultSerializer.validated(body)
    except ValidationError:
        assert by_the_serializer(body) is None
    else:
        assert validated == by_the_serializer(body)


def test_a_usual_body_is_taken_by_the_quick_check():
    body = {
        "table": 7,
        "board": 3,
        "trump": "botifarra",
        "doubles": [{"seat": "E", "call": "contro"}],
        "totals": {"NS": 40, "EW": 32},
    }
    assert s._short_result(body) == by_the_serializer(body) == body | {"delegated": False}
    assert s._short_result(body | {"board": True}) is None  # not an integer to DRF either
    with pytest.raises(ValidationError) as refused:
        s.ShortResultSerializer.validated(body | {"totals": {"NS": 73, "EW": -1}})
    assert set(refused.value.detail["totals"]) == {"NS", "EW"}


CONFIRMATION = st.one_of(
    st.fixed_dictionaries({}, optional={"version": INT, "code": ODD, "unknown": ODD}),
    ODD,
    st.lists(ODD, max_size=2),
)


def confirmed_by_the_serializer(body):
    form = s.ConfirmSerializer(data=body)
    return dict(form.validated_data) if form.is_valid() else None


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(CONFIRMATION)
def test_the_confirmation_quick_check_agrees_with_the_serializer(body):
    quick = s._confirmation(body)
    if quick is not None:
        assert quick == confirmed_by_the_serializer(body)
    try:
        validated = s.ConfirmSerializer.validated(body)
    except ValidationError:
        assert confirmed_by_the_serializer(body) is None
    else:
        assert validated == confirmed_by_the_serializer(body)


def test_a_usual_confirmation_is_taken_by_the_quick_check():
    assert s._confirmation({}) == {}
    assert s._confirmation({"version": 2}) == {"version": 2}
    assert s._confirmation({"version": True}) is None  # DRF decides (and refuses it)
    assert s._confirmation({"code": "ABC123"}) is None  # a typed code: the serializer's
    with pytest.raises(ValidationError) as refused:
        s.ConfirmSerializer.validated({"version": 0})
    assert "version" in refused.value.detail
