"""Playing a card: the one path by which a deal moves on, for humans and computer players alike."""

from __future__ import annotations

import copy
import random
import secrets
from collections.abc import Sequence
from dataclasses import replace

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import rights, snapshots
from games.announcements import announce
from games.bots import decide
from games.engine import IllegalPlay, Match, get_game
from games.engine.cards import INDEX
from games.engine.game import CardName, Count, State, Text
from games.engine.options import gettext_noop, ngettext_noop
from games.models import Deal, GameSession, Play, Seat
from games.selectors import TableSnapshot
from games.stored import deal_state, match_of, sides_of, store_match

from . import duplicate, fair, review, same_deals, tournaments
from .errors import IllegalCard, NotSeated, StaleMove, TableError
from .locks import locked_session
from .notify import turn_news
from .standings import standings_record
from .turns import abandon_due, ask_window, pace, session_end_abandoned, turn_begin

CARDS = ngettext_noop("%(count)d card", "%(count)d cards")


def action_take(
    *,
    session_id: int,
    user: User,
    action: str,
    seen_seq: int,
    marked: Sequence[str] = (),
    rng: random.Random | None = None,
) -> GameSession:
    """Take ``action`` (a card, a bid, a call, a vote) for ``user``'s seat, having seen the table
    at ``seen_seq``; with ``marked`` cards of the hand, their actions first (the discards before
    a draw), all in one move.

    Moves at one table apply one at a time, and a stale ``seen_seq`` (double click, old
    page) or an illegal action changes nothing and says why.
    """
    known = snapshots.peek(session_id)
    seat = _seat_of(known.seats, user) if known is not None else None
    if (
        known is not None
        and seat is not None
        and not seat.stand_in
        and not seat.missed
        and known.seq == seen_seq
        and not marked
    ):
        moved = _play_known(known, action, seat.position)
        if moved is not None:
            return moved
    return _action_take_locked(
        session_id=session_id, user=user, action=action, seen_seq=seen_seq, marked=marked, rng=rng
    )


def computer_turn(
    *,
    session_id: int,
    seen_seq: int | None = None,
    card: str | None = None,
    rng: random.Random | None = None,
    patient: bool = False,
) -> GameSession | None:
    """If a computer player is to act (and the table is still at ``seen_seq``), play its one card.

    ``card`` is the computer's choice made outside any transaction (the live drivers decide
    in a worker process); without it the choice is made here. Returns the session if it
    played, else ``None``. Safe to call from several processes at once: only one of them
    plays each turn.
    """
    known = snapshots.peek(session_id)
    if card is not None and known is not None and known.seq == seen_seq:
        seat = known.computer_to_act()
        moved = _play_known(known, card, seat.position) if seat is not None else None
        if moved is not None:
            return moved
    return _computer_turn_locked(session_id=session_id, seen_seq=seen_seq, card=card, rng=rng, patient=patient)


def _play_known(known: TableSnapshot, card: str, position: int) -> GameSession | None:
    """The common move, cheaply: on a table this process knows at exactly ``known.seq``.

    The engine checks the card against the known state, then one compare-and-set on the
    session's ``seq`` applies it only if nobody moved first: the same guarantee as the row
    lock, without reading again what is already known. Anything else (an illegal card, the
    deal's last card, another move first) returns ``None`` and goes the locked way, which
    says why.
    """
    if known.session.status != GameSession.Status.PLAYING or known.state is None or known.session.unattended_since:
        return None
    try:
        after = _checked(known.state, card, position)
    except IllegalPlay:
        return None
    if after.is_over:
        return None
    session = copy.copy(known.session)
    turn_begin(session, known.seats, after.to_act, **pace(after))
    with transaction.atomic():
        if not _advance(session, known.seq):
            return None
        _record(known.deal.pk, known.state.action_count + 1, position, card)
        session.seq = known.seq + 1
        turn_news(session, known.seats)
        moved_on = replace(known, session=session, state=after)
        transaction.on_commit(lambda: snapshots.keep(moved_on))
        announce(session.pk, session.seq)
    return session


def _checked(state: State, action: str, position: int) -> State:
    """The state after ``action`` in live play: the engine first (it names the rule an action
    breaks), then the action must be one the seat is offered now. An engine also reads actions
    that only a replayed record may hold (a discard nobody saw), never to be taken live."""
    after = state.apply(action, seat=position)
    if action not in state.legal_actions() and action not in state.view(position).actions:
        raise IllegalPlay(
            "not_now",
            f"{action} is not one of the actions now",
            seat=position,
            card=action,
            legal=[],
            text=Text(gettext_noop("That is not one of your choices now.")),
        )
    return after


