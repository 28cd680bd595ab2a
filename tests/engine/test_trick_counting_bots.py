"""Computer players for Nap and Euchre: every level takes every decision legally from its seat's
view, seeded choices repeat, medium does the obvious thing, strong's worlds fit what it saw."""

import random
from dataclasses import replace

import pytest

from games.bots import LEVELS
from games.bots.tricks import act, computer_player
from games.bots.tricks.counting import knowledge, medium_action, play_out, world_state
from games.bots.tricks.sampler import sample_world
from games.bots.tricks.strong import StrongPlayer
from games.engine import EUCHRE, NAP
from games.engine.cards import BIT, from_mask
from games.engine.tricks.deal import playing_order
from games.engine.tricks.seat_view import view_for

TABLES = [
    (NAP, 4, {}),
    (NAP, 2, {}),
    (NAP, 3, {"wellington_blucher": True}),
    (NAP, 5, {}),
    (NAP, 6, {"wellington_blucher": True}),
    (EUCHRE, 4, {}),
    (EUCHRE, 4, {"stick_the_dealer": True}),
]


def player(level, rng):
    """Every level; the strong one on a small budget so many deals stay quick."""
    return StrongPlayer(rng, counting_playouts=6) if level == "strong" else computer_player(level, rng)


def new_deal(rules, players, options, seed):
    return rules.deal(
        players=players, dealer=seed % players, options=rules.parse_options(options), rng=random.Random(seed)
    )


def random_steps(state, rng, steps):
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("rules", "players", "options"), TABLES, ids=lambda t: getattr(t, "name", str(t)))
def test_every_level_takes_every_decision_legally_from_its_view(rules, players, options):
    kinds = set()
    for seed in range(25):
        state = new_deal(rules, players, options, seed)
        bots = [player(LEVELS[(seat + seed) % 3], random.Random(seed * 10 + seat)) for seat in range(players)]
        while not state.is_over:
            view = view_for(state, state.to_act)
            action = act(bots[state.to_act], view)
            assert action in state.legal_actions()
            assert action in view.actions
            kinds.add(action.split(":")[0])
            state = state.apply(action)
    assert "pass" in kinds


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_alone_plays_whole_deals_of_both_games(level):
    for rules, players, options in TABLES:
        for seed in range(4):
            state = new_deal(rules, players, options, seed)
            bot = player(level, random.Random(seed))
            while not state.is_over:
                view = view_for(state, state.to_act)
                action = bot.choose(view)
                assert action in view.actions
                state = state.apply(action)


@pytest.mark.parametrize(("rules", "players", "options"), [TABLES[0], TABLES[5]], ids=["nap", "euchre"])
def test_the_full_strength_strong_player_decides_only_from_the_view_and_repeats_for_a_seed(rules, players, options):
    for seed in range(6):
        state = random_steps(new_deal(rules, players, options, seed), random.Random(seed), seed * 3)
        if state.is_over:
            continue
        seat = state.to_act
        view = view_for(state, seat)
        # Swap two other seats' hidden hands where the view cannot tell them apart: same choice.
        others = [s for s in state.seats if s != seat and state.hands[s].bit_count() == state.hands[seat].bit_count()]
        twin = state
        if len(others) >= 2 and not state.plays:
            hands = list(state.hands)
            hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
            twin = replace(state, hands=tuple(hands))
        assert view_for(twin, seat) == view
        first = StrongPlayer(random.Random(99)).choose(view)
        assert StrongPlayer(random.Random(99)).choose(view_for(twin, seat)) == first
        assert medium_action(view) == medium_action(view_for(twin, seat))


# -- Nap: the obvious bids and plays ----------------------------------------------------


def nap_at_bid(hands, dealer=3, options=None, bids=()):
    state = NAP.start_hands(
        dealt=[h.split(",") for h in hands], dealer=dealer, options=NAP.parse_options(options or {})
    )
    for bid in bids:
        state = state.apply(bid)
    return state


