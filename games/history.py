"""Reads for history pages: sessions, deal replays, exports, profiles and leaderboards."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User

from .engine import get_game
from .engine.game import HiddenCards, Match, View
from .engine.records import RecordError
from .engine.verify import verify_each
from .models import Deal, Follow, GameSession, PeriodStanding, Seat, Standing
from .selectors import AreaView, CardView, area_view, card_view
from .services import duplicate
from .services.standings import period_starts
from .stored import deal_start, deal_state
from .words import say, say_count

PERIODS = ("all", "month", "week")
BOARDS = ("sessions", "rating")


def finished_deal(deal_id: int) -> Deal:
    """A deal that may be shown whole: only once it is over, so no hidden card is ever revealed."""
    deal = Deal.objects.select_related("session").filter(pk=deal_id).first()
    if deal is None or deal.finished is None:
        raise Http404("No finished deal with that number.")
    return deal


def deal_export(deal: Deal) -> dict:
    """The deal's record, with what its game carries of the session before it (tokens and pot)."""
    record = next((row.record for row in session_history(deal.session) if row.deal.pk == deal.pk), None)
    if record is None:
        raise Http404("This deal's cards were not kept.")
    return record


def session_export(session: GameSession) -> list[dict]:
    return [row.record for row in session_history(session) if row.record is not None]


SHOWN_PROBLEMS = 10  # per deal on the verify page; the command line says them all
NAME_LENGTH = 80


@dataclass(frozen=True)
class Verdict:
    """One deal of an export, checked against its revealed seed (``engine.verify``)."""

    name: str
    verified: bool
    problems: tuple[str, ...] = ()
    unverifiable: str = ""  # why it could not be checked at all (no seed, not a deal record)
    more: int = 0  # problems not shown


class ExportRefused(Exception):
    """An export the verify page does not check: beyond its limits (413) or not JSON (400)."""

    def __init__(self, message: str, *, status: int = 413):
        super().__init__(message)
        self.message = message
        self.status = status


def export_verdicts(data: bytes) -> list[Verdict]:
    """The verify page's check of a pasted or uploaded export, within the page's limits
    (``FEMKORT_VERIFY_MAX_BYTES``, ``FEMKORT_VERIFY_MAX_DEALS``): beyond them nothing is checked,
    so one request costs the server a bounded time; the command line checks any size."""
    if len(data) > settings.FEMKORT_VERIFY_MAX_BYTES:
        size = filesizeformat(settings.FEMKORT_VERIFY_MAX_BYTES)
        raise ExportRefused(
            _(
                "That export is larger than %(size)s, the most this page checks at once. "
                "Check it on your own machine: python -m games.engine verify < export.json"
            )
            % {"size": size}
        )
    try:
        exported = json.loads(data)
    except (ValueError, RecursionError):
        raise ExportRefused(
            _("That is not JSON: paste a deal's or a session's export as downloaded."), status=400
        ) from None
    count, limit = len(exported) if isinstance(exported, list) else 1, settings.FEMKORT_VERIFY_MAX_DEALS
    if count > limit:
        raise ExportRefused(
            ngettext(
                "That export has %(count)d deal; this page checks at most %(limit)d at once. "
                "Check it on your own machine: python -m games.engine verify < export.json",
                "That export has %(count)d deals; this page checks at most %(limit)d at once. "
                "Check it on your own machine: python -m games.engine verify < export.json",
                count,
            )
            % {"count": count, "limit": limit}
        )
    return verdicts(exported)


def verdicts(exported: object) -> list[Verdict]:
    """Each deal of an export (a deal's record, or a session's list of them), checked; what the
    page shows of each is short (its name, the first problems), never the export itself."""
    records = exported if isinstance(exported, list) else [exported]
    said = []
    for number, (record, checked) in enumerate(zip(records, verify_each(records), strict=True), 1):
        fair = record.get("fair") if isinstance(record, dict) else None
        name = fair.get("identity") if isinstance(fair, dict) and isinstance(fair.get("identity"), str) else ""
        name = _clipped(name) or _("deal %(number)d of the file") % {"number": number}
        if isinstance(checked, RecordError):
            said.append(Verdict(name, False, unverifiable=str(checked)))
        else:
            shown = tuple(checked[:SHOWN_PROBLEMS])
            said.append(Verdict(name, not checked, shown, more=len(checked) - len(shown)))
    return said


