"""Forms of the organiser's pages: they parse and explain; the services decide."""

from django import forms
from django.core.validators import MaxValueValidator
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from scoring.presets import PRESETS as RULES_PRESETS
from scoring.presets import Preset
from tournaments.models import (
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    Club,
    Entry,
    Event,
    Pair,
    Player,
    Round,
)
from tournaments.services.events import EVENT_OPTIONS, preset_fields
from tournaments.services.late_entries import last_round
from tournaments.services.names import max_length

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
PRESET_LABELS: list[tuple[str, object, object]] = [
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

# The presets named after real events' published rules (scoring.presets): the English texts
# live there; these are their translated copies, keyed by code.
RULE_PRESET_TEXTS = {
    "open_swiss": (
        _("Open Swiss (ButiNET Lloret, Torrefarrera)"),
        _(
            "Seven Swiss rounds; each round is one game that ends at 101 points, 12 deals or "
            "60 minutes, whichever comes first; at most 121 points count; a drawn game is half "
            "a win. Ranked by games won, point difference, points scored."
        ),
    ),
    "open_swiss_accelerated": (
        _("Open Swiss, large field (accelerated, clubs kept apart)"),
        _(
            "The open Swiss for 100 pairs and more: the top half gets virtual points in the "
            "first rounds so that favourites do not meet too early, and pairs of the same club "
            "do not meet in the first two rounds."
        ),
    ),
    "girona_groups": (
        _("Groups and knockout (Girona, Fires de Sant Narcís)"),
        _(
            "Groups of four play each other; each game is 8 deals, the higher score wins and a "
            "level game gets two more deals. The group winners and a repesca of the best "
            "runners-up (none with fewer points than a win) fill a knockout bracket."
        ),
    ),
    "club_evening": (
        _("Club evening (round robin, quick games)"),
        _(
            "Everybody plays everybody; games to 51 points or 5 deals; a level game at the "
            "fifth deal goes on until one pair scores (rule R12)."
        ),
    ),
    "club_league": (
        _("Club league (double round robin)"),
        _(
            "A season: everybody meets everybody twice, once in each direction; games to 101 "
            "points without a deal limit (rule R12)."
        ),
    ),
    "duplicate_swiss": (
        _("Duplicate Swiss (every board counts)"),
        _(
            "Every table plays every board of the round and every board counts; Swiss "
            "pairings; ranked by games won, then point difference."
        ),
    ),
}


# The pairing method and options a preset sets, which the pairing page shows (the event form
# carries the preset's name and applies them when the event is saved).
PAIRING_OPTIONS = (
    "format",
    "seeding",
    "accelerated",
    "club_rounds",
    "round_robin",
    "group_size",
    "qualifiers",
    "repesca",
    "repesca_min_points",
)


def _rule_preset_fields(preset: Preset) -> dict[str, object]:
    """The event options a rules preset fills in on the event form; ``events.preset_fields``
    has them all (``preset_pairing`` the rest)."""
    fields = preset_fields(preset)
    return {k: v for k, v in fields.items() if k not in PAIRING_OPTIONS}


def preset_pairing(code: str) -> dict[str, object]:
    """The pairing method and options a rules preset sets ({} for any other name)."""
    preset = RULES_PRESETS.get(code)
    if preset is None:
        return {}
    return {k: v for k, v in preset_fields(preset).items() if k in PAIRING_OPTIONS}


for _code, (_label, _help) in RULE_PRESET_TEXTS.items():
    PRESETS[_code] = _rule_preset_fields(RULES_PRESETS[_code])
    PRESET_LABELS.append((_code, _label, _help))

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
        "The round's boards are played as one game: it ends at the target, the deal limit "
        "or the round's time, whichever comes first; the later boards are not played."
    ),
}
DRAW_HELP = {
    Event.Draw.HALF: _("Level after the regular deals: a draw, half a win for each pair."),
    Event.Draw.TIEBREAK: _(
        "Level after the regular deals: the tie-break deals are all played, then the pair "
        "ahead wins; still level, play on deal by deal until one pair scores."
    ),
    Event.Draw.PLAY_ON: _(
        "Level after the regular deals: play on deal by deal until one pair scores."
    ),
}
# Options a form may leave out: the event's current value (the model default when new) stays.
OPTIONAL_OPTIONS = (
    "draw",
    "tiebreak_deals",
    "late_entry_points",
    "requested_bye_points",
    "competitor",
    "team_bye_vp",
)


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
    # The rules preset last applied on this form: its pairing method goes with the options.
    pairing_preset = forms.ChoiceField(
        choices=[("", "")] + [(code, code) for code in RULES_PRESETS],
        required=False,
        widget=forms.HiddenInput,
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
            "draw",
            "tiebreak_deals",
            "round_minutes",
            "rounds_count",
            "boards_per_round",
            "ranking_method",
            "bye_points",
            "late_entry_points",
            "requested_bye_points",
            "registration_cap",
            "fee_amount",
            "fee_currency",
            "fee_instructions",
            "competitor",
            "team_bye_vp",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "competitor": forms.RadioSelect,
            "ruleset": forms.RadioSelect,
            "match_mode": forms.RadioSelect,
            "draw": forms.RadioSelect,
            "ranking_method": forms.RadioSelect,
        }
        help_texts = {
            "competitor": _(
                "Teams of four to six players: each match is two tables playing the same "
                "boards, the teams' pairs crossed; scored in units and victory points."
            ),
            "team_bye_vp": _("Team events: the victory points (of 20) of a team with the bye."),
            "ruleset": _(
                "Lliure: follow suit and beat an opponent's card when you can. "
                "Obligada: the same, plus the eastern rule that a card which does not "
                "win must be a point card for a winning partner or your lowest of its "
                "suit."
            ),
            "game_target": _(
                "A game is won by the first pair to reach this score (101 usual, "
                "51 for a quick game). Empty: no target, a game of a fixed number of deals."
            ),
            "deal_limit": _(
                "Stop a game after this many deals; the pair ahead wins. Empty: no limit."
            ),
            "match_mode": _("How a round between two pairs is scored."),
            "game_cap": _(
                "In game mode, the most points a game counts for in the standings (121 in the "
                "Catalan opens); the winner is still the pair that scored more. Empty: no cap."
            ),
            "draw": _("What a level game means once its regular deals are played."),
            "tiebreak_deals": _("With tie-break deals: how many (2 usual)."),
            "round_minutes": _(
                "The round's clock, started by the organiser. At time the deal in progress is "
                "finished and no new deal starts; the later boards are not played. "
                "Empty: no clock."
            ),
            "late_entry_points": _(
                "A pair that joins after the start begins with these match points (2 = one "
                "win, 1 = a draw, 0 = nothing)."
            ),
            "requested_bye_points": _(
                "A pair that asks to sit out a round scores these match points for it (2 = one "
                "win, 1 = a draw, 0 = nothing)."
            ),
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
        self.fields["fee_amount"].widget.attrs["min"] = 0
        self.fields["fee_currency"].required = False
        # Older clients and the presets do not send it: by lot unless asked.
        self.fields["game_target"].widget.attrs["min"] = 1
        self.fields["round_minutes"].widget.attrs["min"] = 1
        for name in OPTIONAL_OPTIONS:
            self.fields[name].required = False
        self.fields["rounds_count"].widget.attrs.update(min=1, max=MAX_ROUNDS)
        self.fields["boards_per_round"].widget.attrs.update(min=1, max=MAX_BOARDS_PER_ROUND)
        if locked:
            for name in EVENT_OPTIONS:
                if name in self.fields:
                    self.fields[name].disabled = True
        else:
            # A round sat out is worth a win at most. Checked where the option is chosen, not on
            # the model: an event stored with more before this check keeps its figure, and its
            # other details can still be changed once the options are fixed.
            bye = self.fields["requested_bye_points"]
            bye.validators.append(MaxValueValidator(2))
            bye.widget.attrs.update(min=0, max=2)

    def clean_game_target(self) -> int | None:
        value = self.cleaned_data["game_target"]
        if value is not None and value < 1:
            raise forms.ValidationError(_("The target must be at least 1."))
        return value

    def clean_round_minutes(self) -> int | None:
        value = self.cleaned_data["round_minutes"]
        if value is not None and not 1 <= value <= 600:
            raise forms.ValidationError(_("Leave it empty for no clock, or give 1 to 600 minutes."))
        return value

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        for name in OPTIONAL_OPTIONS:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)
        if self.locked:
            return data
        instance = self.instance
        if (
            instance.pk
            and data.get("competitor") != instance.competitor
            and (instance.entries.exists() or instance.teams.exists())
        ):
            self.add_error(
                "competitor",
                _("Pairs or teams are registered: the kind of competitor can no longer change."),
            )
        cap, target = data.get("game_cap"), data.get("game_target")
        if cap is not None and target is not None and cap < target:
            self.add_error(
                "game_cap",
                _("The cap (%(cap)s) must not be below the target (%(target)s).")
                % {"cap": cap, "target": target},
            )
        if data.get("match_mode") == Event.MatchMode.GAME:
            if target is None and data.get("deal_limit") is None:
                self.add_error(
                    "deal_limit",
                    _("A game without a target needs a deal limit, or it would never end."),
                )
            limit, boards = data.get("deal_limit"), data.get("boards_per_round")
            extra = data.get("tiebreak_deals") if data.get("draw") == Event.Draw.TIEBREAK else 0
            if limit is not None and boards is not None and limit + (extra or 0) > boards:
                self.add_error(
                    "boards_per_round",
                    _(
                        "A game may need %(n)s deals (the deal limit and the tie-break deals): "
                        "give the round at least that many boards."
                    )
                    % {"n": limit + (extra or 0)},
                )
        return data

    def clean_deal_limit(self) -> int | None:
        value = self.cleaned_data["deal_limit"]
        if value is not None and value < 1:
            raise forms.ValidationError(_("Leave it empty for no limit, or give at least 1."))
        return value

    def clean_rounds_count(self) -> int:
        value = self.cleaned_data["rounds_count"]
        if not 1 <= value <= MAX_ROUNDS:
            raise forms.ValidationError(_("Between 1 and %(max)s rounds.") % {"max": MAX_ROUNDS})
        return value

    def clean_registration_cap(self) -> int | None:
        value = self.cleaned_data.get("registration_cap")
        if value is not None and not 2 <= value <= 2000:
            raise forms.ValidationError(_("Between 2 and 2,000 pairs, or empty for no cap."))
        return value

    def clean_fee_currency(self) -> str:
        value = (self.cleaned_data.get("fee_currency") or "EUR").strip().upper()
        if not (len(value) == 3 and value.isalpha()):
            raise forms.ValidationError(_("Three letters, for example EUR."))
        return value

    def clean_boards_per_round(self) -> int:
        value = self.cleaned_data["boards_per_round"]
        if not 1 <= value <= MAX_BOARDS_PER_ROUND:
            raise forms.ValidationError(
                _("Between 1 and %(max)s boards per round.") % {"max": MAX_BOARDS_PER_ROUND}
            )
        return value

    def service_fields(self) -> dict[str, object]:
        """The cleaned values to hand to the service (club still as a name)."""
        data = {
            k: v for k, v in self.cleaned_data.items() if k not in ("club_name", "pairing_preset")
        }
        if self.locked:
            return {k: v for k, v in data.items() if k not in EVENT_OPTIONS}
        return data | preset_pairing(self.cleaned_data.get("pairing_preset") or "")

    def ranking_help(self) -> list[tuple[object, object]]:
        return [(label, RANKING_HELP[v]) for v, label in Event.Ranking.choices]

    def match_mode_help(self) -> list[tuple[object, object]]:
        return [(label, MATCH_MODE_HELP[v]) for v, label in Event.MatchMode.choices]

    def draw_help(self) -> list[tuple[object, object]]:
        return [(label, DRAW_HELP[v]) for v, label in Event.Draw.choices]


def apply_preset(data: QueryDict, preset: str) -> QueryDict:
    """A copy of the posted form with a preset's options filled in (nothing is saved)."""
    data = data.copy()
    if preset_pairing(preset):
        data["pairing_preset"] = preset
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
    # Not stripped: a last line's empty name and club are trailing separators, and the file
    # confirmed must be the file previewed.
    csv_text = forms.CharField(widget=forms.HiddenInput, max_length=MAX_CSV_BYTES, strip=False)


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


class ByeRequestForm(forms.Form):
    entry = forms.ModelChoiceField(label=_("Pair"), queryset=Entry.objects.none())
    round_number = forms.IntegerField(label=_("Sits out round"), min_value=1)

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["entry"].queryset = event.entries.filter(
            withdrawn_after_round__isnull=True
        ).select_related("pair")
        self.fields["entry"].label_from_instance = lambda e: f"{e.number}. {e.pair.name}"
        last = last_round(event)
        self.fields["round_number"].max_value = last
        self.fields["round_number"].widget.attrs.update(min=1, max=last)
