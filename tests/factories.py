import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Entry, Event, Pair, Player, Round, Table


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    player1 = factory.SubFactory(PlayerFactory)
    player2 = factory.SubFactory(PlayerFactory)
    name = factory.LazyAttribute(lambda o: f"{o.player1.name} – {o.player2.name}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Event {n}")
    club = factory.SubFactory(ClubFactory)
    rounds_count = 3
    boards_per_round = 2
    seed = factory.Sequence(lambda n: f"test-seed-{n}")

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        if create and extracted:
            self.organisers.add(*extracted)

    @factory.post_generation
    def referees(self, create, extracted, **kwargs):
        if create and extracted:
            self.referees.add(*extracted)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    pair = factory.SubFactory(PairFactory)
    number = factory.Sequence(lambda n: n + 1)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = 1


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)
    ns = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))
    ew = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))