def _clipped(text: str) -> str:
    return text if len(text) <= NAME_LENGTH else text[: NAME_LENGTH - 1] + "…"


def fair_of(deal: Deal) -> dict:
    """How a finished deal was shuffled, for its page: nothing for a deal still in play."""
    return duplicate.fair_shown(deal.session, deal.fair) if deal.finished is not None else {}


@dataclass
class DealRow:
    deal: Deal
    record: dict | None  # None when the deal's plays were not kept
    after: Match | None  # the session once this deal was settled (unknown if its plays were not kept)
    winners: tuple[int, ...] = ()  # the seats that won it, as its game says (``Game.deal_winner_label``)


def session_history(session: GameSession) -> list[DealRow]:
    """The session's finished deals in order, each with its record and the match after it.

    Only the match's end is stored: it is replayed from its start through each deal (the
    game settles them as it did in play), so each deal's export can carry what came before.
    """
    deals = list(session.deals.filter(finished__isnull=False).order_by("number"))
    if not deals:
        return []
    secret_kept = session.event_id is not None and not duplicate.revealed(session.event)  # its seeds wait

    rules = get_game(session.game)
    options = rules.parse_options(session.options)
    players = deal_start(deals[0]).view(None).players
    match = replace(rules.new_match(players=players, options=options, rng=random.Random(0)), dealer=deals[0].dealer)
    rows = []
    for deal in deals:
        state = deal_state(deal)
        if state.is_over and state.outcome().again:  # dealt again by agreement: nothing was played or settled
            continue
        if deal.fair.get("first") and state.is_over:  # a deal that began a session of its own (an event's board)
            match = rules.match_from_record(deal.fair["match"], players=players, options=options)
        if match is None or not state.is_over:  # plays not kept (generated history): nothing to show or follow
            match = None
            rows.append(DealRow(deal, None, None))
            continue
        record = state.public_record() | rules.record_context(match)
        if deal.fair:  # the deal is over: how it was shuffled may be shown, seed and every card dealt
            fair = {key: value for key, value in deal.fair.items() if key != "seed" or not secret_kept}
            record["fair"] = fair | {"setup": deal.setup}
        match = match.settle(state)
        rows.append(DealRow(deal, record, match, state.outcome().winners))
    return rows


def session_facts(session: GameSession, seats: list[Seat]) -> list[str]:
    """What the game says of the session as a whole once it is over (chips left on a layout, say)."""
    if session.status != GameSession.Status.FINISHED or not session.match:
        return []
    rules = get_game(session.game)
    options = rules.parse_options(session.options)
    match = rules.match_from_record(session.match, players=session.seat_count, options=options)
    return [say(text, [seat.name for seat in seats]) for text in rules.match_facts(match)]


def scores_after(session: GameSession, seats: list[Seat], row: DealRow) -> str:
    """Everyone's scores once a deal was settled, in a line ("Anna 4 tokens · Bo 5 tokens · pot 3")."""
    if row.after is None:
        return ""
    rules = get_game(session.game)
    parts = [
        " ".join([seat.name, *(say_count(c) for c in rules.seat_scores(row.after, seat.position))]) for seat in seats
    ]
    pot = rules.pot(row.after, None)
    if pot is not None:
        parts.append(_("pot %(pot)d") % {"pot": pot})
    return " · ".join(parts)


@dataclass
class ReplaySeat:
    position: int
    name: str
    is_dealer: bool
    to_act: bool
    hand: list[CardView]
    played: list[CardView]
    tally: list[str]
    sitting_out: bool = False


