"""Invitations by name and blocks: plain forms, thin over ``services.invitations``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from . import services
from .access import table_visible
from .views import _act


@login_required
@require_POST
@table_visible
def invite(request: HttpRequest, session_id: int) -> HttpResponse:
    username = request.POST.get("username", "")

    def send() -> None:
        invitation = services.invite(session_id=session_id, user=request.user, username=username)
        if not request.htmx:
            messages.success(request, _("%(name)s is invited.") % {"name": invitation.invitee.name})

    return _act(request, session_id, send)


@login_required
@require_safe
def invitations(request: HttpRequest) -> HttpResponse:
    context = {"invitations": services.invitations_open(request.user).order_by("-created")}
    return render(request, "games/invitations.html", context)


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """From the invitations page (a plain form) or a live toast (htmx: the toast says the outcome)."""
    join = request.POST.get("join") == "1"
    try:
        session = services.invitation_answer(invitation_id=invitation_id, user=request.user, join=join)
    except services.TableError as refused:
        if request.htmx:
            return render(request, "games/_toast_said.html", {"said": refused.message})
        messages.error(request, refused.message)
        return redirect("invitations")
    if join:
        url = reverse("table", args=[session.pk])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:  # the toast goes, and the header counts one fewer
        return render(request, "games/_invitations_link.html", {"oob": True})
    return redirect("invitations")


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    try:
        other = services.follow(user=request.user, username=username, following=request.POST.get("following") != "0")
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby") if refused.code == "missing" else redirect("player", username=username)
    return redirect("player", username=other.username)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    blocked = request.POST.get("blocked") != "0"
    try:
        other = services.block(user=request.user, username=username, blocked=blocked)
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby") if refused.code == "missing" else redirect("player", username=username)
    if blocked:
        messages.success(request, _("You blocked %(name)s.") % {"name": other.name})
    else:
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.name})
    if request.POST.get("next") == "settings":  # unblocked from the list of blocks
        return redirect(reverse("profile") + "#blocked")
    return redirect("player", username=other.username)
