from django import forms
from django.utils.translation import gettext_lazy as _

from games.bots.partners import partnership_switch
from games.engine.cards import CARDS
from games.engine.game import Game, looks_like_action
from games.engine.options import Option, from_form
from games.stored import seat_choices


class TableForm(forms.Form):
    """A new table of one game: seats, that game's own options (from its declaration), and the turn clock."""

    game = forms.CharField(widget=forms.HiddenInput, required=False)
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn clock"),
        choices=[
            (0, _("None (a table among friends)")),
            (15, _("15 seconds a move")),
            (30, _("30 seconds a move")),
            (60, _("60 seconds a move")),
        ],
        coerce=int,
        initial=30,
        required=False,
        empty_value=30,
        help_text=_("When it runs out, a computer plays for that player until they take their seat back."),
    )

    pace_seconds = forms.TypedChoiceField(
        label=_("Pace"),
        choices=[
            (0, _("Live: everyone plays at once")),
            (3600, _("Turn-based: 1 hour per move")),
            (8 * 3600, _("Turn-based: 8 hours per move")),
            (24 * 3600, _("Turn-based: 1 day per move")),
            (3 * 24 * 3600, _("Turn-based: 3 days per move")),
        ],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        help_text=_(
            "Turn-based: each plays when they like and is told when it is their turn; when a deadline "
            "passes, a computer makes that move (missing several in a row, it keeps the seat until its player "
            "takes it back). The turn clock then does not apply."
        ),
    )

    unlisted = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Not listed in the lobby: players join by the table's link or its code."),
    )

    beginner_partners = forms.BooleanField(
        label=_("My computer partner plays as partner to a beginner"), required=False
    )

    def __init__(self, rules: Game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["game"].initial = rules.name
        choices = seat_choices(rules)
        low, high = choices[0], choices[-1]
        # A game for one number of players only (Euchre: four) has nothing to choose: the page says how many.
        self.fixed_seats = low if low == high else None
        if len(choices) == high - low + 1:
            seats = forms.IntegerField(
                label=_("Seats"),
                min_value=low,
                max_value=high,
                initial=min(max(4, low), high),
                widget=forms.HiddenInput if self.fixed_seats else None,
            )
        else:  # some table sizes only (2, 4 or 6): offer just those
            seats = forms.TypedChoiceField(
                label=_("Seats"), choices=[(n, str(n)) for n in choices], coerce=int, initial=choices[0]
            )
        fields = {"game": self.fields.pop("game"), "seats": seats}
        fields |= {option.name: _field(option) for option in rules.options_schema}
        fields["turn_seconds"] = self.fields.pop("turn_seconds")
        fields["pace_seconds"] = self.fields.pop("pace_seconds")
        fields["unlisted"] = self.fields.pop("unlisted")
        partnered = partnership_switch(rules)
        beginner_partners = self.fields.pop("beginner_partners")
        if partnered is not None:  # only where seats may play in partnerships (with the switch that pairs them)
            beginner_partners.help_text = (
                _(
                    "A computer partnering you never goes alone, never takes a trick you are winning and never "
                    "leads a suit you have shown out of."
                )
                if rules.bold_calls
                else _(
                    "A computer partnering you never takes a trick you are winning and never leads a suit you have "
                    "shown out of."
                )
            )
            if partnered:
                beginner_partners.widget.attrs["data-needs"] = partnered
            fields["beginner_partners"] = beginner_partners
        self.fields = fields

    def clean_game(self) -> str:
        if self.cleaned_data["game"] not in ("", self.rules.name):
            raise forms.ValidationError(_("Unknown game."))
        return self.rules.name

    def options(self) -> dict:
        return from_form(self.rules.options_schema, self.cleaned_data)


def _field(option: Option) -> forms.Field:
    """A form field for one declared option; the declaration's English texts are translated here."""
    label, help_text = _(option.label), _(option.help)
    field = _plain_field(option, label, help_text)
    if option.needs:  # the page hides it while the option it needs is off (table.js)
        field.widget.attrs["data-needs"] = option.needs
    return field


def _plain_field(option: Option, label: str, help_text: str) -> forms.Field:
    if option.kind == "flag":
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=option.default)
    if option.kind == "number":
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            min_value=option.low,
            max_value=option.high,
            initial=option.default,
            required=False,  # left empty: the default
        )
    return forms.ChoiceField(
        label=label,
        help_text=help_text,
        choices=[(key, _(text)) for key, text in option.choices],
        initial=option.default,
        required=False,  # not sent: the default
    )


class MoveForm(forms.Form):
    """One move: a card, or an action word (a bid, a call, a vote on new cards); the rules judge it.

    Pages send it as ``move``; pages from before that name sent ``card``, still read."""

    move = forms.CharField(max_length=20)
    seq = forms.IntegerField(min_value=0)
    # Cards of the hand marked to go with the move (the discards before a draw): real cards, or not understood.
    marked = forms.MultipleChoiceField(choices=[(card, card) for card in CARDS], required=False)

    def __init__(self, data=None, *args, **kwargs):
        if data is not None and "move" not in data and "card" in data:
            data = data.copy()
            data["move"] = data["card"]
        super().__init__(data, *args, **kwargs)

    def clean_move(self) -> str:
        if not looks_like_action(self.cleaned_data["move"]):
            raise forms.ValidationError(_("That move was not understood; nothing changed."))
        return self.cleaned_data["move"]


class SeatForm(forms.Form):
    position = forms.IntegerField(min_value=0, max_value=9, required=False)


class ComputerForm(SeatForm):
    level = forms.ChoiceField(
        choices=[("easy", _("easy")), ("medium", _("medium")), ("strong", _("strong"))],
        initial="medium",
        required=False,
    )

    def clean_level(self) -> str:
        return self.cleaned_data["level"] or "medium"