def medium_choice(state):
    return computer_player("medium", random.Random(1)).choose(view_for(state, state.to_act))


def test_nap_medium_bids_nap_with_five_top_cards_of_a_suit():
    hands = ["AS,KS,QS,JS,TS", "2H,3H,4H,5H,6H", "2D,3D,4D,5D,6D", "2C,3C,4C,5C,6C"]
    state = nap_at_bid(hands)
    assert state.to_act == 0
    assert medium_choice(state) == "nap"


def test_nap_medium_passes_a_hopeless_hand_and_outbids_only_with_the_tricks():
    hands = ["AS,KS,QS,7H,2D", "2S,7C,4H,9D,5C", "3D,4D,5D,6D,7D", "2C,3C,4C,8C,9C"]
    state = nap_at_bid(hands, bids=["bid:2"])
    assert state.to_act == 1
    assert medium_choice(state) == "pass"  # nothing higher than a ten, no length
    hopeful = nap_at_bid(hands)
    assert medium_choice(hopeful) in ("bid:2", "bid:3")  # three top spades


def test_nap_medium_bidder_leads_the_top_of_its_long_suit_to_name_trump():
    hands = ["AS,KS,QS,7H,2D", "2S,7C,4H,9D,5C", "3D,4D,5D,6D,7D", "2C,3C,4C,8C,9C"]
    state = nap_at_bid(hands, bids=["bid:3", "pass", "pass", "pass"])
    assert state.to_act == 0
    assert state.trump is None
    assert medium_choice(state) == "AS"


def test_nap_medium_defender_does_not_overtake_a_fellow_defender():
    hands = ["AS,KS,QS,7H,2D", "2S,7C,QH,9D,5C", "3D,4D,5D,6D,7D", "KH,2H,4C,8C,AC"]
    state = nap_at_bid(hands, bids=["bid:3", "pass", "pass", "pass"])
    state = state.apply("7H").apply("QH").apply("3D")  # hearts are trump; a defender's queen wins
    assert state.to_act == 3
    assert medium_choice(state) == "2H"  # not the king: the queen already beats the bidder


# -- Euchre: ordering, going alone, bowers, discards ----------------------------------------


def euchre_at(hands, upcard, dealer=3, calls=(), options=None):
    state = EUCHRE.start_hands(
        dealt=[h.split(",") for h in hands], dealer=dealer, options=EUCHRE.parse_options(options or {}), upcard=upcard
    )
    for call in calls:
        state = state.apply(call)
    return state


def test_euchre_medium_orders_up_and_goes_alone_with_both_bowers_and_the_ace():
    hands = ["JH,JD,AH,AS,AC", "7S,8S,9S,TS,QS", "7C,8C,9C,TC,QC", "7D,8D,9D,TD,QD"]
    state = euchre_at(hands, "9H")
    assert state.to_act == 0
    assert medium_choice(state) == "order"
    state = state.apply("order").apply("discard:7D")
    assert state.to_act == 0
    assert state.legal_actions() == ["pass", "alone"]
    assert medium_choice(state) == "alone"


def test_euchre_medium_passes_a_hopeless_hand_and_the_dealer_stuck_still_calls():
    hands = ["7S,8C,9D,TS,QC", "7H,8S,9S,AC,KS", "7C,JC,9C,TC,KD", "8D,AD,JS,TD,QD"]
    state = euchre_at(hands, "9H")
    assert medium_choice(state) == "pass"
    stuck = euchre_at(hands, "9H", options={"stick_the_dealer": True}, calls=["pass"] * 7)
    assert stuck.to_act == 3
    assert "pass" not in stuck.legal_actions()
    for level in LEVELS:
        choice = player(level, random.Random(3)).choose(view_for(stuck, 3))
        assert choice in stuck.legal_actions()
    assert medium_choice(stuck) == "call:D"  # the dealer's diamonds: ace, queen, ten, eight