def _with_marked(state: State, position: int, action: str, marked: Sequence[str]) -> list[str]:
    """The actions of the cards marked in the hand, in the hand's order, then ``action``, the choice
    that takes them (discard these, then draw). A card that may not be marked refuses them all."""
    if not marked:
        return [action]
    view = state.view(position)
    by_card = {choice.card: choice.action for choice in view.choices if choice.card is not None}
    marks = next((choice.marks for choice in view.choices if choice.action == action and choice.marks), None)
    if marks is None:
        raise IllegalPlay("not_now", f"{action} takes no marked cards", seat=position, card=action, legal=[])
    for card in marked:
        if card not in by_card or list(marked).count(card) > 1:
            known = card in INDEX and card in view.hand
            text = Text(
                gettext_noop("You cannot mark %(card)s now: nothing changed.")
                if known
                else gettext_noop("%(card)s is not in your hand: nothing changed."),
                (("card", CardName(card) if card in INDEX else card),),
            )
            raise IllegalPlay(
                "not_marked", f"{card} may not be marked now", seat=position, card=card, legal=[], text=text
            )
    most = len(marks.counted) - 1
    if len(marked) > most:
        text = Text(gettext_noop("You may mark at most %(count)s: nothing changed."), (("count", Count(most, *CARDS)),))
        raise IllegalPlay("too_many_marked", f"at most {most} cards", seat=position, card=action, legal=[], text=text)
    return [by_card[card] for card in view.hand if card in marked] + [action]


def _advance(session: GameSession, seq: int) -> bool:
    """Move the table from ``seq`` to ``seq + 1`` if it is still in play there (one statement, no read)."""
    ops = connection.ops
    moment = ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ops.quote_name(GameSession._meta.db_table)} "
            "SET seq = seq + 1, due = %s, to_act = %s, turn_since = %s, deadline = %s "
            "WHERE id = %s AND seq = %s AND status = %s",
            [
                moment(session.due),
                session.to_act,
                moment(session.turn_since),
                moment(session.deadline),
                session.pk,
                seq,
                GameSession.Status.PLAYING,
            ],
        )
        return cursor.rowcount == 1


def _record(deal_id: int, index: int, position: int, card: str) -> None:
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {ops.quote_name(Play._meta.db_table)} (deal_id, seq, seat, action, played) "
            "VALUES (%s, %s, %s, %s, %s)",
            [deal_id, index, position, card, ops.adapt_datetimefield_value(timezone.now())],
        )


def _seat_of(seats: Sequence[Seat], user: User) -> Seat | None:
    return next((s for s in seats if s.user_id == user.pk), None)


@transaction.atomic
def _action_take_locked(
    *, session_id: int, user: User, action: str, seen_seq: int, marked: Sequence[str], rng: random.Random | None
) -> GameSession:
    """The full way: lock the session row, check everything in order, settle the deal if it ends."""
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING:
        raise TableError(_("This session is not in play."), code="not_playing")
    known = _known(session)
    seats = list(known.seats) if known else list(session.seats.select_related("user"))
    seat = _seat_of(seats, user)
    if seat is None:
        raise NotSeated(_("You have no seat at this table."))
    if seen_seq != session.seq:
        raise StaleMove(_("The table has moved on since you last saw it; here it is now."), seq=session.seq)
    if seat.stand_in:
        message = (
            _("You left this session; a computer plays your seat to the end.")
            if seat.left
            else _("A computer is playing for you: take your seat back first.")
        )
        raise TableError(message, code="stood_in")
    deal, state = (known.deal, known.state) if known else _current_deal(session)
    try:
        actions = _with_marked(state, seat.position, action, marked)
        if seat.missed:  # back in time: the count of deadlines missed in a row starts again
            Seat.objects.filter(pk=seat.pk).update(missed=0)
            seats, known = list(session.seats.select_related("user")), None
        _play(session, seats, deal, state, actions, seat.position, rng, known)
    except IllegalPlay as error:
        raise IllegalCard(error) from None
    return session


