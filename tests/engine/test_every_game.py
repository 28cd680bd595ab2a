"""One suite for every game in ``GAMES``, through the game protocol alone (as OpenSpiel's basic
tests drive each of its games): a game registered later is tested here without a line written for it.

For each game and table size two seeded sessions are played with random legal actions, each deal
dealt from a fair stream as the site deals it: one with every option on (flags on, the lowest
numbers, the first choices: every rule variant, and short sessions) to the session's end, one with
the default options for its first deals. Each session's first and last deals are checked state by
state, every deal's export as a whole:

- the cards are conserved: each card dealt lies in one place (one hand, face up on the table, or out
  of view: a stock, a widow, a discard), a card played stays played, a pile holds no more cards
  than are out of view, and the count others see of a hand is the hand;
- a seat's view names no card another seat held this deal unless it held it too or the table shows
  it to everyone; the table (a spectator's view) names such a card only where it lies face up, lay
  on show when the deal began, or is in a hand where the rules place it (every world resampled for
  the other seats puts it there);
- a world resampled for a seat looks exactly the same to it, offers the same actions, and hides
  something: some world deals some other hand differently;
- the deal's export verifies against its seed and replays to the same result, its actions replay
  through the protocol to its outcome, and the session's export verifies as a list;
- an illegal action (a card not in the hand, an action out of turn, a word of no game, any action
  once the deal is over) raises ``IllegalPlay`` and changes nothing.
"""

from __future__ import annotations

import functools
import json
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest

from games.engine import GAMES
from games.engine.cards import CARDS
from games.engine.fair import STREAM, FairShuffle, commitment
from games.engine.game import Game, IllegalPlay, State, View
from games.engine.records import replay
from games.engine.verify import verify, verify_each
from tests.engine_helpers import Action, random_line

CASES = [
    pytest.param((name, players), id=f"{name}-{players}")
    for name in GAMES
    for players in sorted(GAMES[name].seat_counts)
]
MOST_DEALS = 12  # a session with every option on ends well within this (it stops here if not)
DEFAULT_DEALS = 4  # the deals played of a session with the default options
CHECKED = 1  # the deals of each session checked state by state: the first ones and the last
WORLDS = 2  # worlds resampled per seat to see whether the rules place a card the table names
NAMED = re.compile(r"\b[2-9TJQKA][SHDC]\b")  # a card named anywhere in a view's repr


@dataclass
class Deal:
    players: int
    setup: dict[str, Any]
    states: tuple[State, ...]  # from the deal's first state to its last
    actions: tuple[Action, ...]
    record: dict[str, Any]  # the export, as the site gives it

    @functools.cached_property
    def views(self) -> tuple[tuple[View, ...], ...]:
        """Per state, each seat's view, then the table's (a spectator's)."""
        return tuple(tuple(state.view(seat) for seat in (*range(self.players), None)) for state in self.states)

    @property
    def seen(self):
        """Each state with the seats' views and the table's."""
        return ((state, views[:-1], views[-1]) for state, views in zip(self.states, self.views, strict=True))


@dataclass(frozen=True)
class Case:
    name: str
    players: int
    sessions: tuple[tuple[Deal, ...], ...]

    @property
    def game(self) -> Game:
        return GAMES[self.name]

    @property
    def checked(self) -> list[Deal]:
        """The deals checked state by state: each session's first ones and its last."""
        return [deal for deals in self.sessions for deal in (*deals[:CHECKED], *deals[CHECKED:][-1:])]


@pytest.fixture(scope="module", params=CASES)
def case(request) -> Case:
    """One game at one table size, its sessions played once for all the tests below (pytest runs a
    case's tests together, so only one case's views are kept at a time)."""
    name, players = request.param
    return Case(name, players, tuple(session(name, players, table) for table in ("everything-on", "defaults")))


def everything_on(game: Game, players: int) -> dict[str, Any]:
    """Every flag on, every number at its lowest, the first of every choice: where the table allows it."""
    raw = {
        option.name: True if option.kind == "flag" else option.low if option.kind == "number" else option.choices[0][0]
        for option in game.options_schema
    }
    return raw if game.table_problem(players, game.parse_options(raw)) is None else {}


