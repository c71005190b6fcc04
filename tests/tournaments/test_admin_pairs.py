"""Django's admin does not change who played: a pair's players change through the organiser's
substitution, which the audit trail keeps."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, PairFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_admin_renames_a_pair_but_cannot_change_its_players(client, django_user_model):
    pair = PairFactory(name="Old name")
    EntryFactory(pair=pair)  # the pair has played: its results name these players
    stranger = PlayerFactory()
    client.force_login(django_user_model.objects.create_superuser("boss", "b@x.org", "pw"))
    form = reverse("admin:tournaments_pair_change", args=[pair.pk])
    answer = client.post(
        form,
        {
            "name": "New name",
            "player1": stranger.pk,
            "player2": stranger.pk,
            "club": "",
        },
    )
    assert answer.status_code == 302  # saved
    before = (pair.player1_id, pair.player2_id)
    pair.refresh_from_db()
    assert pair.name == "New name"
    assert (pair.player1_id, pair.player2_id) == before
    # A new pair, which has played nothing, is given its players there.
    assert client.get(reverse("admin:tournaments_pair_add")).status_code == 200