@transaction.atomic
def _computer_turn_locked(
    *, session_id: int, seen_seq: int | None, card: str | None, rng: random.Random | None, patient: bool = False
) -> GameSession | None:
    """``patient``: leave a deal's first card to its due time while people may still ask for new cards."""
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING or (seen_seq is not None and seen_seq != session.seq):
        return None
    known = _known(session)
    seats = list(known.seats) if known else list(session.seats.select_related("user"))
    if abandon_due(session):
        session_end_abandoned(session)
        return None  # nothing was played: the session is over
    if session.unattended_since is not None:
        return None  # nobody plays their own seat: computers wait for someone to come back
    deal, state = (known.deal, known.state) if known else _current_deal(session)
    seat = seats[state.to_act]
    if not seat.played_by:
        return None
    if patient and ask_window(state) and any(s.user_id and not s.stand_in for s in seats):
        return None
    if card is None or card not in state.legal_actions():
        card = _decided(
            session,
            seats,
            state,
            seat.position,
            seat.played_by,
            _planned_rng(session, deal, state, seat.position) or rng,
        )
    _play(session, seats, deal, state, [card], seat.position, rng, known)
    return session


def move_for(session: GameSession, seats: Sequence[Seat], seat: Seat, level: str) -> None:
    """A computer at ``level`` makes one move for a person whose turn-based deadline passed (the
    caller holds the session's row lock); the seat stays theirs."""
    deal, state = _current_deal(session)
    card = _decided(session, seats, state, seat.position, level, _planned_rng(session, deal, state, seat.position))
    _play(session, seats, deal, state, [card], seat.position, None, None)


def _planned_rng(session: GameSession, deal: Deal, state: State, position: int) -> random.Random | None:
    """At an event's table every computer decides as at every other table of the same deal."""
    return duplicate.computer_rng(deal, position, state) if session.event_id is not None else None


def _decided(
    session: GameSession,
    seats: Sequence[Seat],
    state: State,
    position: int,
    level: str,
    rng: random.Random | None = None,
) -> str:
    """A computer's choice at ``level`` for ``position``, from what that seat sees."""
    view = state.view(position, match_of(session, seats).scores)
    gentle = rights.partners_a_beginner(session, seats, seats[position])
    return decide(level, view, rng or secrets.SystemRandom(), gentle)


def computers_play_all(*, session_id: int, rng: random.Random | None = None) -> int:
    """Let computer players act until a human must, at once (for requests made without websockets)."""
    played = 0
    while computer_turn(session_id=session_id, rng=rng, patient=True):
        played += 1
    return played


def deal_next(
    session: GameSession, match: Match | None, seats: Sequence[Seat], *, number: int, rng: random.Random | None
) -> tuple[Deal, State, Match]:
    """Deal the match's next deal (the session's first makes the match too) and store it as its game set it up.

    A live deal comes from the seed committed to for it and the players' contributions, and the
    next deal's seed is drawn at once, so its commitment is on show before it is dealt. ``rng``
    (tests and tools) deals from a seeded generator instead: such a deal cannot be verified and
    says so.
    """
    rules = get_game(session.game)
    if session.event_id is not None:  # a board of a duplicate event: a deal of its own, the same for every table
        shuffle, match = duplicate.event_shuffle(session, list(seats)), None
    elif session.same_deals_as_id is not None:  # the first table's deal again: same stream, same dealer
        shuffle, dealer, began = same_deals.same_deal_shuffle(session, number)
        match = None if began or match is None else replace(match, dealer=dealer)
    else:
        shuffle = fair.shuffle_take(session, number, seats) if rng is None else None
    stream = shuffle.stream if shuffle is not None else rng
    first = match is None
    if first:  # the first dealer comes from the same stream as the cards: nobody picks it
        match = rules.new_match(players=len(seats), options=rules.parse_options(session.options), rng=stream)
        store_match(session, match)
    record = {}
    if shuffle is not None:
        before = {"players": len(seats), "options": session.options, "match": match.to_record()}
        record = shuffle.fair | before | ({"first": True} if first else {})
    setup = rules.setup(match, stream)
    state = rules.start(setup)
    deal = Deal.objects.create(session=session, number=number, dealer=state.view(None).dealer, setup=setup, fair=record)
    if session.event_id is not None:
        session.next_commitment = duplicate.next_commitment(session, number + 1)
    elif session.same_deals_as_id is not None:
        session.next_commitment = same_deals.next_commitment(session, number + 1)
    else:
        fair.seed_draw(session, number + 1)
    return deal, state, match


def _known(session: GameSession) -> TableSnapshot | None:
    """This process's snapshot of the table if it is at the locked row's very ``seq``: no need to read it again."""
    known = snapshots.peek(session.pk)
    return known if known is not None and known.seq == session.seq and known.state is not None else None


