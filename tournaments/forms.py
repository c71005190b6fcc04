"""Forms of the organiser's pages: they parse and explain; the services decide."""

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Event, Pair, Player, Round
from tournaments.services.events import EVENT_OPTIONS, max_length

MAX_CSV_BYTES = 512 * 1024

# Presets fill the options in one click; the organiser can still change any of them.
PRESETS: dict[str, dict[str, object]] = {
    "lliure": {
        "ruleset": Event.Ruleset.LLIURE,
        "sant_vicenc_in_botifarra": None,
        "game_target": 101,
        "deal_limit": None,
    },
    "obligada": {
        "ruleset": Event.Ruleset.OBLIGADA,
        "sant_vicenc_in_botifarra": None,
        "game_target": 101,
        "deal_limit": None,
    },
    "quick": {"game_target": 51, "deal_limit": 5},
}
PRESET_LABELS = [
    (
        "lliure",
        _("Lliure (western)"),
        _("Follow suit and beat an opponent's card when you can; target 101, no deal limit."),
    ),
    (
        "obligada",
        _("Obligada (eastern)"),
        _("Lliure's rules plus lowest-card discards; Sant Vicenç allowed in botifarra."),
    ),
    ("quick", _("Quick game"), _("Game target 51 and at most 5 deals: for short sessions.")),
]

SANT_VICENC_CHOICES = [
    ("", _("The ruleset's default")),
    ("true", _("Yes, allowed")),
    ("false", _("No, not allowed")),
]

RANKING_HELP = {
    Event.Ranking.WINS: _(
        "Most match points first (2 per win, 1 per draw), then the point "
        "difference: how Catalan events usually rank."
    ),
    Event.Ranking.MATCHPOINTS: _(
        "The best average percentage on the boards, comparing each "
        "result with every other table that played the same board."
    ),
    Event.Ranking.POINTS: _(
        "The largest total of points scored minus points conceded over all matches."
    ),
}
MATCH_MODE_HELP = {
    Event.MatchMode.BOARDS: _(
        "Every board of the round is played and counts; the match total is the sum of the boards."
    ),
    Event.MatchMode.GAME: _(
        "The round's boards are played as one game to the target; later "
        "boards are not played once a pair reaches it."
    ),
}


def _null_bool(value: object) -> bool | None:
    return {"true": True, "false": False, True: True, False: False}.get(value)  # type: ignore[arg-type]