@dataclass
class Replay:
    deal: Deal
    step: int
    total: int
    seats: list[ReplaySeat]
    areas: list[AreaView]  # the middle of the table at this step (the trick)
    trick_starts: list[int]  # the steps at which a trick is led (to jump to)
    result: str = ""
    bidding: list[str] = field(default_factory=list)  # the bids and calls up to this step, in words
    trump: str = ""  # "Trump: hearts", once it is known at this step
    upcard: CardView | None = None  # a card turned up beside the hands, all deal long
    beside: list[AreaView] = field(default_factory=list)  # the rest beside the table: a turn-up, the stock

    @property
    def trick(self) -> AreaView | None:
        return next((area for area in self.areas if area.kind == "trick"), None)


def replay_at(deal: Deal, step: int) -> Replay:
    """The finished deal after ``step`` actions, as everyone may see it now (the game's views
    after the deal: every hand face up except what nobody saw)."""
    actions = list(deal.plays.values_list("seat", "action"))
    start = deal_start(deal)
    try:
        views = start.replay(actions)
    except HiddenCards:
        raise Http404("This deal's cards were not kept.") from None
    if deal_state(deal, actions).outcome().again:
        raise Http404("That deal was dealt again before anyone played.")
    final = views[-1]
    step = max(0, min(step, len(actions)))
    view = views[step]
    seats = list(deal.session.seats.select_related("user").order_by("position"))
    names = [seat.name for seat in seats]
    shown = {seat.seat: seat for seat in view.seats}
    panels = [
        ReplaySeat(
            position=seat.position,
            name=seat.name,
            is_dealer=seat.position == view.dealer,
            to_act=seat.position == view.to_act,
            hand=[card_view(card) for card in shown[seat.position].cards],
            played=[card_view(p.card or "", won=p.marked) for p in shown[seat.position].played],
            tally=[say_count(count) for count in shown[seat.position].tally],
            sitting_out=not shown[seat.position].playing,
        )
        for seat in seats
        if seat.position in shown
    ]
    middle = [area_view(area, names) for area in view.areas if not area.beside and (area.cards or area.count)]
    beside = [area_view(area, names) for area in view.areas if area.beside]
    upcard = next((area.cards[0] for area in beside if area.name == "upcard" and area.cards), None)
    beside = [area for area in beside if area.name != "upcard" and (area.cards or area.count)]
    return Replay(
        deal=deal,
        step=step,
        total=len(actions),
        seats=panels,
        areas=middle,
        trick_starts=[index - 1 for index, seen in enumerate(views) if _leads(seen)],
        result=say(final.result, names, number=deal.number),
        bidding=[say(text, names) for text in view.log],
        trump=" ".join(say(text, names) for kind, text in view.facts if kind == "trump"),
        upcard=upcard,
        beside=beside,
    )


def _leads(view: View) -> bool:
    """A trick was just led: its first card is the only one down."""
    trick = view.area("trick")
    return trick is not None and len(trick.cards) == 1 and not trick.done


def session_detail(session_id: int) -> tuple[GameSession, list[Seat], list[Deal]]:
    session = GameSession.objects.select_related("host", "winner").filter(pk=session_id).first()
    if session is None:
        raise Http404("No such session.")
    seats = list(session.seats.select_related("user").order_by("position"))
    deals = list(session.deals.order_by("number"))
    return session, with_scores(seats), deals


def with_scores(seats: list[Seat]) -> list[Seat]:
    """Each seat with ``scores``: what it had at the end, worded by its game (wins, chips, tokens)."""
    for seat in seats:
        session = seat.session
        if not session.match:
            seat.scores = ()
            continue
        rules = get_game(session.game)
        options = rules.parse_options(session.options)
        match = rules.match_from_record(session.match, players=session.seat_count, options=options)
        seat.scores = tuple(say_count(count) for count in rules.seat_scores(match, seat.position))
    return seats


@dataclass
class Profile:
    player: User
    standings: list[Standing]
    deals_won: int
    trend: list[float]
    recent: QuerySet[Seat]
    rivals: list[dict]