def test_euchre_medium_dealer_discards_to_void_a_side_suit():
    hands = ["7S,8S,9S,TS,KS", "7D,8C,9C,TC,QC", "7C,JC,9D,TD,AC", "TH,AH,QS,KD,8D"]
    state = euchre_at(hands, "9H", calls=["order"])
    assert state.to_act == 3  # the dealer, holding six with the upcard
    assert medium_choice(state) == "discard:QS"  # a void in spades; the lone king of diamonds stays


def test_euchre_medium_takes_with_the_left_bower_not_the_right_and_leads_trump_as_maker():
    hands = ["QH,AS,KS,7C,8C", "JH,JD,9H,AC,AD", "7S,8S,9S,TS,QS", "7D,8D,9D,TD,KC"]
    state = euchre_at(hands, "TH", calls=["pass", "order", "discard:7D", "pass"])
    assert state.trump == "H"
    assert state.to_act == 0
    state = state.apply("QH")  # an opponent leads a trump
    assert state.to_act == 1
    assert medium_choice(state) == "JD"  # the left bower is enough: the right bower is mine too
    state = state.apply("JD").apply("7S").apply("TH")
    assert state.tricks[-1].winner == 1
    assert medium_choice(state) == "JH"  # the maker draws trumps with the right bower


def test_euchre_medium_does_not_overtake_its_partner():
    hands = ["KS,7C,8C,9C,TC", "8S,7D,8D,9D,TD", "AS,9S,QC,KC,AC", "7S,AH,KH,QH,TH"]
    state = euchre_at(hands, "9H", calls=["order", "discard:7S", "pass"])
    state = state.apply("KS").apply("8S")
    assert state.to_act == 2
    assert medium_choice(state) == "9S"  # the partner's king holds: keep the ace


# -- strong: its worlds fit the view ---------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "options"), TABLES, ids=lambda t: getattr(t, "name", str(t)))
def test_strong_worlds_fit_the_view(rules, players, options):
    for seed in range(30):
        rng = random.Random(seed)
        state = new_deal(rules, players, options, seed)
        bots = [computer_player("medium", random.Random(seat)) for seat in range(players)]
        for _ in range(rng.randrange(0, 30)):
            if state.is_over:
                break
            state = state.apply(bots[state.to_act].choose(view_for(state, state.to_act)))
        if state.is_over:
            continue
        seat = state.to_act
        view = view_for(state, seat)
        known, forced = knowledge(view)
        mine = state.hands[seat]
        played = sum(BIT[card] for card in state.plays)
        voids = _voids(rules, state)
        for other, allowed in known.allowed.items():
            # never rules out a card the seat really holds (except one the rules' hook places)
            assert state.hands[other] & ~(allowed | forced.get(other, 0)) == 0
        for _ in range(5):
            world = sample_world(known, rng)
            for other, mask in forced.items():
                world[other] |= mask
            dealt = 0
            for other, hand in world.items():
                assert hand.bit_count() == state.hands[other].bit_count()
                assert hand & (mine | played | dealt) == 0
                for card in from_mask(hand):
                    assert rules.suit_in_play(card, state.trump) not in voids[other]
                dealt |= hand
            if view.upcard and "order" in view.calls and seat != state.dealer and view.upcard not in state.plays:
                assert world[state.dealer] & BIT[view.upcard]
            twin = world_state(view, world, known.unseen & ~dealt)
            assert twin.to_act == seat
            assert list(view.actions) == twin.legal_actions()
            finished = play_out(twin)
            _replays_through_the_engine(twin, finished)


def _voids(rules, state):
    voids = {seat: set() for seat in state.seats}
    for trick in (*state.tricks, *([state.trick] if state.trick else [])):
        if trick.cards:
            led = rules.suit_in_play(trick.cards[0], state.trump)
            for seat, card in zip(playing_order(state.seats, trick.leader), trick.cards, strict=False):
                if rules.suit_in_play(card, state.trump) != led:
                    voids[seat].add(led)
    return voids


