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
from games.models import Deal, GameSession, Play, Seat
from games.records import deal_state, match_of, store_match

from .errors import IllegalCard, NotSeated, StaleMove, TableError
from .locks import locked_session


@transaction.atomic
def card_play(
    *, session_id: int, user: User, card: str, seen_seq: int, rng: random.Random | None = None
) -> GameSession:
    """Play ``card`` for ``user``'s seat, having seen the table at ``seen_seq``.

    The session row is locked, so moves at one table apply one at a time; a stale
    ``seen_seq`` (double click, old page) or an illegal card changes nothing.
    Computer players whose turn follows act at once, in the same transaction.
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
    state = deal_state(deal)
    try:
        state = _apply(deal, state, card, seat.position)
    except IllegalPlay as error:
        raise IllegalCard(error) from None
    session.seq += 1
    rng = rng or secrets.SystemRandom()
    run_computers(session, seats, deal, rng=rng, state=state)
    session.save()
    return session


def run_computers(
    session: GameSession,
    seats: Sequence[Seat],
    deal: Deal,
    *,
    rng: random.Random,
    state: DealState | None = None,
) -> None:
    """Settle finished deals, deal the next, and play for computer seats until a human must act."""
    state = state or deal_state(deal)
    while True:
        if state.is_over:
            deal, state = _settle(session, seats, deal, state, rng)
            if deal is None:
                return
            continue
        seat = seats[state.to_act]
        if not seat.computer:
            return
        card = computer_player(seat.computer, rng).choose(
            view_for(state, seat.position, match_of(session, seats).scores)
        )
        state = _apply(deal, state, card, seat.position)
        session.seq += 1


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


def _apply(deal: Deal, state: DealState, card: str, position: int) -> DealState:
    new_state = state.play(card, seat=position)
    Play.objects.create(deal=deal, seq=len(state.plays) + 1, seat=position, card=card)
    return new_state


def _settle(
    session: GameSession, seats: Sequence[Seat], deal: Deal, state: DealState, rng: random.Random
) -> tuple[Deal | None, DealState | None]:
    """Record the deal's winner, update the match; deal again unless the session is over."""
    deal.winner = state.winner
    deal.finished = timezone.now()
    deal.save(update_fields=["winner", "finished"])
    match = match_of(session, seats).settle(state)
    store_match(session, seats, match)
    session.seq += 1
    if match.finished:
        session.status = GameSession.Status.FINISHED
        session.finished = timezone.now()
        session.winner = seats[match.winners[0]] if len(match.winners) == 1 else None
        return None, None
    deal = deal_next(session, match, number=deal.number + 1, rng=rng)
    return deal, deal_state(deal, cards=())
