"""Invitations by name and blocks: plain forms, thin over ``services.invitations``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from . import services
from .models import Block
from .views import _act


@login_required
@require_POST
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
    blocked = Block.objects.filter(user=request.user).select_related("blocked").order_by("blocked__username")
    context = {"invitations": services.invitations_open(request.user).order_by("-created"), "blocked": blocked}
    return render(request, "games/invitations.html", context)


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    join = request.POST.get("join") == "1"
    try:
        session = services.invitation_answer(invitation_id=invitation_id, user=request.user, join=join)
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("invitations")
    return redirect("table", session_id=session.pk) if join else redirect("invitations")


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    try:
        other = services.follow(user=request.user, username=username, following=request.POST.get("following") != "0")
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby")
    return redirect("player", username=other.username)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    blocked = request.POST.get("blocked") != "0"
    try:
        other = services.block(user=request.user, username=username, blocked=blocked)
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby")
    if blocked:
        messages.success(request, _("You blocked %(name)s.") % {"name": other.name})
    else:
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.name})
    if request.POST.get("next") == "invitations":  # unblocked from the list of blocks
        return redirect("invitations")
    return redirect("player", username=other.username)
