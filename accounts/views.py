from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games.selectors import sessions_of

from .forms import ProfileForm, SignupForm


def signup(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.name})
        return redirect(next_url or "lobby")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile was saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form, "sessions": sessions_of(request.user)})
