"""The chat box's forms over plain HTTP: the fallback when the websocket is down, and the way
without JavaScript. Live, messages go over the table's websocket (``games.live.consumer``)."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import services
from .chat_html import chat_html
from .models import ChatMessage, GameSession


class ChatForm(forms.Form):
    text = forms.CharField(max_length=ChatMessage.MAX_LENGTH * 4, strip=False)  # the service says what is too long


class SwitchForm(forms.Form):
    on = forms.TypedChoiceField(choices=[("0", "off"), ("1", "on")], coerce=lambda value: value == "1")


class MuteForm(forms.Form):
    user = forms.IntegerField(min_value=1)
    mute = forms.TypedChoiceField(choices=[("0", "no"), ("1", "yes")], coerce=lambda value: value == "1")


def _chat_act(request: HttpRequest, session_id: int, form: forms.Form, action: Callable[[dict], object]):
    """Run a chat change; answer with this viewer's chat box (htmx) or go back to the table."""
    session = get_object_or_404(GameSession, pk=session_id)
    error = _("That request was not understood; nothing changed.")
    if form.is_valid():
        try:
            action(form.cleaned_data)
            error = ""
        except services.TableError as refused:
            error = refused.message
    if request.htmx:
        session.refresh_from_db()
        box = chat_html(session, request.user, request=request)
        if error:
            box += render_to_string("games/_message.html", {"message": error, "oob": True})
        return HttpResponse(box)  # htmx swaps only successful answers; the message says what went wrong
    if error:
        messages.error(request, error)
    return redirect("table", session_id=session_id)


@login_required
@require_POST
def chat_post(request: HttpRequest, session_id: int) -> HttpResponse:
    return _chat_act(
        request,
        session_id,
        ChatForm(request.POST),
        lambda data: services.chat_post(session_id=session_id, user=request.user, text=data["text"]),
    )


@login_required
@require_POST
def chat_switch(request: HttpRequest, session_id: int) -> HttpResponse:
    return _chat_act(
        request,
        session_id,
        SwitchForm(request.POST),
        lambda data: services.chat_switch(session_id=session_id, user=request.user, on=data["on"]),
    )


@login_required
@require_POST
def chat_mute(request: HttpRequest, session_id: int) -> HttpResponse:
    return _chat_act(
        request,
        session_id,
        MuteForm(request.POST),
        lambda data: services.chat_mute(user=request.user, other_id=data["user"], mute=data["mute"]),
    )