class EventForm(forms.ModelForm):
    club_name = forms.CharField(
        label=_("Club"),
        required=False,
        max_length=max_length(Club),
        help_text=_("The organising club; a new name creates the club."),
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    sant_vicenc_in_botifarra = forms.TypedChoiceField(
        label=_("Sant Vicenç in botifarra"),
        choices=SANT_VICENC_CHOICES,
        required=False,
        coerce=_null_bool,
        empty_value=None,
        help_text=_(
            "May the opponents call Sant Vicenç (×8) on a botifarra hand, making it "
            "worth 16? Leave the ruleset's default unless your club plays otherwise "
            "(no in lliure, yes in obligada)."
        ),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "ruleset",
            "sant_vicenc_in_botifarra",
            "game_target",
            "deal_limit",
            "match_mode",
            "game_cap",
            "rounds_count",
            "boards_per_round",
            "ranking_method",
            "bye_points",
            "seeding",
            "registration_cap",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ruleset": forms.RadioSelect,
            "match_mode": forms.RadioSelect,
            "ranking_method": forms.RadioSelect,
            "seeding": forms.RadioSelect,
        }
        help_texts = {
            "ruleset": _(
                "Lliure: follow suit and beat an opponent's card when you can. "
                "Obligada: the same, plus the eastern rule that a card which does not "
                "win must be a point card for a winning partner or your lowest of its "
                "suit."
            ),
            "game_target": _(
                "A game is won by the first pair to reach this score (101 usual, "
                "51 for a quick game)."
            ),
            "deal_limit": _(
                "Stop a game after this many deals; the pair ahead wins. Empty: no limit."
            ),
            "match_mode": _("How a round between two pairs is scored."),
            "game_cap": _("In game mode, the most points a game counts for in the standings."),
            "rounds_count": _(
                "How many rounds every pair plays (Swiss pairing: winners meet winners)."
            ),
            "boards_per_round": _(
                "Deals played at each table in a round; every table plays the same boards."
            ),
            "ranking_method": _("How the standings are ordered."),
            "bye_points": _(
                "With an odd number of pairs one pair sits out each round; the bye "
                "counts as a win by this many points."
            ),
            "venue": _("Where the event is played (shown on the public pages)."),
        }

    def __init__(self, *args: object, locked: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.locked = locked
        if self.instance.pk and self.instance.club_id:
            self.initial.setdefault("club_name", self.instance.club.name)
        value = self.initial.get("sant_vicenc_in_botifarra")
        self.initial["sant_vicenc_in_botifarra"] = (
            "" if value is None else ("true" if value else "false")
        )
        self.fields["deal_limit"].widget.attrs["min"] = 1
        self.fields["registration_cap"].widget.attrs["min"] = 2
        # Older clients and the presets do not send it: by lot unless asked.
        self.fields["seeding"].required = False
        self.fields["game_target"].widget.attrs["min"] = 1
        self.fields["rounds_count"].widget.attrs["min"] = 1
        self.fields["boards_per_round"].widget.attrs["min"] = 1
        if locked:
            for name in EVENT_OPTIONS:
                if name in self.fields:
                    self.fields[name].disabled = True

    def clean_game_target(self) -> int:
        value = self.cleaned_data["game_target"]
        if value < 1:
            raise forms.ValidationError(_("The target must be at least 1."))
        return value

    def clean_deal_limit(self) -> int | None:
        value = self.cleaned_data["deal_limit"]
        if value is not None and value < 1:
            raise forms.ValidationError(_("Leave it empty for no limit, or give at least 1."))
        return value

    def clean_rounds_count(self) -> int:
        value = self.cleaned_data["rounds_count"]
        if not 1 <= value <= 30:
            raise forms.ValidationError(_("Between 1 and 30 rounds."))
        return value

    def clean_registration_cap(self) -> int | None:
        value = self.cleaned_data.get("registration_cap")
        if value is not None and not 2 <= value <= 2000:
            raise forms.ValidationError(_("Between 2 and 2,000 pairs, or empty for no cap."))
        return value

    def clean_seeding(self) -> str:
        return self.cleaned_data.get("seeding") or Event.Seeding.LOT

    def clean_boards_per_round(self) -> int:
        value = self.cleaned_data["boards_per_round"]
        if not 1 <= value <= 36:
            raise forms.ValidationError(_("Between 1 and 36 boards per round."))
        return value

    def service_fields(self) -> dict[str, object]:
        """The cleaned values to hand to the service (club still as a name)."""
        data = {k: v for k, v in self.cleaned_data.items() if k != "club_name"}
        if self.locked:
            data = {k: v for k, v in data.items() if k not in EVENT_OPTIONS}
        return data

    def ranking_help(self) -> list[tuple[object, object]]:
        return [(label, RANKING_HELP[v]) for v, label in Event.Ranking.choices]

    def match_mode_help(self) -> list[tuple[object, object]]:
        return [(label, MATCH_MODE_HELP[v]) for v, label in Event.MatchMode.choices]


def apply_preset(data: QueryDict, preset: str) -> QueryDict:
    """A copy of the posted form with a preset's options filled in (nothing is saved)."""
    data = data.copy()
    for key, value in PRESETS.get(preset, {}).items():
        if key == "sant_vicenc_in_botifarra":
            data[key] = "" if value is None else ("true" if value else "false")
        else:
            data[key] = "" if value is None else str(value)
    return data


class EntryForm(forms.Form):
    player1 = forms.CharField(label=_("Player 1"), max_length=max_length(Player))
    player2 = forms.CharField(label=_("Player 2"), max_length=max_length(Player))
    name = forms.CharField(
        label=_("Pair name"),
        max_length=max_length(Pair),
        required=False,
        help_text=_("Optional: empty gives “Player 1 – Player 2”."),
    )
    club = forms.CharField(
        label=_("Club"),
        max_length=max_length(Club),
        required=False,
        help_text=_("Optional: empty gives the event's club."),
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_(
            "One pair per line: player1, player2, pair name (optional), club "
            "(optional). Commas, semicolons or tabs."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )
    text = forms.CharField(
        label=_("…or paste the lines"),
        required=False,
        max_length=MAX_CSV_BYTES,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "Anna Puig,Jordi Vila,,Reus"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        upload = data.get("file")
        text = (data.get("text") or "").strip()
        if upload:
            if upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError(_("The file is too large (at most 512 KB)."))
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                # Spreadsheets on Windows often save in this code page.
                text = raw.decode("cp1252", errors="replace")
            if "\x00" in text:
                raise forms.ValidationError(
                    _("This is not a text file: save the spreadsheet as CSV.")
                )
        if not text.strip():
            raise forms.ValidationError(_("Choose a CSV file or paste the lines."))
        data["csv_text"] = text
        return data


class CsvConfirmForm(forms.Form):
    csv_text = forms.CharField(widget=forms.HiddenInput, max_length=MAX_CSV_BYTES)


class SwapForm(forms.Form):
    entry_a = forms.TypedChoiceField(label=_("Pair"), coerce=int)
    entry_b = forms.TypedChoiceField(label=_("swaps places with"), coerce=int)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: object, rnd: Round, entries: list, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        choices = [(e.pk, f"{e.number}. {e.pair.name}") for e in entries]
        self.fields["entry_a"].choices = choices
        self.fields["entry_b"].choices = choices

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("entry_a") is not None and data.get("entry_a") == data.get("entry_b"):
            raise forms.ValidationError(_("Choose two different pairs."))
        return data
