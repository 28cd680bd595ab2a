import zoneinfo

from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import names
from .models import User

EMAIL_HELP = _("To reset your password and, if you want them, to hear of your turn-based tables; nobody else sees it.")


class PlayerFieldsMixin:
    """Display name, username and email rules (``accounts.names``) for any form that has those fields.

    Field errors here are clearer than the database constraints' form-wide messages, which stay as the
    last line of defence.
    """

    cleaned_data: dict
    instance: User

    def clean_display_name(self) -> str:
        return names.clean_display_name(self.cleaned_data.get("display_name") or "", self.instance.pk)

    def clean_email(self) -> str:
        email = (self.cleaned_data.get("email") or "").strip()
        names.validate_email(email, self.instance.pk)
        return email


class SignupForm(PlayerFieldsMixin, UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A player who forgets the password needs somewhere to send the reset link.
        self.fields["email"].required = True
        self.fields["email"].help_text = EMAIL_HELP

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(names.USERNAME_TAKEN, code="username_taken")
        names.validate_username(username, None)
        return username


class ProfileForm(PlayerFieldsMixin, forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "language", "turn_sound")
        help_texts = {"email": EMAIL_HELP}


def time_zone_choices() -> list[tuple[str, str]]:
    return [("", _("UTC"))] + [(zone, zone.replace("_", " ")) for zone in sorted(zoneinfo.available_timezones())]


class NotificationsForm(forms.ModelForm):
    """How a player hears that a turn-based table waits on them, and in which time zone they read deadlines."""

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices, required=False)

    class Meta:
        model = User
        fields = ("time_zone", "turn_push", "turn_email", "quiet_from", "quiet_until")
        widgets = {
            "quiet_from": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_until": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def clean(self) -> dict:
        data = super().clean()
        if (data.get("quiet_from") is None) != (data.get("quiet_until") is None):
            raise forms.ValidationError(_("Give both ends of your quiet hours, or neither."), code="quiet_half")
        return data


class AdminPlayerChangeForm(PlayerFieldsMixin, UserChangeForm):
    """The admin's user page: the same name and email rules as the site's forms."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:  # an old username that predates the rules can stay
            names.validate_username(username, self.instance.pk)
        return username


class AdminPlayerCreationForm(AdminUserCreationForm):
    """The admin's "add user" page (username and password only): the username rules."""

    def clean_username(self) -> str:
        username = super().clean_username()
        names.validate_username(username, None)
        return username