def session(name: str, players: int, table: str) -> tuple[Deal, ...]:
    """A seeded session played at random, each deal dealt from its own fair stream and exported."""
    game = GAMES[name]
    rng = random.Random(f"{name}/{players}/{table}")
    raw = everything_on(game, players) if table == "everything-on" else {}
    most = MOST_DEALS if table == "everything-on" else DEFAULT_DEALS
    match, deals = None, []
    while (match is None or not match.finished) and len(deals) < most:
        seed = rng.randbytes(32)
        contributions = [rng.randbytes(rng.randrange(0, 8)).hex() for _ in range(players)]
        stream = FairShuffle(seed, contributions)
        first = match is None
        if first:  # the first dealer comes from the first deal's stream
            match = game.new_match(players=players, options=game.parse_options(raw), rng=stream)
        before = match
        setup = game.setup(match, stream)
        states, actions = random_line(game.start(setup), rng)
        identity = f"{name} deal {len(deals) + 1}"
        fair = {
            "stream": STREAM,
            "identity": identity,
            "commitment": commitment(seed, identity),
            "seed": seed.hex(),
            "contributions": contributions,
            "players": players,
            "options": raw,
            "match": before.to_record(),
            "setup": setup,
        } | ({"first": True} if first else {})
        record = states[-1].public_record() | game.record_context(before) | {"fair": fair}
        deals.append(Deal(players, setup, tuple(states), tuple(actions), json.loads(json.dumps(record))))
        match = match.settle(states[-1])
    return tuple(deals)


def named(view: View) -> set[str]:
    """Every card a view names anywhere: areas, seats, log, facts, prompt, the computer players' detail."""
    return set(NAMED.findall(repr(view)))


def dealt_cards(value: Any) -> list[str]:
    """Every card a setup deals, wherever it puts it (hands, stock, widow, upcard); keys are not cards."""
    if isinstance(value, str):
        return [value] if NAMED.fullmatch(value) else []
    if isinstance(value, list):
        return [card for item in value for card in dealt_cards(item)]
    if isinstance(value, dict):
        return [card for item in value.values() for card in dealt_cards(item)]
    return []


def played(view: View) -> set[str]:
    """The cards played this deal as the table shows them: in front of the seats, in the trick, laid out."""
    cards = {shown.card for seat in view.seats for shown in seat.played}
    cards |= {shown.card for area in view.areas if area.kind in ("trick", "layout") for shown in area.cards}
    return cards - {None}


def face_up(view: View) -> set[str]:
    """Every card lying face up: played, turned up on the table or beside it, shown from a hand."""
    cards = {shown.card for area in view.areas for shown in area.cards} | {
        card for seat in view.seats for card in seat.face_up
    }
    return played(view) | cards - {None}


def test_every_card_dealt_lies_in_one_place(case):
    for number, deal in enumerate(case.checked):
        dealt = dealt_cards(deal.setup)
        assert len(dealt) == len(set(dealt)), f"deal {number}: a card dealt twice"
        before: set[str] = set()
        for step, (_, seats, table) in enumerate(deal.seen):
            where = f"deal {number}, after {step} actions"
            held = [card for view in seats for card in view.hand]
            assert len(held) == len(set(held)), f"{where}: a card in two hands (or twice in one)"
            assert set(held) <= set(dealt), f"{where}: a card in a hand that was never dealt"
            now = played(table)
            assert now <= set(dealt), f"{where}: a card played that was never dealt"
            assert not now & set(held), f"{where}: a card played and still held: {now & set(held)}"
            assert before <= now, f"{where}: a card played is no longer on the table: {before - now}"
            for seat, view in zip(table.seats, seats, strict=True):
                if seat.playing and view.hand:
                    assert seat.in_hand == len(view.hand), f"{where}: seat {seat.seat} holds {len(view.hand)}"
            piles = sum(area.count for area in table.areas)
            piles += sum(shown.card is None for area in table.areas for shown in area.cards)
            out_of_view = set(dealt) - set(held) - now
            assert piles <= len(out_of_view), f"{where}: piles of {piles} cards, {len(out_of_view)} out of view"
            before = now


def placed_by_rules(game: Game, state: State, card: str, holder: int, players: int) -> bool:
    """Every world resampled for another seat puts ``card`` in ``holder``'s hand: the rules say where it is."""
    try:
        return all(
            card in game.resample(state.view(seat), random.Random(world)).view(holder).hand
            for seat in range(players)
            if seat != holder
            for world in range(WORLDS)
        )
    except NotImplementedError:
        return False


