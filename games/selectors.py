"""Reads that build pages. The table is always rendered from one seat's view, never the full deal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from .cardnames import card_label, card_short, suit_name
from .engine.base import Trick, playing_order, winning_card
from .engine.views import SeatView, view_for
from .models import PRESENCE_TIMEOUT, Deal, GameSession, Seat
from .records import deal_state


def lobby_tables() -> dict[str, QuerySet[GameSession]]:
    annotated = GameSession.objects.select_related("host").annotate(
        taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__computer=""))
    )
    return {
        "waiting": annotated.filter(status=GameSession.Status.WAITING)[:50],
        "playing": annotated.filter(status=GameSession.Status.PLAYING)[:50],
    }


@dataclass
class CardView:
    card: str
    label: str
    short: str
    red: bool
    legal: bool = False
    won: bool = False
    seat_name: str = ""


@dataclass
class SeatPanel:
    position: int
    name: str
    computer: str
    wins: int
    is_dealer: bool
    to_act: bool
    is_me: bool
    empty: bool
    connected: bool
    hand_size: int
    played: list[CardView] = field(default_factory=list)


@dataclass
class TableView:
    session: GameSession
    my_seat: int | None
    is_host: bool
    seats: list[SeatPanel]
    hand: list[CardView]
    trick: list[CardView]
    prompt: str
    deal_number: int | None
    last_deal: str
    last_trick: list[CardView]
    my_turn: bool
    signed_in: bool
    can_start: bool
    can_join: bool
    finished_summary: str


def table_view_for(session: GameSession, user: User | None) -> TableView:
    seats = list(session.seats.select_related("user"))
    me = next((s.position for s in seats if user and user.is_authenticated and s.user_id == user.pk), None)
    deal = session.deals.order_by("-number").first() if session.status != GameSession.Status.WAITING else None
    view = view_for(deal_state(deal), me) if deal else None
    alive = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)
    online = set(session.connections.filter(seen__gte=alive).exclude(user=None).values_list("user_id", flat=True))
    won = {winning_card(view.seats, trick) for trick in view.tricks} if view else set()
    panels = [_panel(seat, me, view, won, seat.user_id in online) for seat in seats]
    last_deal, last_trick = _last_deal(session, deal, view, seats)
    filled = sum(not seat.is_empty for seat in seats)
    signed_in = bool(user and user.is_authenticated)
    is_host = signed_in and user.pk == session.host_id
    waiting = session.status == GameSession.Status.WAITING
    return TableView(
        session=session,
        my_seat=me,
        is_host=is_host,
        seats=panels,
        hand=_hand(view),
        trick=_trick(view, seats),
        prompt=_prompt(view, seats),
        deal_number=deal.number if deal else None,
        last_deal=last_deal,
        last_trick=last_trick,
        my_turn=bool(view and view.my_turn and session.status == GameSession.Status.PLAYING),
        signed_in=signed_in,
        can_start=waiting and is_host and filled >= 3,
        can_join=waiting and signed_in and me is None and filled < len(seats),
        finished_summary=_finished(session, seats),
    )


def _panel(seat: Seat, me: int | None, view: SeatView | None, won: set[str], connected: bool) -> SeatPanel:
    played = [card_view(c, won=c in won) for c in view.played[seat.position]] if view else []
    return SeatPanel(
        position=seat.position,
        name=seat.name,
        computer=seat.computer,
        wins=seat.wins,
        is_dealer=bool(view and view.dealer == seat.position),
        to_act=bool(view and view.to_act == seat.position),
        is_me=seat.position == me,
        empty=seat.is_empty,
        connected=connected,
        hand_size=view.hand_sizes[seat.position] if view else 0,
        played=played,
    )


def card_view(card: str, *, legal: bool = False, won: bool = False, seat_name: str = "") -> CardView:
    return CardView(card, card_label(card), card_short(card), card[1] in "HD", legal, won, seat_name)


def trick_view(
    seats: Sequence[int], trick: Trick, names: Sequence[str], *, mark_winner: bool = False
) -> list[CardView]:
    """A trick's cards in playing order, each with its player's name (and the winner marked)."""
    return [
        card_view(card, won=mark_winner and seat == trick.winner, seat_name=names[seat])
        for seat, card in zip(playing_order(seats, trick.leader), trick.cards, strict=False)
    ]


def _hand(view: SeatView | None) -> list[CardView]:
    if not view:
        return []
    return [card_view(card, legal=card in view.legal) for card in _sorted_hand(view.hand)]


def _sorted_hand(cards: tuple[str, ...]) -> list[str]:
    order = "SHCD"
    ranks = "23456789TJQKA"
    return sorted(cards, key=lambda c: (order.index(c[1]), -ranks.index(c[0])))


def _trick(view: SeatView | None, seats: list[Seat]) -> list[CardView]:
    if not view or not view.trick:
        return []
    return trick_view(view.seats, view.trick, [seat.name for seat in seats])


def _prompt(view: SeatView | None, seats: list[Seat]) -> str:
    if not view or view.to_act is None:
        return ""
    if not view.my_turn:
        return _("Waiting for %(name)s.") % {"name": seats[view.to_act].name}
    duty, detail = view.duty
    if duty == "lead":
        return _("Your lead: play any card.")
    if duty == "overtake":
        return _("Your turn: you must overtake %(card)s.") % {"card": card_short(detail)}
    if duty == "follow":
        return _("Your turn: follow %(suit)s.") % {"suit": suit_name(detail)}
    return _("Your turn: you have no %(suit)s, play any card.") % {"suit": suit_name(detail)}


def _last_deal(
    session: GameSession, current: Deal | None, view: SeatView | None, seats: list[Seat]
) -> tuple[str, list[CardView]]:
    """Through the next deal's first trick: who won the last deal, and its last trick (all public now)."""
    if current is not None and current.winner is None and view and view.tricks:
        return "", []
    finished = session.deals.filter(winner__isnull=False).order_by("-number").first()
    if finished is None:
        return "", []
    message = _("%(name)s took the last trick and won deal %(number)d.") % {
        "name": seats[finished.winner].name,
        "number": finished.number,
    }
    state = deal_state(finished)
    if not state.tricks:
        return message, []
    return message, trick_view(state.seats, state.tricks[-1], [seat.name for seat in seats], mark_winner=True)


def _finished(session: GameSession, seats: list[Seat]) -> str:
    if session.status == GameSession.Status.ABANDONED:
        return _("This session was abandoned.")
    if session.status != GameSession.Status.FINISHED:
        return ""
    if session.winner_id is None:
        return _("The session ended in a draw.")
    winner = next(seat for seat in seats if seat.pk == session.winner_id)
    return _("%(name)s wins the session with %(wins)d wins.") % {"name": winner.name, "wins": winner.wins}


def sessions_of(user: User) -> QuerySet[GameSession]:
    """The sessions a player has a seat in, newest first."""
    return GameSession.objects.filter(seats__user=user).select_related("host", "winner__user").order_by("-created")[:20]


def computer_due(session_id: int) -> int | None:
    """The table's sequence number if a computer player is to act now, else ``None``."""
    session = GameSession.objects.filter(pk=session_id, status=GameSession.Status.PLAYING).first()
    if session is None:
        return None
    deal = session.deals.order_by("-number").first()
    to_act = deal_state(deal).to_act if deal else None
    if to_act is None or not session.seats.filter(position=to_act).exclude(computer="").exists():
        return None
    return session.seq
