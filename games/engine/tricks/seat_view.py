"""What one seat may know of a trick deal: the trick library's own view, which its computer players
read (the game protocol's ``View`` is built from it, in ``shown``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import CARDS, INDEX, Card
from ..game import EVERYONE, HiddenCards, Viewer
from .deal import REDEAL_YES, DealState, Trick, TrickGame, trump_index
from .masks import trick_standing
from .redeal import RedealPoll


@dataclass(frozen=True, slots=True)
class SeatView:
    """A deal as seen by ``seat`` (``None``: a spectator). Other hands appear only as card counts."""

    game: str
    rules: TrickGame = field(compare=False, repr=False)
    options: dict[str, Any]
    players: int
    seat: int | None
    dealer: int
    trump: str | None
    seats: tuple[int, ...]
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    played: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...]
    trick: Trick | None
    to_act: int | None
    winner: int | None
    scores: tuple[int, ...] = field(default=())
    face_up: tuple[tuple[int, Card], ...] = ()  # cards turned up in a hand (the trump card): public
    dealt: tuple[tuple[Card, ...], ...] = ()  # every hand as dealt: only in a view for everyone
    actions: tuple[str, ...] = ()  # what this seat may do now: its legal actions, or asking for new cards
    poll: RedealPoll | None = None  # a request for new cards (public)
    # Games with an auction: the bids and trump making so far (a discard shows its card to the
    # dealer alone), what they settled, and a card the deal turned up beside the hands.
    calls: tuple[str, ...] = ()
    contract: Any = None
    upcard: Card | None = None
    stock: tuple[Card, ...] = ()  # the undealt cards in order: only in a view for everyone
    standing: tuple[int, ...] = ()  # each side's score before the deal, where the deal's rules read it (public)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act

    @property
    def duty(self) -> tuple[str, str | None]:
        """What the seat to act must do: ``lead``, ``follow`` a suit, ``overtake`` a card, or ``discard``.

        Only meaningful for one's own turn (it reads the hand): the page says it in words.
        """
        if not self.trick or not self.trick.cards:
            return "lead", None
        rules = self.rules
        led = rules.suit_in_play(self.trick.cards[0], self.trump)
        in_suit = [card for card in self.hand if rules.suit_in_play(card, self.trump) == led]
        if not in_suit:
            return "discard", led
        if len(self.legal) < len(in_suit):
            _, bar, *_ = trick_standing([INDEX[c] for c in self.trick.cards], trump_index(self.trump))
            return "overtake", CARDS[bar]
        return "follow", led


HIDDEN_DISCARD = "discard"


def view_for(state: DealState, seat: Viewer, scores: tuple[int, ...] = ()) -> SeatView:
    """The one place that decides what a viewer may see of a deal.

    ``seat``: a seat (its own hand, other hands as counts, cards turned face up), ``None``
    (a spectator: no hand) or ``EVERYONE`` (every hand as dealt: only for a finished deal,
    as replays, exports and the last deal's trick show it).
    """
    if seat == EVERYONE:
        if not state.is_over:
            raise HiddenCards("every hand is shown only once the deal is over")
        rules = state.rules
        calls = tuple(
            call if not rules.secret_word(call) or rules.discard_shown_after(state, caller) else rules.secret_word(call)
            for call, caller in zip(state.calls, state.callers, strict=True)
        )
        # A seat that sat the deal out (a lone player's partner) never showed its hand: nobody sees it.
        dealt = tuple(hand if seat in state.seats else () for seat, hand in enumerate(state.dealt))
        return replace(
            view_for(state, None, scores), seat=None, dealt=dealt, calls=calls, stock=state.rules.stock_shown(state)
        )
    mine = seat is not None and 0 <= seat < state.players and bool(state.dealt[seat])  # sitting out: still yours
    return SeatView(
        game=state.game,
        rules=state.rules,
        options=state.options.as_record(state.trump),
        players=state.players,
        seat=seat,
        dealer=state.dealer,
        trump=state.trump,
        seats=state.seats,
        hand=tuple(state.hand(seat)) if mine else (),
        legal=tuple(state.legal_cards()) if mine and state.to_act == seat else (),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        played=tuple(tuple(state.played_by(s)) if s in state.seats else () for s in range(state.players)),
        tricks=state.tricks,
        trick=state.trick,
        to_act=state.to_act,
        winner=state.winner,
        scores=scores,
        face_up=state.rules.face_up(state),
        actions=_actions(state, seat) if mine else (),
        poll=state.poll,
        calls=tuple(
            call if not state.rules.secret_word(call) or caller == seat else state.rules.secret_word(call)
            for call, caller in zip(state.calls, state.callers, strict=True)
        ),
        contract=state.contract,
        upcard=state.upcard,
        standing=state.standing,
    )


def _actions(state: DealState, seat: int) -> tuple[str, ...]:
    if state.to_act == seat:
        return tuple(state.legal_actions())
    return (REDEAL_YES,) if state.may_ask_redeal(seat) else ()
