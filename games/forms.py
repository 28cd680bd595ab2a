from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.cards import CARDS


class TableForm(forms.Form):
    seats = forms.IntegerField(label=_("Seats"), min_value=3, max_value=10, initial=4)
    target = forms.IntegerField(label=_("Wins needed"), min_value=1, max_value=10, initial=3)
    profile = forms.ChoiceField(
        label=_("Rules"),
        choices=[("modern", _("Modern (must overtake)")), ("classic", _("Classic (follow suit only)"))],
        initial="modern",
    )
    trump = forms.BooleanField(label=_("Trump: the dealer's fifth card"), required=False)
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

    def options(self) -> dict:
        data = self.cleaned_data
        return {"profile": data["profile"], "trump": data["trump"], "target": data["target"]}


class PlayForm(forms.Form):
    card = forms.ChoiceField(choices=[(c, c) for c in CARDS])
    seq = forms.IntegerField(min_value=0)


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
