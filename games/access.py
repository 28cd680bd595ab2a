"""Who may see a table: every table is open to all, except a private one.

A private tournament's tables are for its players. A private table is reached by its code (typed
in the lobby, or carried by its link) or by an invitation; its pages, frames, exports, replays and
reviews are for its seated players, the people it invited (by name, or a seat kept for them),
whoever showed its code in this browser session, and staff. Anyone else gets the same 404 as for
a table that does not exist.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import throttle
from games.models import GameSession, Invitation, Seat, Tournament, TournamentEntry
from games.services import duplicate
from games.services.errors import TableError

ADMITTED = "tables_admitted"  # the browser session's key: private tables whose code it showed
TOURNAMENTS_ADMITTED = "tournaments_admitted"  # the same, for private tournaments
ADMITTED_KEEP = 50  # the most recent ones are enough; the list rides in every session


def may_see(session: GameSession, user: Any, admitted: Mapping[str, Any] | None) -> bool:
    """``admitted``: the browser session (Django's request or socket session), which holds the codes shown."""
    if session.event_id is not None:  # an event's table: its cards stay hidden from who has not played it
        return _seated(session, user) or duplicate.may_see_table(session, user)
    if session.tournament_id is not None:  # as public or private as its tournament is now
        private = Tournament.objects.filter(pk=session.tournament_id).values_list("unlisted", flat=True).first()
        return not private or session.tournament_id in admitted_tournaments(admitted) or _entered(session, user)
    if not session.unlisted:
        return True
    if session.pk in admitted_tables(admitted):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if (
        Seat.objects.filter(session=session, user=user).exists()
        or Seat.objects.filter(session=session, invited=user).exists()
    ):
        return True
    return Invitation.objects.filter(session=session, invitee=user).exists()


def _entered(session: GameSession, user: Any) -> bool:
    return (
        user is not None
        and user.is_authenticated
        and (user.is_staff or TournamentEntry.objects.filter(tournament_id=session.tournament_id, user=user).exists())
    )


def _seated(session: GameSession, user: Any) -> bool:
    return user is not None and user.is_authenticated and Seat.objects.filter(session=session, user=user).exists()


def admitted_tables(admitted: Mapping[str, Any] | None) -> list[int]:
    tables = admitted.get(ADMITTED) if admitted is not None else None
    return [pk for pk in tables if isinstance(pk, int)] if isinstance(tables, list) else []


def admitted_tournaments(admitted: Mapping[str, Any] | None) -> list[int]:
    found = admitted.get(TOURNAMENTS_ADMITTED) if admitted is not None else None
    return [pk for pk in found if isinstance(pk, int)] if isinstance(found, list) else []


def admit_tournament(browser_session: Any, tournament: Tournament) -> None:
    """This browser showed a private tournament's code: its pages and tables open to it, and its
    page's polls count no further tries."""
    kept = [pk for pk in admitted_tournaments(browser_session) if pk != tournament.pk]
    browser_session[TOURNAMENTS_ADMITTED] = [*kept[-(ADMITTED_KEEP - 1) :], tournament.pk]


def admit(browser_session: Any, session: GameSession) -> None:
    """This browser showed ``session``'s code: it may see the table (and sit, if a seat is free)."""
    tables = [pk for pk in admitted_tables(browser_session) if pk != session.pk]
    browser_session[ADMITTED] = [*tables[-(ADMITTED_KEEP - 1) :], session.pk]


def code_matches(session: Any, code: str | None) -> bool:
    return bool(session.code) and normal_code(code or "") == session.code


def normal_code(code: str) -> str:
    """What players type: any case, with spaces or dashes between the letters."""
    return code.strip().upper().replace(" ", "").replace("-", "")[:16]


def table_link(session: GameSession) -> str:
    """The address to share: a private table's carries its code, so the id alone opens nothing."""
    link = reverse("table", args=[session.pk])
    return f"{link}?code={session.code}" if session.unlisted and session.code else link


def code_tried(*, user: Any, client: str | None) -> None:
    """Count one try of a private table's code, per address and per account; refuse past the limit.

    Every try counts, right or wrong: a guesser past the limit learns nothing more, not even
    whether the code it just typed was right."""
    tries, seconds = settings.FEMKORT_CODE_TRIES
    limits = {throttle.client_key("code-client", client): (tries, "client")}
    if user is not None and user.is_authenticated:
        limits[f"code-user:{user.pk}"] = (tries, "user")
    if throttle.hit(limits, window=seconds) is not None:
        raise TableError(_("Too many table codes tried; try again in a few minutes."), code="code_rate")


def session_by_code(*, code: str, user: Any, client: str | None) -> GameSession:
    """The private table whose code this is (a counted try), or a refusal that says nothing more."""
    code_tried(user=user, client=client)
    session = GameSession.objects.filter(code=normal_code(code)).first() if normal_code(code) else None
    if session is None:
        raise TableError(_("No table has that code."), code="no_code")
    return session


def visible_session(request: Any, session_id: int) -> GameSession:
    """The table ``request`` may see, or 404. A private table's link carries its code (``?code=``):
    a try of the code like one typed in the lobby (a refused try raises ``TableError``)."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        raise Http404("No such table.")
    if may_see(session, request.user, request.session):
        return session
    code = request.GET.get("code")
    if session.unlisted and code:
        code_tried(user=request.user, client=request.META.get("REMOTE_ADDR"))
        if code_matches(session, code):
            admit(request.session, session)
            return session
    raise Http404("No such table.")


def table_visible(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Every page and form of a table (``session_id``) answers 404 to whoever may not see it."""

    @functools.wraps(view)
    def checked(request: HttpRequest, session_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            visible_session(request, session_id)
        except TableError as refused:
            return refused_page(request, refused.message, status=429)
        return view(request, session_id, *args, **kwargs)

    return checked


def deal_visible(request: HttpRequest, deal_session: GameSession) -> None:
    """A deal's replay, export or review: as private as its table."""
    if not may_see(deal_session, request.user, request.session):
        raise Http404("No such deal.")


def refused_page(request: HttpRequest, message: str, *, status: int) -> HttpResponse:
    return render(request, "refused.html", {"message": message}, status=status)


def findable(
    request: HttpRequest,
    thing: Any,
    insider: Callable[[Any], bool],
    admitted: list[int] | None = None,
    on_code: Callable[[], None] | None = None,
) -> bool:
    """Whether a duplicate event or a tournament (``unlisted``, ``code``, ``creator_id``) may be found:
    a public one by anyone; a private one by staff, its creator, an ``insider`` (who played in it),
    a browser ``admitted`` already, or one showing its code (a counted try, as a table's: past the
    limit ``TableError``; then ``on_code``)."""
    if not thing.unlisted or (admitted is not None and thing.pk in admitted):
        return True
    user = request.user
    if user.is_authenticated and (user.is_staff or thing.creator_id == user.pk or insider(user)):
        return True
    code = request.GET.get("code") or request.POST.get("code")
    if not code:
        return False
    code_tried(user=user, client=request.META.get("REMOTE_ADDR"))
    if not code_matches(thing, code):
        return False
    if on_code is not None:
        on_code()
    return True


def found_page(find: Callable[[HttpRequest, int], Any]) -> Callable:
    """A view of what ``find`` loads from the address (an event, a tournament), which raises 404 to
    whoever may not find it; past the codes' limit the answer is 429."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def checked(request: HttpRequest, **address: int) -> HttpResponse:
            try:
                thing = find(request, *address.values())
            except TableError as refused:
                return refused_page(request, refused.message, status=429)
            return view(request, thing)

        return checked

    return decorate