def test_a_seat_sees_no_card_hidden_from_it(case):
    for number, deal in enumerate(case.checked):
        on_show = named(deal.views[0][-1])  # on the table as dealt (an upcard), or beside it
        held_once: list[set[str]] = [set() for _ in range(case.players)]
        for step, (state, seats, table) in enumerate(deal.seen):
            where = f"deal {number}, after {step} actions"
            for seat, view in enumerate(seats):
                held_once[seat] |= set(view.hand)
            public = named(table)
            for seat, view in enumerate(seats):
                theirs = set().union(*(cards for other, cards in enumerate(held_once) if other != seat))
                hidden = named(view) & theirs - held_once[seat] - public
                assert not hidden, f"{where}: seat {seat} sees {sorted(hidden)}"
            for card in sorted(public & set().union(*held_once) - face_up(table) - on_show):
                holder = next((seat for seat, view in enumerate(seats) if card in view.hand), None)
                assert holder is not None, f"{where}: the table names {card}, held this deal and now out of view"
                assert placed_by_rules(case.game, state, card, holder, case.players), (
                    f"{where}: the table names {card} in seat {holder}'s hand"
                )


def test_a_resampled_world_looks_the_same_to_the_seat(case):
    """For the seat to act (as the computer players resample) and, in turn, each other seat."""
    rng = random.Random(f"{case.name}/{case.players}/worlds")
    differs = 0
    for number, deal in enumerate(case.checked):
        for step, (state, seats, _) in enumerate(deal.seen):
            if state.is_over:
                continue
            for seat in {state.to_act, step % case.players}:
                seen = seats[seat]
                try:
                    world = case.game.resample(seen, rng)
                except NotImplementedError:
                    pytest.skip(f"{case.name} does not resample")
                assert world.view(seat) == seen, f"deal {number}, after {step} actions: seat {seat} tells them apart"
                if seat == state.to_act:
                    assert sorted(world.legal_actions()) == sorted(state.legal_actions())
                differs += any(world.view(other).hand != view.hand for other, view in enumerate(seats) if other != seat)
    assert differs, "no resampled world ever dealt another hand differently"


def test_exports_verify_and_replay(case):
    """Every deal of both sessions; then each session's export as one list."""
    for deals in case.sessions:
        for number, deal in enumerate(deals):
            first, last = deal.states[0], deal.states[-1]
            assert verify(deal.record) == [], f"deal {number}"
            assert replay(deal.record) == json.loads(json.dumps(case.game.replay_result(deal.record, first, last)))
            outcome = last.outcome()
            protocol = {"game": case.name, "setup": deal.setup, "actions": [list(action) for action in deal.actions]}
            assert replay(json.loads(json.dumps(protocol))) == {
                "actions": len(deal.actions),
                "winner": outcome.winners[0] if len(outcome.winners) == 1 else None,
                "winners": list(outcome.winners),
                "values": list(outcome.values),
            }
            views = first.replay(deal.actions)
            assert len(views) == len(deal.actions) + 1
            assert views[-1].over
        assert verify_each([deal.record for deal in deals]) == [[]] * len(deals)


def test_an_illegal_action_is_refused_and_changes_nothing(case):
    refused = 0
    for deal in case.checked:
        for state, seats, table in deal.seen:
            if state.is_over:
                tries = [(seat, action) for seat in (None, 0) for action in (CARDS[0], "pass")]
            else:
                seat, legal = state.to_act, state.legal_actions()
                hand = seats[seat].hand
                tries = [
                    (seat, next(card for card in CARDS if card not in hand and card not in legal)),
                    (seat, "no-such-action"),
                ]
                for other, view in enumerate(seats):  # each other seat, with an action it may not take now
                    tries += (
                        [(other, action) for action in legal if action not in view.actions][:1] if other != seat else []
                    )
            before = repr(state)
            for seat, action in tries:
                with pytest.raises(IllegalPlay):
                    state.apply(action, seat=seat)
                refused += 1
            assert repr(state) == before
            assert state.view(state.to_act) == seats[state.to_act] if state.to_act is not None else table
    assert refused
