"""Pages about what happened: sessions, deal replays, exports, player profiles, leaderboards."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from . import duplicate_pages, history, review_pages, services, tournament_pages
from .access import deal_visible, may_see, table_visible
from .engine import get_game
from .models import Block, Follow, GameSession, Standing
from .selectors import game_list, game_or_first, session_result
from .services import duplicate
from .table_html import areas_html
from .words import names_said


@require_safe
@table_visible
def session_page(request: HttpRequest, session_id: int) -> HttpResponse:
    session, seats, deals = history.session_detail(session_id)
    names = {seat.position: seat.name for seat in seats}
    played = history.session_history(session)
    after = {row.deal.pk: history.scores_after(session, seats, row) for row in played}
    won = {row.deal.pk: names_said([names[seat] for seat in row.winners]) for row in played if row.winners}
    rows = [
        (deal, names.get(deal.dealer, "?"), won.get(deal.pk, ""), after.get(deal.pk, ""))
        for deal in deals
        if deal.finished is None or deal.pk in after  # a deal dealt again by agreement is not listed
    ]
    context = {
        "session": session,
        "seats": seats,
        "deals": rows,
        "result": session_result(session, seats),
        "winner_label": _(get_game(session.game).deal_winner_label),
        "facts": history.session_facts(session, seats),
        "dealt_again": session.same_deals_again.filter(deals__finished__isnull=False).distinct(),
        "may_deal_again": session.status == GameSession.Status.FINISHED
        and session.event_id is None
        and any(seat.user_id == request.user.pk for seat in seats if request.user.is_authenticated),
    }
    return render(request, "games/session.html", context)


@require_safe
@table_visible
def session_export(request: HttpRequest, session_id: int) -> JsonResponse:
    session, _, _ = history.session_detail(session_id)
    response = JsonResponse(history.session_export(session), safe=False)
    response["Content-Disposition"] = f'attachment; filename="femkort-session-{session.pk}.json"'
    return response


@require_safe
def deal_replay(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = history.finished_deal(deal_id)
    deal_visible(request, deal.session)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    replay = history.replay_at(deal, step)
    context = {"replay": replay, "deal": deal, "fair": history.fair_of(deal), "beside_html": areas_html(replay.beside)}
    return render(request, "games/replay.html", context)


@require_safe
def deal_review(request: HttpRequest, deal_id: int) -> HttpResponse:
    """A finished deal's review: only once the deal is over, like its replay (computed in the background)."""
    deal = history.finished_deal(deal_id)
    deal_visible(request, deal.session)
    return render(request, "games/review.html", {"review": review_pages.review_page(deal), "deal": deal})


@require_safe
def deal_export(request: HttpRequest, deal_id: int) -> JsonResponse:
    deal = history.finished_deal(deal_id)
    deal_visible(request, deal.session)
    response = JsonResponse(history.deal_export(deal))
    response["Content-Disposition"] = f'attachment; filename="femkort-deal-{deal.pk}.json"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def deal_verify(request: HttpRequest) -> HttpResponse:
    """Check an export against its seed: a deal of this site (``?deal=``), or JSON pasted or uploaded.

    Every check counts against the client's address first (a refused one does nothing), and the
    page shows verdicts, never the pasted export: a request's cost and its answer stay small."""
    limit = settings.FEMKORT_VERIFY_MAX_BYTES
    context: dict = {"max_deals": settings.FEMKORT_VERIFY_MAX_DEALS, "max_size": filesizeformat(limit)}
    deal_id = request.GET.get("deal", "")
    checking = request.method == "POST" or deal_id.isdigit()
    if checking and not services.verify_count(client=request.META.get("REMOTE_ADDR")):
        context["error"] = _(
            "Too many checks from your network in a short time; try again in a few minutes, "
            "or check on your own machine: python -m games.engine verify < export.json"
        )
        return render(request, "games/verify.html", context, status=429)
    if request.method == "POST":
        upload = request.FILES.get("file")
        data = upload.read(limit + 1) if upload else request.POST.get("export", "").encode()
        try:
            context["verdicts"] = history.export_verdicts(data)
        except history.ExportRefused as refused:
            context["error"] = refused.message
            return render(request, "games/verify.html", context, status=refused.status)
    elif deal_id.isdigit():
        deal = history.finished_deal(int(deal_id))
        deal_visible(request, deal.session)
        exported = history.deal_export(deal)  # one deal of this site: small, and a start for trying a change
        context |= {"deal": deal, "text": json.dumps(exported, indent=1), "verdicts": history.verdicts(exported)}
    return render(request, "games/verify.html", context)


@require_safe
def fair_play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/fair_play.html")


@require_safe
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    viewer = request.user if request.user.is_authenticated else None
    own = viewer is not None and (viewer.username.lower() == username.lower() or viewer.is_staff)
    profile = history.profile_of(username, with_private=own)
    page = Paginator(profile.recent, 20).get_page(request.GET.get("page"))
    seats = list(page.object_list)
    for seat in seats:  # a private session shows as played, without a link or what happened in it
        seat.private = not may_see(seat.session, request.user, request.session)
        seat.scores = ()
    history.with_scores([seat for seat in seats if not seat.private])
    page.object_list = seats
    if seats:
        marks = review_pages.marked_by_session([seat.session_id for seat in seats], seats[0].user_id)
        for seat in seats:
            seat.marked = None if seat.private else marks[seat.session_id]
    context = {
        "profile": profile,
        "page": page,
        "streak": duplicate_pages.streak(profile.player, duplicate.today()),
        "events": duplicate_pages.events_played(profile.player, request.user),
        "tournaments": tournament_pages.tournaments_played(profile.player, request.user),
    }
    if viewer is not None and viewer.pk != profile.player.pk:
        context |= {
            "blocked": Block.objects.filter(user=viewer, blocked=profile.player).exists(),
            "following": Follow.objects.filter(user=viewer, followed=profile.player).exists(),
            "in_common": history.friends_in_common(viewer, profile.player),
        }
    return render(request, "games/player.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    game = game_or_first(request.GET.get("game")).name
    board = request.GET.get("board") if request.GET.get("board") in history.BOARDS else "sessions"
    period = request.GET.get("period") if request.GET.get("period") in history.PERIODS else "all"
    against = request.GET.get("against") if request.GET.get("against") in Standing.Against.values else "people"
    try:
        min_sessions = max(0, min(1000, int(request.GET.get("min", "1"))))
    except ValueError:
        min_sessions = 1
    rows = history.leaderboard(game=game, board=board, period=period, against=against, min_sessions=min_sessions)
    context = {
        "rows": rows,
        "game": game,
        "board": board,
        "period": period,
        "against": against,
        "min_sessions": min_sessions,
        "games": [(entry.name, entry.title) for entry in game_list()],
    }
    return render(request, "games/leaderboard.html", context)
