from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken (usernames ignore upper and lower case)."))
        return username


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
