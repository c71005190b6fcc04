"""The league's organiser forms: the league, a team, a match's games."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, League, LeagueFixture, LeagueTeam
from tournaments.services import ServiceError
from tournaments.services.league import check_league_date
from tournaments.services.names import max_length

_HAND = re.compile(r"^([0-9]{1,4})[-–:]([0-9]{1,4})$")  # [0-9]: "٣" is not a score


class LeagueForm(forms.ModelForm):
    club_name = forms.CharField(label=_("Club"), required=False, max_length=max_length(Club))

    class Meta:
        model = League
        fields = ["name", "starts", "home_and_away", "games_per_match", "hands_per_game"]
        widgets = {"starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def clean_starts(self):
        return _league_date(self.cleaned_data["starts"])


def _league_date(value):
    """A league date within the service's bounds (2000–2100), else the service's sentence."""
    try:
        check_league_date(value, field="")
    except ServiceError as exc:
        raise forms.ValidationError(exc.message) from None
    return value


class LeagueTeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=max_length(LeagueTeam))
    club = forms.CharField(label=_("Club"), required=False, max_length=max_length(Club))


def parse_hands(text: str) -> list[tuple[int, int]]:
    """``"10-0, 0-4 36 - 0"`` → [(10, 0), (0, 4), (36, 0)]: each hand home–away, separated by
    commas, semicolons or spaces (spaces around the dash belong to the hand)."""
    joined = re.sub(r"\s*([-–:])\s*", r"\1", text.strip())
    parts = [p for p in re.split(r"[,;\s]+", joined) if p]
    hands = []
    for k, part in enumerate(parts, start=1):
        match = _HAND.match(part)
        if match is None:
            raise forms.ValidationError(
                _("Hand %(k)s (“%(text)s”): write the home and away scores as 10-0."),
                params={"k": k, "text": part[:20]},
            )
        hands.append((int(match[1]), int(match[2])))
    return hands


class FixtureGamesForm(forms.Form):
    """The match's own evening, then one text field per game: its hands as home-away scores."""

    date = forms.DateField(
        label=_("Date"),
        required=False,
        help_text=_(
            "The evening this match is played, if not its match day's date (the clubs of one "
            "match day may play on different evenings). Empty: the match day's date."
        ),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    forfeit = forms.ChoiceField(
        label=_("Forfeit"),
        required=False,
        choices=[("", _("No: the match is played"))] + list(LeagueFixture.Forfeit.choices),
    )

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for k in range(1, league.games_per_match + 1):
            self.fields[f"game{k}"] = forms.CharField(
                label=_("Game %(k)s") % {"k": k},
                required=False,
                max_length=400,
                help_text=_(
                    "Each hand's scores, home first: 10-0, 0-4, 36-0… Empty a game's field to "
                    "remove the game."
                )
                if k == 1
                else "",
            )

    def clean_date(self):
        return _league_date(self.cleaned_data["date"])  # None: the match day's date

    def clean(self) -> dict:
        data = super().clean()
        self.parsed: dict[int, list[tuple[int, int]]] = {}
        for name, value in list(data.items()):
            if name.startswith("game") and value:
                try:
                    self.parsed[int(name[4:])] = parse_hands(value)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        return data

    def games(self) -> dict[int, list[tuple[int, int]]]:
        """Each game's hands (after ``is_valid``)."""
        return self.parsed
