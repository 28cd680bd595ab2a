from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import names
from .models import User

EMAIL_HELP = _("Used only to reset your password; nobody else sees it.")


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