def friends_in_common(viewer: User, player: User) -> list[User]:
    """The players both follow (what a profile shows its visitor)."""
    theirs = Follow.objects.filter(user=player).values("followed")
    return list(User.objects.filter(followers__user=viewer, pk__in=theirs).order_by("username")[:20])


def profile_of(username: str, *, with_private: bool = False) -> Profile:
    """``with_private``: the player (or staff) looks; others do not learn who met whom at private tables."""
    player = User.objects.filter(username__iexact=username).first()
    if player is None:
        raise Http404("No such player.")
    standings = list(Standing.objects.filter(user=player).order_by("game", "against"))
    for standing in standings:  # "Deals won" means something only where the game counts them
        standing.deals_counted = get_game(standing.game).counts_deals_won
    trend = list(
        Seat.objects.filter(user=player, rating_after__isnull=False, session__with_computers=False)
        .order_by("-session__finished")
        .values_list("rating_after", flat=True)[:10]
    )[::-1]
    recent = (
        Seat.objects.filter(user=player)
        .exclude(session__status=GameSession.Status.CLOSED)  # closed before it started: not history
        .select_related("session", "session__winner__user")
        .order_by("-session__created")
    )
    rivals = _rivals(player, with_private=with_private)
    return Profile(
        player=player,
        standings=standings,
        deals_won=sum(s.deals_won for s in standings),
        trend=trend,
        recent=recent,
        rivals=rivals,
    )


def _rivals(player: User, count: int = 5, *, with_private: bool = False) -> list[dict]:
    """The players met most often in finished sessions, and who won those sessions.

    Two small queries and a tally here: a join-and-group over all seats costs far more
    on a large history.
    """
    finished = Seat.objects.filter(user=player, session__status=GameSession.Status.FINISHED)
    if not with_private:
        finished = finished.filter(session__unlisted=False)
    mine = {
        session_id: (won, position, game, seats, options)
        for session_id, won, position, game, seats, options in finished.values_list(
            "session_id", "won", "position", "session__game", "session__seat_count", "session__options"
        )
    }
    tally: dict[int, dict] = {}
    others = Seat.objects.filter(session_id__in=list(mine), user__isnull=False).exclude(user=player)
    for won, position, session_id, username, display_name, user_id in others.values_list(
        "won", "position", "session_id", "user__username", "user__display_name", "user_id"
    ):
        my_won, my_position, game, seats, options = mine[session_id]
        rules = get_game(game)
        if position in rules.partners(
            my_position, seats, rules.parse_options(options)
        ):  # partnerships may be an option
            continue  # a partner, not a rival
        row = tally.setdefault(
            user_id,
            {"user__username": username, "user__display_name": display_name, "met": 0, "their_wins": 0, "my_wins": 0},
        )
        row["met"] += 1
        row["their_wins"] += won
        row["my_wins"] += my_won
    return sorted(tally.values(), key=lambda row: (-row["met"], row["user__username"]))[:count]


@dataclass
class BoardRow:
    name: str
    username: str
    computer: str
    played: int
    won: int
    rating: float | None

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def leaderboard(
    *, game: str, board: str, period: str, against: str, min_sessions: int, limit: int = 50
) -> list[BoardRow]:
    if period == "all" or board == "rating":
        rows = Standing.objects.filter(game=game, against=against, sessions_played__gte=min_sessions)
        order = ["-rating"] if board == "rating" else ["-sessions_won", "sessions_played"]
    else:
        starts = period_starts(timezone.now())[period]
        rows = PeriodStanding.objects.filter(
            game=game, against=against, period=period, starts=starts, sessions_played__gte=min_sessions
        )
        order = ["-sessions_won", "sessions_played"]
    return [
        BoardRow(
            name=row.user.name if row.user_id else "",
            username=row.user.username if row.user_id else "",
            computer=row.computer,
            played=row.sessions_played,
            won=row.sessions_won,
            rating=getattr(row, "rating", None),
        )
        for row in rows.select_related("user").order_by(*order, "pk")[:limit]
    ]
