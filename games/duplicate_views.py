"""The daily deals, duplicate events and two tables of the same deals compared. Thin over
``services.duplicate``, ``services.same_deals`` and the reads in ``duplicate_pages``."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import duplicate_pages as pages
from . import services
from .access import code_tried, findable, found_page, may_see, normal_code, refused_page
from .engine import GAMES
from .models import DuplicateEvent, GameSession
from .services import duplicate

WINDOW_NAMES = {3600: gettext_lazy("1 hour"), 3 * 3600: gettext_lazy("3 hours"), 24 * 3600: gettext_lazy("1 day")}


class EventForm(forms.Form):
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    deal_count = forms.TypedChoiceField(
        label=gettext_lazy("Deals"), coerce=int, initial=4, choices=[(n, str(n)) for n in duplicate.EVENT_DEALS]
    )
    window_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Open for"), coerce=int, choices=[(s, WINDOW_NAMES[s]) for s in duplicate.EVENT_WINDOWS]
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)
    unlisted = forms.BooleanField(label=gettext_lazy("Private (joined by its code)"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(name, _(rules.title)) for name, rules in GAMES.items() if rules.on_site]


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    today = duplicate.today()
    context = {
        "today": today,
        "rows": pages.daily_rows(request.user, today),
        "yesterday": pages.revealed_dailies(today - timedelta(days=1)),
    }
    return render(request, "games/daily.html", context)


def _event_found(request: HttpRequest, event_id: int) -> DuplicateEvent:
    """An event anyone may look at (not its results); a private one as ``access.findable`` says."""
    event = get_object_or_404(DuplicateEvent, pk=event_id)
    if findable(request, event, lambda user: GameSession.objects.filter(event=event, seats__user=user).exists()):
        return event
    raise Http404("No such event.")


event_visible = found_page(_event_found)


@login_required
@require_POST
@event_visible
def event_play(request: HttpRequest, event: DuplicateEvent) -> HttpResponse:
    try:
        session = services.event_play(user=request.user, event_id=event.pk)
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect(_event_url(event))
    return redirect("table", session_id=session.pk)


@require_safe
@event_visible
def event_page(request: HttpRequest, event: DuplicateEvent) -> HttpResponse:
    """The event's results for who may see them; for anyone else only what it is and the way to play.
    A deal's results show only to who has had their try at it (or once the event reveals)."""
    mine = (
        GameSession.objects.filter(event=event, seats__user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    context: dict = {"event": event, "revealed": duplicate.revealed(event), "now": duplicate.duplicate_now()}
    context["mine"] = mine
    if not (context["revealed"] or duplicate.may_see_event(event, request.user, mine)):
        return render(request, "games/event.html", context, status=403 if mine else 200)
    boards = list(event.boards.all())
    number = _number(request.GET.get("deal"), len(boards))
    board = boards[number - 1]
    open_to_me = context["revealed"] or request.user.is_staff or number in duplicate.boards_tried(event, request.user)
    page = _number(request.GET.get("page"), 10**6)
    context |= {
        "boards": boards,
        "board": board,
        "results": pages.board_page(board, request.user, page) if open_to_me else None,
        "standings": pages.event_standings(event, request.user) if event.deal_count > 1 else None,
        "visible": True,
    }
    return render(request, "games/event.html", context)


@require_safe
@event_visible
def event_standings(request: HttpRequest, event: DuplicateEvent) -> HttpResponse:
    """The standings alone, fetched again every few seconds by the event page while it is open."""
    if not duplicate.may_see_event(event, request.user):
        raise Http404("No such event.")
    context = {"event": event, "standings": pages.event_standings(event, request.user)}
    return render(request, "games/_event_standings.html", context)


@require_safe
@event_visible
def event_export(request: HttpRequest, event: DuplicateEvent) -> HttpResponse:
    if not duplicate.revealed(event):
        raise Http404("Not revealed yet.")
    response = JsonResponse(pages.event_export(event), safe=False)
    response["Content-Disposition"] = f'attachment; filename="femkort-event-{event.pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
def events(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            try:
                event = services.event_create(user=request.user, **form.cleaned_data)
            except services.TableError as refused:
                form.add_error(None, refused.message)
            else:
                return redirect(_event_url(event))
    now = duplicate.duplicate_now()
    listed = DuplicateEvent.objects.filter(day__isnull=True, unlisted=False)
    context = {
        "form": form,
        "open_events": listed.filter(opens__lte=now, closes__gt=now).order_by("closes")[:50],
        "finished_events": listed.filter(closes__lte=now).order_by("-closes")[:20],
        "ladder_game": request.GET.get("game") if request.GET.get("game") in GAMES else next(iter(GAMES)),
    }
    context["ladder"] = pages.ladder(context["ladder_game"], now.date())
    context["games"] = [(name, _(rules.title)) for name, rules in GAMES.items() if rules.on_site]
    return render(request, "games/events.html", context, status=400 if form.errors else 200)


@require_safe
def event_by_code(request: HttpRequest) -> HttpResponse:
    code = normal_code(request.GET.get("code") or "")
    if not code:
        return redirect("events")
    try:
        code_tried(user=request.user, client=request.META.get("REMOTE_ADDR"))
    except services.TableError as refused:
        return refused_page(request, refused.message, status=429)
    event = DuplicateEvent.objects.filter(code=code).first()
    if event is None:
        messages.error(request, _("No event has that code."))
        return redirect("events")
    return redirect(_event_url(event))


@login_required
@require_POST
def same_deals_open(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id)
    if not may_see(session, request.user, request.session):
        raise Http404("No such table.")
    try:
        again = services.same_deals_open(
            session_id=session_id, user=request.user, rotated=request.POST.get("rotated") == "1"
        )
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("session", session_id=session_id)
    return redirect("table", session_id=again.pk)


@require_safe
def comparison(request: HttpRequest, session_id: int) -> HttpResponse:
    """Both tables of the same deals: for who may see the new one, and the first table's players."""
    again = get_object_or_404(GameSession.objects.select_related("same_deals_as"), pk=session_id)
    if again.same_deals_as is None:
        raise Http404("Not a table of the same deals.")
    if not (
        may_see(again, request.user, request.session) or may_see(again.same_deals_as, request.user, request.session)
    ):
        raise Http404("No such table.")
    return render(request, "games/comparison.html", {"compared": pages.comparison(again)})


def _event_url(event: DuplicateEvent) -> str:
    link = reverse("event", args=[event.pk])
    return f"{link}?code={event.code}" if event.unlisted and event.code else link


def _number(raw: str | None, most: int) -> int:
    try:
        return min(max(1, int(raw or 1)), most)
    except ValueError:
        return 1