def _replays_through_the_engine(start, finished):
    """The quick play-out keeps the game's rules: the engine accepts its cards and agrees on winners."""
    state = start
    while state.trick is None and not state.is_over:
        state = state.apply(finished.calls[len(state.calls)])
    done = len(state.tricks)
    for trick in finished.tricks[done:]:
        for card in trick.cards[len(state.trick.cards) :] if state.trick else trick.cards:
            state = state.apply(card)
        assert state.tricks[-1] == trick
    assert state.is_over
    assert state.rules.bot_value(state, 0) == finished.rules.bot_value(finished, 0)


# -- the arena for Nap and Euchre ------------------------------------------------------------


def test_the_arena_seats_a_partnership_as_the_hero_and_splits_shared_wins():
    from games.bots.arena import run_arena

    euchre = run_arena(
        game="euchre", players=4, deals=8, seed=2, hero="medium", field="easy", options={"stick_the_dealer": True}
    )
    assert euchre.thrown_in == 0
    assert euchre.fair_share == 0.5
    assert len(euchre.shares) == len(euchre.values) == 8
    assert set(euchre.shares) <= {0.0, 1.0}  # one partnership scores each deal
    assert euchre.rate == sum(euchre.shares) / 8
    nap = run_arena(game="nap", players=4, deals=12, seed=2, hero="easy", field="easy")
    assert nap.fair_share == 0.25
    assert all(share in (0.0, 1 / 3, 1.0) for share in nap.shares)  # a failed bid: three seats win
    assert len(nap.shares) == 12 - nap.thrown_in
    assert nap.shared >= sum(share == 1 / 3 for share in nap.shares)


def test_arena_arithmetic_of_the_shared_measures():
    from games.bots.arena import ArenaResult

    result = ArenaResult(game="nap", hero="a", field="b", players=4, deals=4, score=3)
    result.values, result.shares, result.shared = [9.0, 3.0, -3.0, 3.0], [1.0, 1 / 3, 0.0, 1 / 3], 2
    data = result.as_json()
    assert data["multiple"] is None  # deals won by several seats: the rate is no share
    assert data["hero_value_per_deal"] == 3.0
    assert data["split_share"] == round((1 + 2 / 3) / 4, 4)
    assert data["split_multiple"] == round((1 + 2 / 3) / 4 / 0.25, 3)


def test_the_arena_command_line_plays_nap_and_euchre_with_options():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    base = [sys.executable, "-m", "games.bots", "arena", "--deals", "6", "--hero", "medium", "--field", "easy"]
    for extra in (["--game", "nap", "--players", "3", "--options", '{"wellington_blucher": true}'],
                  ["--game", "euchre", "--options", '{"stick_the_dealer": true}']):  # fmt: skip
        done = subprocess.run([*base, *extra, "--json"], cwd=root, capture_output=True, text=True, check=True)
        data = json.loads(done.stdout)
        assert data["deals"] == 6
        assert "split_share" in data
    bad = subprocess.run([*base, "--game", "euchre", "--options", '{"points": 6}'], cwd=root, capture_output=True)
    assert bad.returncode == 2


def test_a_void_is_inferred_only_where_the_game_says_an_off_suit_card_shows_one(monkeypatch):
    hands = [h.split(",") for h in ("AS,KS,2H,3H,4H", "QS,5H,6H,7H,8H", "2C,3C,4C,5C,6C")]
    state = NAP.start_hands(dealt=hands, dealer=2, options=NAP.parse_options({}))
    for action in ("bid:2", "pass", "pass", "AS", "QS", "2C"):  # seat 2 has no spade: it plays a club
        state = state.apply(action)
    spades = sum(BIT[rank + "S"] for rank in "23456789TJQKA")
    known, _ = knowledge(view_for(state, 0))
    assert not known.allowed[2] & spades  # one must follow suit when able: the club shows a void
    assert known.allowed[1] & spades  # seat 1 followed: it may hold more
    monkeypatch.setattr(NAP, "shows_void", lambda card, led, trump: False)
    known, _ = knowledge(view_for(state, 0))
    assert known.allowed[2] & spades  # a game where one may play off suit anyway: nothing inferred
