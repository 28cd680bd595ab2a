"""The chat box's forms over plain HTTP: the fallback when the websocket is down, and the way
without JavaScript. Live, messages go over the table's websocket (``games.live.consumer``)."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User

from . import services
from .access import table_visible
from .chat_html import chat_html
from .models import ChatMessage, GameSession


class ChatForm(forms.Form):
    text = forms.CharField(max_length=ChatMessage.MAX_LENGTH * 4, strip=False)  # the service says what is too long


class SwitchForm(forms.Form):
    on = forms.TypedChoiceField(choices=[("0", "off"), ("1", "on")], coerce=lambda value: value == "1")


class MuteForm(forms.Form):
    user = forms.IntegerField(min_value=1)
    mute = forms.TypedChoiceField(choices=[("0", "no"), ("1", "yes")], coerce=lambda value: value == "1")


def _chat_act(request: HttpRequest, session_id: int, form: forms.Form, action: Callable[[dict], str | None]):
    """Run a chat change; answer with this viewer's chat box (htmx) or go back to the table.

    What went wrong, or what the change means (``action``'s answer), is said beside the box; a
    refused line stays in the writing box, to send again."""
    session = get_object_or_404(GameSession, pk=session_id)
    error, note = _("That request was not understood; nothing changed."), ""
    if form.is_valid():
        try:
            note = action(form.cleaned_data) or ""
            error = ""
        except services.TableError as refused:
            error = refused.message
    if request.htmx:
        session.refresh_from_db()
        draft = request.POST.get("text", "") if error else ""
        return HttpResponse(chat_html(session, request.user, request=request, draft=draft, note=error or note))
    if error:
        messages.error(request, error)
    elif note:
        messages.info(request, note)
    return redirect("table", session_id=session_id)


@login_required
@require_POST
@table_visible
def chat_post(request: HttpRequest, session_id: int) -> HttpResponse:
    return _chat_act(
        request,
        session_id,
        ChatForm(request.POST),
        lambda data: services.chat_post(session_id=session_id, user=request.user, text=data["text"]),
    )


@login_required
@require_POST
@table_visible
def chat_switch(request: HttpRequest, session_id: int) -> HttpResponse:
    return _chat_act(
        request,
        session_id,
        SwitchForm(request.POST),
        lambda data: services.chat_switch(session_id=session_id, user=request.user, on=data["on"]),
    )


@login_required
@require_POST
@table_visible
def chat_mute(request: HttpRequest, session_id: int) -> HttpResponse:
    def mute(data: dict) -> str:
        services.chat_mute(user=request.user, other_id=data["user"], mute=data["mute"])
        other = User.objects.filter(pk=data["user"]).first()
        if not data["mute"] or other is None:
            return ""
        return _("Muted for you at every table: you will not see %(name)s's messages anywhere until you unmute.") % {
            "name": other.name
        }

    return _chat_act(request, session_id, MuteForm(request.POST), mute)