def _current_deal(session: GameSession) -> tuple[Deal, State]:
    deal = session.deals.order_by("-number").first()
    return deal, deal_state(deal)


def _play(
    session: GameSession,
    seats: Sequence[Seat],
    deal: Deal,
    state: State,
    actions: Sequence[str],
    position: int,
    rng: random.Random | None,
    known: TableSnapshot | None,
) -> None:
    """Apply a card (or a seat's several actions in a row, all or none: the discards and the draw),
    record it, settle the deal if it was the last, and tell the table once."""
    after, steps = state, []
    for action in actions:
        if after.is_over:
            raise IllegalPlay("not_now", "the deal is over", seat=position, card=action, legal=[])
        steps.append(Play(deal_id=deal.pk, seq=after.action_count + 1, seat=position, action=action))
        after = _checked(after, action, position)
    for step in steps:
        step.save(force_insert=True)
    session.seq += len(steps)
    if after.is_over:
        # Settling writes to the seat and deal rows: work on fresh copies, never on a shared snapshot's.
        seats = list(session.seats.select_related("user"))
        next_state = _settle(session, seats, Deal.objects.get(pk=deal.pk), after, rng)
        known = None
    else:
        next_state = after
    to_act = next_state.to_act if next_state else None
    turn_begin(session, seats, to_act, **pace(next_state))
    session.save()
    turn_news(session, seats)
    if known is not None:
        moved_on = replace(known, session=copy.copy(session), state=after)
        transaction.on_commit(lambda: snapshots.keep(moved_on))
    announce(session.pk, session.seq)


def _settle(
    session: GameSession, seats: Sequence[Seat], deal: Deal, state: State, rng: random.Random | None
) -> State | None:
    """Record the deal's winner and update the match; deal again unless the session is over (the next deal).

    A deal everyone agreed to deal again ends with no winner and the match unchanged: the
    same dealer deals the next one."""
    outcome = state.outcome()
    if outcome.again:
        deal.finished = timezone.now()
        deal.save(update_fields=["finished"])
        return deal_next(session, match_of(session, seats), seats, number=deal.number + 1, rng=rng)[1]
    deal.winner = outcome.winners[0] if len(outcome.winners) == 1 else None
    deal.finished = timezone.now()
    deal.save(update_fields=["winner", "finished"])
    match = match_of(session, seats).settle(state)
    store_match(session, match)
    if session.event_id is not None:
        duplicate.deal_scored(session, list(seats), state)
    if (match.finished and session.event_id is None) or _plan_over(session, deal.number):
        session.status = GameSession.Status.FINISHED
        session.finished = timezone.now()
        winning = _winning(session, match)
        if len(winning) > 1 and tuple(sorted(winning)) not in sides_of(session, len(seats)):
            winning = set()  # a tie between seats playing for themselves: nobody won the session
        for seat in seats:
            # A seat played to the end by a computer for someone who left or was replaced wins for nobody.
            seat.won = seat.position in winning and not (seat.user_id and seat.stand_in)
            if seat.won:
                seat.save(update_fields=["won"])
        won = [seat for seat in seats if seat.won]
        session.winner = won[0] if len(winning) == 1 and won else None
        if rated(session):
            standings_record(session, seats)
        fair.seed_drop(session)
        review.reviews_queue(session)
        if session.tournament_id is not None:
            tournaments.table_over(session, list(seats), match)
        return None
    _, next_state, _ = deal_next(session, match, seats, number=deal.number + 1, rng=rng)
    return next_state


def rated(session: GameSession) -> bool:
    """Whether the session counts on the leaderboards: not an event's table (scored by matchpoints),
    nor a table of another's deals again (its players may know the cards)."""
    return session.event_id is None and session.same_deals_as_id is None


def _plan_over(session: GameSession, number: int) -> bool:
    """A table that plays given deals (an event's, another table's again, a tournament's few) has played its last."""
    if session.event_id is not None:
        return duplicate.last_deal(session)
    if session.same_deals_as_id is not None:
        return same_deals.last_deal(session, number)
    if session.tournament_id is not None:
        return tournaments.last_deal(session, number)
    return False


def _winning(session: GameSession, match: Match) -> set[int]:
    """The seats that won the session: as its game says at its end; at the end of given deals, the
    seats ranked first (an event's table wins nothing: its deals are scored by matchpoints)."""
    if session.event_id is not None:
        return set()
    if match.finished:
        return set(match.winners)
    ranking = get_game(session.game).ranking(match)
    return {seat for seat, value in enumerate(ranking) if value == max(ranking)}
