"""Turn-based play away from the table: My tables, this browser's push subscription, and the
one-click end of turn e-mails. Thin over ``services.notify`` and ``my_tables``."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import services
from .my_tables import my_tables as my_tables_of

MAX_SUBSCRIPTION_BYTES = 4096


@login_required
@require_safe
def my_tables(request: HttpRequest) -> HttpResponse:
    return render(request, "games/my_tables.html", {"tables": my_tables_of(request.user.pk)})


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's ``PushSubscription.toJSON()``, posted by app.js once the player allowed notifications."""
    if len(request.body) > MAX_SUBSCRIPTION_BYTES:
        return JsonResponse({"error": _("That is not a push subscription this site can use.")}, status=400)
    try:
        info = json.loads(request.body)
        services.push_subscribe(user=request.user, info=info, browser=request.headers.get("user-agent", ""))
    except (ValueError, services.TableError) as error:
        message = error.message if isinstance(error, services.TableError) else _("That is not JSON.")
        return JsonResponse({"error": message}, status=400)
    return JsonResponse({"subscribed": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    try:
        endpoint = json.loads(request.body[:MAX_SUBSCRIPTION_BYTES]).get("endpoint")
    except (ValueError, AttributeError):
        return JsonResponse({"error": _("That is not JSON.")}, status=400)
    removed = services.push_unsubscribe(user=request.user, endpoint=endpoint)
    return JsonResponse({"removed": removed})


@csrf_exempt  # the signed link is the credential: a mail program's one-click POST carries no CSRF token
@require_http_methods(["GET", "POST"])
def turn_email_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (a link scanner must not unsubscribe anyone); POST, from the page or the mail
    program's one-click button (RFC 8058), turns turn e-mails off."""
    if request.method == "GET":
        return render(request, "games/unsubscribe.html", {"token": token})
    try:
        services.turn_email_unsubscribe(token=token)
    except services.TableError as error:
        return render(request, "games/unsubscribe.html", {"error": error.message}, status=400)
    if request.user.is_authenticated:
        messages.success(request, _("You will get no more e-mails about your turns."))
        return redirect("profile")
    return render(request, "games/unsubscribe.html", {"done": True})
