"""Games whose deal opens with an auction (bids, trump making) before the first lead: Nap, Euchre.

The auction's actions are ``DealState.calls``, taken while ``trick`` is None; the game says
who acts (``auction_to_act``), what is legal, and what each call settles (``call``). Play
then goes through the shared trick machinery.
"""

from __future__ import annotations

from typing import Any

from ..game import IllegalPlay
from .deal import DealState, TrickGame


class AuctionGame(TrickGame):
    def apply(self, state: DealState, action: str, seat: int | None = None) -> DealState:
        to_act = state.to_act
        if to_act is None:
            raise IllegalPlay("deal_over", "the deal is over", seat=seat, card=action, legal=[])
        if seat is not None and seat != to_act:
            raise IllegalPlay("not_your_turn", f"it is seat {to_act}'s turn", seat=seat, card=action, legal=[])
        if state.trick is not None:
            return self.play(state, action, seat)
        return self.call(state, action)

    def call(self, state: DealState, action: str) -> DealState:
        """One action of the auction, for the seat to act."""
        raise NotImplementedError

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        """What a finished, played deal settled, as the command line's ``result``."""
        raise NotImplementedError

    def replay_outcome(self, before: Any, state: DealState) -> dict[str, Any]:
        """Complete tricks only, and ``result``: null while the deal runs, ``thrown_in`` when nobody bid."""
        if state.thrown_in:
            return {"tricks": [], "result": {"thrown_in": True}}
        complete = [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in state.tricks]
        return {"tricks": complete, "result": self.deal_outcome(state) if state.is_over else None}
