"""Thin views: parse the request, call a service or selector, render. Every action works without JavaScript."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import services
from .access import admit, session_by_code, table_link, table_visible
from .chat_html import chat_html, chat_news_html
from .engine import find_game
from .forms import ComputerForm, MoveForm, SeatForm, TableForm
from .models import PACES, GameSession
from .selectors import game_entry, game_list, game_or_first, lobby_tables, option_texts, table_view_for
from .table_html import message_html, table_html


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby asks for the game first (``?game=``), then shows that game's own options."""
    rules = game_or_first(request.GET.get("game"))
    return _lobby(request, TableForm(rules))


def _lobby(request: HttpRequest, form: TableForm, status: int = 200) -> HttpResponse:
    shown = form.rules.name if request.GET.get("game") or request.POST.get("game") else None  # else every game's
    context = {
        "tables": lobby_tables(
            waiting_page=request.GET.get("waiting_page", 1),
            playing_page=request.GET.get("playing_page", 1),
            game=shown,
        ),
        "filtered": shown is not None,
        "form": form,
        "games": game_list(),
        "chosen": form.rules.name,
        "chosen_title": game_entry(form.rules).title,
        "keep_playing": _query_without(request, "waiting_page"),
        "keep_waiting": _query_without(request, "playing_page"),
    }
    return render(request, "games/lobby.html", context, status=status)


