from math import ceil

from axes.helpers import get_client_ip_address, get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games.webpush import application_server_key

from . import services
from .forms import NotificationsForm, ProfileForm, SignupForm


def signup(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Axes' backend only watches attempts; the account is checked by ModelBackend.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.name})
        return redirect(next_url or "lobby")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


class PasswordReset(PasswordResetView):
    """Django's reset form, counted per address typed and per client (``services.password_reset_count``).

    Refused: the form again with the reason, status 429; the same for any address, account or not.
    The client address is the one the login throttle counts per (django-axes, see the settings).
    """

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        try:
            services.password_reset_count(email=form.cleaned_data["email"], client=get_client_ip_address(self.request))
        except services.PasswordResetThrottled as refused:
            form.add_error(None, refused.message)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Settings: the profile, and (posted apart, as ``part=notifications``) how turns are told."""
    part = request.POST.get("part") if request.method == "POST" else None
    form = ProfileForm(request.POST if part is None else None, instance=request.user)
    notifications = NotificationsForm(request.POST if part == "notifications" else None, instance=request.user)
    saved = form if part is None else notifications
    if request.method == "POST" and saved.is_valid():
        saved.save()
        messages.success(
            request, _("Your profile was saved.") if part is None else _("Your notification settings were saved.")
        )
        return redirect(reverse("profile") + ("#notifications" if part else ""))
    context = {"form": form, "notifications": notifications, "vapid_key": application_server_key()}
    return render(request, "accounts/profile.html", context)


def locked_out(request: HttpRequest, *args: object) -> HttpResponse:
    """django-axes' answer to a locked-out login: the login page again, saying why and for how long.

    Axes calls this with ``(request, original_response, credentials)``, and with ``(request, credentials)``
    on its async path; neither extra is needed. Status 429 Too Many Requests, as axes' own default.
    """
    cool_off = get_cool_off(request)
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {
        "form": form,
        "next": request.POST.get("next", ""),
        "locked_out": True,
        "minutes": ceil(cool_off.total_seconds() / 60) if cool_off else None,
    }
    return render(request, "registration/login.html", context, status=429)


@login_required
@require_POST
def turn_sound(request: HttpRequest) -> HttpResponse:
    """The table's sound switch, remembered on the account (so every device and tab follows it)."""
    request.user.turn_sound = request.POST.get("on") == "1"
    request.user.save(update_fields=["turn_sound"])
    if request.htmx:
        return render(request, "accounts/_sound_switch.html")
    next_url = request.POST.get("next") or request.headers.get("referer") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "lobby"
    return redirect(next_url)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (a cookie for this browser), and for a signed-in player their
    preference too, so every device and every table message follows it."""
    chosen = request.POST.get("language", "")
    if request.user.is_authenticated and chosen in dict(settings.LANGUAGES):
        request.user.language = chosen
        request.user.save(update_fields=["language"])
    return set_language(request)
