"""Organiser forms of team events: a team's registration, a match's line-up."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player, Team
from tournaments.services.names import max_length


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=max_length(Team))
    club = forms.CharField(label=_("Club"), required=False, max_length=max_length(Club))
    player1 = forms.CharField(label=_("Player 1"), max_length=max_length(Player))
    player2 = forms.CharField(label=_("Player 2"), max_length=max_length(Player))
    player3 = forms.CharField(label=_("Player 3"), max_length=max_length(Player))
    player4 = forms.CharField(label=_("Player 4"), max_length=max_length(Player))
    player5 = forms.CharField(label=_("Player 5"), required=False, max_length=max_length(Player))
    player6 = forms.CharField(label=_("Player 6"), required=False, max_length=max_length(Player))

    def players(self) -> list[str]:
        return [self.cleaned_data.get(f"player{k}") or "" for k in range(1, 7)]


class LineUpForm(forms.Form):
    """The two pairs of one team for one match, chosen among its players."""

    first1 = forms.TypedChoiceField(label=_("First pair (open room)"), coerce=int)
    first2 = forms.TypedChoiceField(label=_("and"), coerce=int)
    second1 = forms.TypedChoiceField(label=_("Second pair (closed room)"), coerce=int)
    second2 = forms.TypedChoiceField(label=_("and"), coerce=int)

    def __init__(self, *args, team: Team, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [(m.player_id, m.player.name) for m in team.members.select_related("player")]
        for name in ("first1", "first2", "second1", "second2"):
            self.fields[name].choices = choices