def _query_without(request: HttpRequest, name: str) -> str:
    """The lobby's other parameters (the game chosen, the other list's page), for a page link."""
    query = request.GET.copy()
    query.pop(name, None)
    return "&" + query.urlencode() if query else ""


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    form = TableForm(game_or_first(request.POST.get("game")), request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    try:
        session = services.table_create(
            host=request.user,
            game=form.rules.name,
            seats=form.cleaned_data["seats"],
            options=form.options(),
            turn_seconds=form.cleaned_data["turn_seconds"],
            pace_seconds=form.cleaned_data["pace_seconds"],
            unlisted=form.cleaned_data["unlisted"],
            beginner_partners=form.cleaned_data.get("beginner_partners", False),
        )
    except services.TableError as error:
        form.add_error(None, error.message)
        return _lobby(request, form, status=400)
    return redirect("table", session_id=session.pk)


@require_safe
def table_by_code(request: HttpRequest) -> HttpResponse:
    """A private table found by the code its players were told (tries counted per address and account)."""
    try:
        session = session_by_code(
            code=request.GET.get("code", ""), user=request.user, client=request.META.get("REMOTE_ADDR")
        )
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby")
    admit(request.session, session)
    return redirect("table", session_id=session.pk)


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """One click to a table of the game: a free seat at someone's, else a new one with computers, started."""
    try:
        session = services.play_now(
            user=request.user, game=request.POST.get("game", ""), contribution=request.POST.get("contribution", "")
        )
    except services.TableError as refused:
        messages.error(request, refused.message)
        return redirect("lobby")
    services.computers_play_all(session_id=session.pk)  # as a start from the table's own button does
    return redirect("table", session_id=session.pk)


@require_safe
@table_visible
def table(request: HttpRequest, session_id: int) -> HttpResponse:
    session = GameSession.objects.get(pk=session_id)  # ``table_visible`` found it
    if request.user.is_authenticated and session.status in (GameSession.Status.WAITING, GameSession.Status.PLAYING):
        services.seat_seen(session_id=session_id, user=request.user)  # a page or poll: the player is here
    news = chat_news_html(session, request.user, request.GET.get("chat")) if request.htmx else ""
    if request.htmx and request.GET.get("seq") == str(session.seq) and not news:
        return HttpResponse(status=204)  # nothing new since the client's view
    return _render_table(request, session, extra=news)


def _render_table(
    request: HttpRequest, session: GameSession, error: str = "", status: int = 200, extra: str = ""
) -> HttpResponse:
    table = table_view_for(session, request.user)
    html = table_html(table, error=error, request=request)
    if request.htmx:
        return HttpResponse(html + extra, status=status)
    invite_url = request.build_absolute_uri(table_link(session))
    chat = chat_html(session, request.user, request=request)
    context = {"table": table, "table_html": html, "message_html": message_html(""), "invite_url": invite_url}
    context["chat_html"] = chat
    return render(request, "games/table.html", context, status=status)


def _act(request: HttpRequest, session_id: int, action: Callable[[], object]) -> HttpResponse:
    """Run a service call; answer with the fresh table (htmx) or a redirect, with any refusal shown."""
    error = ""
    try:
        action()
    except services.TableError as refused:
        error = refused.message
    session = get_object_or_404(GameSession, pk=session_id)
    if request.htmx:
        return _render_table(request, session, error)
    if error:
        messages.error(request, error)
    return redirect("table", session_id=session_id)


def _go(request: HttpRequest, session_id: int) -> HttpResponse:
    """Open a table's page: a redirect, or for htmx a whole-page navigation."""
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": reverse("table", args=[session_id])})
    return redirect("table", session_id=session_id)


def _bad_request(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id)
    message = _("That request was not understood; nothing changed.")
    if request.htmx:
        return _render_table(request, session, message, status=400)
    messages.error(request, message)
    return redirect("table", session_id=session_id)


@login_required
@require_POST
@table_visible
def seat_take(request: HttpRequest, session_id: int) -> HttpResponse:
    form = SeatForm(request.POST)
    if not form.is_valid():
        return _bad_request(request, session_id)
    position = form.cleaned_data["position"]
    if request.htmx and request.POST.get("then") == "open":  # from another page (play again): go to this table
        try:
            services.seat_take(session_id=session_id, user=request.user, position=position)
        except services.TableError as refused:
            messages.error(request, refused.message)
        return _go(request, session_id)
    return _act(
        request, session_id, lambda: services.seat_take(session_id=session_id, user=request.user, position=position)
    )


@login_required
@require_POST
@table_visible
def seat_leave(request: HttpRequest, session_id: int) -> HttpResponse:
    return _act(request, session_id, lambda: services.seat_leave(session_id=session_id, user=request.user))


@login_required
@require_POST
@table_visible
def computer_add(request: HttpRequest, session_id: int) -> HttpResponse:
    form = ComputerForm(request.POST)
    if not form.is_valid():
        return _bad_request(request, session_id)
    position, level = form.cleaned_data["position"], form.cleaned_data["level"]
    return _act(
        request,
        session_id,
        lambda: services.computer_add(session_id=session_id, user=request.user, position=position, level=level),
    )


@login_required
@require_POST
@table_visible
def computer_remove(request: HttpRequest, session_id: int, position: int) -> HttpResponse:
    return _act(
        request,
        session_id,
        lambda: services.computer_remove(session_id=session_id, user=request.user, position=position),
    )


@login_required
@require_POST
@table_visible
def seat_remove(request: HttpRequest, session_id: int, position: int) -> HttpResponse:
    return _act(
        request, session_id, lambda: services.seat_remove(session_id=session_id, user=request.user, position=position)
    )


@login_required
@require_POST
@table_visible
def host_hand_over(request: HttpRequest, session_id: int, position: int) -> HttpResponse:
    return _act(
        request,
        session_id,
        lambda: services.host_hand_over(session_id=session_id, user=request.user, position=position),
    )


@login_required
@require_POST
@table_visible
def table_lock(request: HttpRequest, session_id: int) -> HttpResponse:
    locked = request.POST.get("locked") == "1"
    return _act(
        request, session_id, lambda: services.table_lock(session_id=session_id, user=request.user, locked=locked)
    )


def _then_computers(session_id: int, change: Callable[[], object]) -> Callable[[], None]:
    """Without websockets nobody waits for a pause: computer players answer within the request."""

    def run() -> None:
        change()
        services.computers_play_all(session_id=session_id)

    return run


@login_required
@require_POST
@table_visible
def session_start(request: HttpRequest, session_id: int) -> HttpResponse:
    contribution = request.POST.get("contribution", "")  # the host's randomness for the first shuffle (table.js)
    start = _then_computers(
        session_id,
        lambda: services.session_start(session_id=session_id, user=request.user, contribution=contribution),
    )
    return _act(request, session_id, start)


@login_required
@require_POST
@table_visible
def fair_contribute(request: HttpRequest, session_id: int) -> HttpResponse:
    """A seated player's randomness for the next deal's shuffle, when the page has no socket."""
    commitment, value = request.POST.get("commitment", ""), request.POST.get("value", "")

    def add() -> None:
        services.contribution_add(session_id=session_id, user=request.user, commitment=commitment, value=value)

    return _act(request, session_id, add)


@login_required
@require_POST
@table_visible
def action_take(request: HttpRequest, session_id: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _bad_request(request, session_id)
    move, seq, marked = form.cleaned_data["move"], form.cleaned_data["seq"], form.cleaned_data["marked"]
    play = _then_computers(
        session_id,
        lambda: services.action_take(
            session_id=session_id, user=request.user, action=move, seen_seq=seq, marked=marked
        ),
    )
    return _act(request, session_id, play)


@login_required
@require_POST
@table_visible
def table_close(request: HttpRequest, session_id: int) -> HttpResponse:
    return _act(request, session_id, lambda: services.session_abandon(session_id=session_id, user=request.user))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@table_visible
def session_leave(request: HttpRequest, session_id: int) -> HttpResponse:
    """Leaving a running session is for good: a page asks first (it works without JavaScript)."""
    session = get_object_or_404(GameSession, pk=session_id)
    if request.method == "POST":

        def leave() -> None:
            services.session_leave(session_id=session_id, user=request.user)
            messages.info(request, _("You left the session; a computer plays your seat to the end."))

        return _act(request, session_id, leave)
    return render(request, "games/leave.html", {"session": session})


@login_required
@require_POST
@table_visible
def seat_reclaim(request: HttpRequest, session_id: int) -> HttpResponse:
    return _act(request, session_id, lambda: services.seat_reclaim(session_id=session_id, user=request.user))


@login_required
@require_http_methods(["GET", "POST"])
@table_visible
def pace_change(request: HttpRequest, session_id: int) -> HttpResponse:
    """Ask for another pace (``pace``), or answer the one asked (``agree`` 1 or 0); a page asks
    first which pace (it works without JavaScript, and keeps the table's controls to one line)."""
    if request.method == "GET":
        session = get_object_or_404(GameSession, pk=session_id)
        choices = [(pace, label) for pace, label in PACES if pace != session.pace_seconds]
        return render(request, "games/pace.html", {"session": session, "choices": choices})
    answer = request.POST.get("agree")
    try:
        pace = int(request.POST.get("pace", ""))
    except ValueError:
        pace = None

    def change() -> None:
        if answer in ("0", "1"):
            services.pace_answer(session_id=session_id, user=request.user, agree=answer == "1")
        elif pace is not None:
            services.pace_ask(session_id=session_id, user=request.user, pace_seconds=pace)
        else:
            raise services.TableError(_("Choose another pace than the table's."), code="pace")

    return _act(request, session_id, change)


@login_required
@require_POST
@table_visible
def beginner_partners(request: HttpRequest, session_id: int) -> HttpResponse:
    """Ask the computer partnering you to play as partner to a beginner (``on`` 1), or as usual (0)."""
    on = request.POST.get("on")
    if on not in ("0", "1"):
        return _bad_request(request, session_id)
    return _act(
        request,
        session_id,
        lambda: services.beginner_partners_set(session_id=session_id, user=request.user, on=on == "1"),
    )


@login_required
@require_POST
@table_visible
def session_rematch(request: HttpRequest, session_id: int) -> HttpResponse:
    try:
        again = services.session_rematch(session_id=session_id, user=request.user)
    except services.TableError as refused:
        messages.error(request, refused.message)
        return _go(request, session_id)
    return _go(request, again.pk)


@login_required
@require_POST
@table_visible
def rematch_decline(request: HttpRequest, session_id: int) -> HttpResponse:
    return _act(request, session_id, lambda: services.rematch_decline(session_id=session_id, user=request.user))


@require_safe
def rules(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rules for newcomers: its own text, then its table options from their declaration.
    The text is the game's template, or else the ``rules_text`` its module carries."""
    chosen = find_game(game)
    if chosen is None or not chosen.on_site:
        raise Http404
    if chosen.name != game:  # a former name: the page's address is the game's name now
        return redirect("rules", game=chosen.name, permanent=True)
    text_template = f"games/rules/{chosen.name}.html"
    try:
        get_template(text_template)
    except TemplateDoesNotExist:
        text_template = None
    context = {
        "rules": chosen,
        "entry": game_entry(chosen),
        "options": option_texts(chosen),
        "text_template": text_template,
        "paragraphs": [paragraph.strip() for paragraph in chosen.rules_text.split("\n\n") if paragraph.strip()],
    }
    return render(request, "games/rules.html", context)
