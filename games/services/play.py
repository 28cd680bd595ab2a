"""Playing a card: the one path by which a deal moves on, for humans and computer players alike."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.bots import computer_player
from games.engine import IllegalPlay, Match
from games.engine.base import DealState
from games.engine.views import view_for
from games.live import announce
from games.models import Deal, GameSession, Play, Seat
from games.records import deal_state, match_of, store_match

from .errors import IllegalCard, NotSeated, StaleMove, TableError
from .locks import locked_session
from .standings import standings_record


@transaction.atomic
def card_play(
    *, session_id: int, user: User, card: str, seen_seq: int, rng: random.Random | None = None
) -> GameSession:
    """Play ``card`` for ``user``'s seat, having seen the table at ``seen_seq``.

    The session row is locked, so moves at one table apply one at a time; a stale
    ``seen_seq`` (double click, old page) or an illegal card changes nothing.
    """
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING:
        raise TableError(_("This session is not in play."), code="not_playing")
    seats = list(session.seats.select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(_("You have no seat at this table."))
    if seen_seq != session.seq:
        raise StaleMove(_("The table has moved on since you last saw it; here it is now."), seq=session.seq)
    deal = session.deals.order_by("-number").first()
    try:
        _play(session, seats, deal, deal_state(deal), card, seat.position, rng)
    except IllegalPlay as error:
        raise IllegalCard(error) from None
    return session


@transaction.atomic
def computer_turn(*, session_id: int, seen_seq: int | None = None, rng: random.Random | None = None) -> bool:
    """If a computer player is to act (and the table is still at ``seen_seq``), play its one card.

    Returns whether it played. Safe to call from several processes at once: the row
    lock and the sequence number let only one of them play each turn.
    """
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING or (seen_seq is not None and seen_seq != session.seq):
        return False
    seats = list(session.seats.select_related("user"))
    deal = session.deals.order_by("-number").first()
    state = deal_state(deal)
    seat = seats[state.to_act]
    if not seat.computer:
        return False
    rng = rng or secrets.SystemRandom()
    view = view_for(state, seat.position, match_of(session, seats).scores)
    card = computer_player(seat.computer, rng).choose(view)
    _play(session, seats, deal, state, card, seat.position, rng)
    return True


def computers_play_all(*, session_id: int, rng: random.Random | None = None) -> int:
    """Let computer players act until a human must, at once (for requests made without websockets)."""
    played = 0
    while computer_turn(session_id=session_id, rng=rng):
        played += 1
    return played


def deal_next(session: GameSession, match: Match, *, number: int, rng: random.Random) -> Deal:
    state = match.deal(rng)
    return Deal.objects.create(
        session=session,
        number=number,
        dealer=state.dealer,
        hands=[list(hand) for hand in state.dealt],
        trump=state.trump or "",
        options=state.options.as_record(state.trump),
    )


def _play(
    session: GameSession,
    seats: Sequence[Seat],
    deal: Deal,
    state: DealState,
    card: str,
    position: int,
    rng: random.Random | None,
) -> None:
    """Apply one card, record it, settle the deal if it was the last, and tell the table."""
    after = state.play(card, seat=position)
    Play.objects.create(deal=deal, seq=len(state.plays) + 1, seat=position, card=card)
    session.seq += 1
    if after.is_over:
        _settle(session, seats, deal, after, rng or secrets.SystemRandom())
    session.save()
    announce(session.pk, session.seq)


def _settle(session: GameSession, seats: Sequence[Seat], deal: Deal, state: DealState, rng: random.Random) -> None:
    """Record the deal's winner and update the match; deal again unless the session is over."""
    deal.winner = state.winner
    deal.finished = timezone.now()
    deal.save(update_fields=["winner", "finished"])
    match = match_of(session, seats).settle(state)
    store_match(session, seats, match)
    if match.finished:
        session.status = GameSession.Status.FINISHED
        session.finished = timezone.now()
        session.winner = seats[match.winners[0]] if len(match.winners) == 1 else None
        standings_record(session, seats)
    else:
        deal_next(session, match, number=deal.number + 1, rng=rng)
