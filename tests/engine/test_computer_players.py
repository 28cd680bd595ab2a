"""Computer players: legal play at every level, sound inference, the open-hand solver."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import LEVELS
from games.bots.tricks import computer_player
from games.bots.tricks.habits import habit_card, keeper, observed_plays, world_weight
from games.bots.tricks.knowledge import infer
from games.bots.tricks.medium import ranked
from games.bots.tricks.rollout import habit_playouts
from games.bots.tricks.sampler import sample_world
from games.bots.tricks.solver import Solver
from games.bots.tricks.strong import StrongPlayer
from games.engine import FEMKORT, LETZTER_STICH
from games.engine.cards import BIT, CARDS, INDEX, SUIT_MASK
from games.engine.tricks.masks import standing
from games.engine.tricks.seat_view import view_for
from tests.engine_helpers import femkort_deal, play

tables = st.one_of(
    st.tuples(
        st.just("femkort"),
        st.integers(3, 10),
        st.sampled_from([{}, {"profile": "classic"}, {"trump": True}, {"profile": "classic", "trump": True}]),
    ),
    st.tuples(st.just("letzter_stich"), st.integers(3, 4), st.just({})),
)


def deal_for(game, players, options, seed):
    rules = FEMKORT if game == "femkort" else LETZTER_STICH
    return rules.deal(
        players=players, dealer=seed % players, options=rules.parse_options(options), rng=random.Random(seed)
    )


def quick(level, rng):
    """Every level, the strong one on a small budget so thousands of decisions stay quick."""
    if level == "strong":
        return StrongPlayer(
            rng, playout_worlds=4, exact_from=3, node_budget=300, node_limit=3_000, min_worlds=1, max_worlds=4
        )
    return computer_player(level, rng)


@settings(max_examples=60)
@given(tables, st.integers(0, 2**32))
def test_every_level_only_plays_legal_cards(table, seed):
    game, players, options = table
    state = deal_for(game, players, options, seed)
    bots = [quick(LEVELS[(seat + seed) % 3], random.Random(seed + seat)) for seat in range(players)]
    while not state.is_over:
        view = view_for(state, state.to_act)
        card = bots[state.to_act].choose(view)
        assert card in view.legal
        state = state.play(card)


@pytest.mark.parametrize("game", ["femkort", "letzter_stich"])
def test_the_strong_player_at_full_strength_plays_whole_deals(game):
    for seed in range(3):
        state = deal_for(game, 4, {}, seed)
        bot = computer_player("strong", random.Random(seed))
        while not state.is_over:
            view = view_for(state, state.to_act)
            card = bot.choose(view)
            assert card in view.legal
            state = state.play(card)


@settings(max_examples=80)
@given(tables, st.integers(0, 2**32), st.data())
def test_inference_is_sound_and_worlds_fit_the_view(table, seed, data):
    game, players, options = table
    state = deal_for(game, players, options, seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, state.tricks_per_deal * players - 1))):
        state = state.play(rng.choice(state.legal_cards()))
    seat = state.to_act
    view = view_for(state, seat)
    knowledge = infer(view)
    for other in knowledge.allowed:
        # What was inferred never rules out a card the seat really holds.
        assert state.hands[other] & ~knowledge.allowed[other] == 0
        assert knowledge.sizes[other] == state.hands[other].bit_count()
    world = sample_world(knowledge, random.Random(seed + 1))
    played = sum(BIT[card] for cards in view.played for card in cards)
    dealt = 0
    for other, hand in world.items():
        assert hand.bit_count() == knowledge.sizes[other]
        assert hand & ~knowledge.allowed[other] == 0
        assert hand & dealt == 0
        assert hand & state.hands[seat] == 0
        assert hand & played == 0
        dealt |= hand
    for other, card in view.face_up:  # the trump card turned up in the dealer's hand stays there
        if other != seat:
            assert world[other] & BIT[card]


@settings(max_examples=60)
@given(tables, st.integers(0, 2**32), st.data())
def test_the_habit_in_play_outs_is_the_rules_of_thumb_first_card(table, seed, data):
    game, players, options = table
    state = deal_for(game, players, options, seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, state.tricks_per_deal * players - 1))):
        state = state.play(rng.choice(state.legal_cards()))
    view = view_for(state, state.to_act)
    knowledge = infer(view)
    seats = list(view.seats)
    leader = seats.index(view.trick.leader)
    cards = [INDEX[card] for card in view.trick.cards]
    trump = -1 if view.trump is None else "SHDC".index(view.trump)
    led, bar, best, _ = standing(cards, leader, len(seats), trump) if cards else (0, 0, -1, leader)
    turn = [seats[(leader + step) % len(seats)] for step in range(len(cards) + 1, len(seats))]
    card = habit_card(
        sum(BIT[card] for card in view.hand),
        sum(BIT[card] for card in view.legal),
        unseen=knowledge.unseen,
        held=sum(knowledge.sizes.values()),
        later=sum(knowledge.sizes[other] for other in turn),
        step=len(cards),
        led=led,
        bar=bar,
        best=best,
        trump=trump,
        avoid=game == "letzter_stich",
    )
    assert CARDS[card] == ranked(view)[0]


@pytest.mark.parametrize("game", ["femkort", "letzter_stich"])
def test_the_strong_choice_repeats_for_a_seed(game):
    differs = False
    for seed in range(6):
        state = deal_for(game, 4, {}, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(8)):
            state = state.play(rng.choice(state.legal_cards()))
        view = view_for(state, state.to_act)
        first = habit_playouts(view, list(view.legal), worlds=32, rng=random.Random(seed), trust=0.6, noise=0.3)
        again = habit_playouts(view, list(view.legal), worlds=32, rng=random.Random(seed), trust=0.6, noise=0.3)
        other = habit_playouts(view, list(view.legal), worlds=32, rng=random.Random(seed + 99), trust=0.6, noise=0.3)
        assert first == again
        mimic = {"worlds": 32, "trust": 0.05, "mimic": (0.45, 0.65, 0.79)}
        assert habit_playouts(view, list(view.legal), rng=random.Random(seed), **mimic) == habit_playouts(
            view, list(view.legal), rng=random.Random(seed), **mimic
        )
        differs |= first != other  # the seed matters, so repeating it is no accident
        choices = {StrongPlayer(random.Random(seed)).choose(view) for _ in range(2)}
        assert len(choices) == 1
        assert choices <= set(view.legal)
    assert differs


def test_a_world_that_fits_the_habits_weighs_more():
    # Seat 0 leads 8H and seat 1 takes it with AH. Had seat 1 also held 3H, the rules of thumb
    # would have shed the three: a world where the ace was its only heart fits the play better.
    state = femkort_deal("8H,2C,3C,4C,5C/AH,2D,3D,4D,5D/AS,KS,QS,JS,TS", dealer=2, profile="classic")
    view = view_for(play(state, "8H", "AH"), 2)
    plays = observed_plays(view)
    assert [(play.seat, CARDS[play.card]) for play in plays] == [(0, "8H"), (1, "AH")]
    assert infer(view).allowed[1] & BIT["3H"]
    common = {"deck": (1 << 52) - 1, "trump": -1, "overtake": False, "avoid": False, "trust": 0.7}
    seat_0 = BIT["2C"] | BIT["3C"] | BIT["4C"] | BIT["5C"]
    only_heart = {0: seat_0, 1: BIT["2D"] | BIT["3D"] | BIT["4D"] | BIT["5D"]}
    kept_the_three = {0: seat_0, 1: BIT["3H"] | BIT["3D"] | BIT["4D"] | BIT["5D"]}
    assert world_weight(plays, only_heart, **common) == pytest.approx(0.7)  # the lead fits, the follow was forced
    assert world_weight(plays, kept_the_three, **common) == pytest.approx(0.7 * 0.3)


def test_a_low_follow_under_must_overtake_caps_the_suit():
    # Seat 0 leads 8H; seat 1 plays 3H below it, so seat 1 holds no heart above the eight.
    state = play(femkort_deal("8H,2C,3C,4C,5C/3H,2D,3D,4D,5D/AS,KS,QS,JS,TS", dealer=2), "8H", "3H")
    knowledge = infer(view_for(state, 2))
    hearts_above_eight = SUIT_MASK[1] & ~((1 << (INDEX["8H"] + 1)) - 1)
    assert knowledge.allowed[1] & hearts_above_eight == 0
    assert knowledge.allowed[1] & BIT["6H"]


def test_classic_profile_infers_no_cap_but_still_voids():
    state = femkort_deal("8H,2C,3C,4C,5C/3H,2D,3D,4D,5D/AS,KS,QS,JS,TS", dealer=2, profile="classic")
    state = play(state, "8H", "3H", "AS")
    knowledge = infer(view_for(state, 1))
    assert knowledge.allowed[0] & BIT["QH"]
    assert knowledge.allowed[2] & SUIT_MASK[1] == 0  # seat 2 showed it has no hearts


def test_solver_finds_the_only_winning_card():
    # Three players, two cards each; seat 0 to lead. Leading AS wins trick 4 and then 2C loses
    # to 3C; leading 2C loses the lead, but seat 0 keeps AS... which only wins if spades are led.
    hands = [BIT["AS"] | BIT["KH"], BIT["2S"] | BIT["AH"], BIT["3S"] | BIT["QH"]]
    solver = Solver(players=3, trump=-1, overtake=True, root=0, avoid=False)
    # Lead AS: win, then lead KH; seat 1 must overtake with AH and takes the last trick.
    assert solver.taker([BIT["KH"], hands[1], hands[2]], 0, [INDEX["AS"]]) == 1
    # Lead KH: seat 1 must overtake with AH, then leads 2S; seat 0 follows AS and wins.
    assert solver.taker([BIT["AS"], hands[1], hands[2]], 0, [INDEX["KH"]]) == 0


def test_solver_in_letzter_stich_avoids_the_last_trick():
    hands = [BIT["AS"] | BIT["9H"], BIT["KS"] | BIT["TH"], BIT["QS"] | BIT["JH"]]
    solver = Solver(players=3, trump=-1, overtake=False, root=0, avoid=True)
    # Lead AS: win it, then must lead 9H and lose the last trick to JH (seat 2 can choose).
    assert solver.taker([BIT["9H"], hands[1], hands[2]], 0, [INDEX["AS"]]) != 0


class _Broken:
    def choose(self, view):
        raise RuntimeError("a bug in a computer player")


@pytest.mark.parametrize("game", ["femkort", "euchre"])
def test_a_computer_player_that_fails_still_takes_a_legal_action(game, caplog):
    from games.bots.tricks import act
    from games.engine import get_game

    rules = get_game(game)
    state = rules.deal(players=4, dealer=0, options=rules.parse_options({}), rng=random.Random(3))
    view = view_for(state, state.to_act)
    assert act(_Broken(), view) in state.legal_actions()
    assert "failed" in caplog.text


def test_the_keeper_is_the_card_likeliest_to_take_a_last_trick_or_to_lose_it():
    hand = BIT["AS"] | BIT["7H"] | BIT["2C"]
    unseen = (1 << 52) - 1 & ~hand
    assert CARDS[keeper(hand, unseen=unseen, held=15, trump=-1, avoid=False)] == "AS"
    assert CARDS[keeper(hand, unseen=unseen, held=15, trump=-1, avoid=True)] == "2C"
    # With clubs trump the two of clubs beats every side card: it is the one to keep.
    assert CARDS[keeper(hand, unseen=unseen, held=15, trump=3, avoid=False)] != "7H"


def test_a_world_where_the_field_kept_its_best_card_weighs_more():
    # Seat 0 leads 8H (the rule's card); seat 1 overtakes with JH where the rule plays 9H.
    # The medium field seldom spends the card it keeps for last: a world where JH was seat
    # 1's best card fits the play less than one where it kept an ace.
    state = femkort_deal("8H,2C,3C,4C,5C/JH,2D,3D,4D,5D/AS,KS,QS,JS,TS", dealer=2)
    view = view_for(play(state, "8H", "JH"), 2)
    plays = observed_plays(view)
    common = {"deck": (1 << 52) - 1, "trump": -1, "overtake": True, "avoid": False, "trust": 0.05}
    mimic = (0.45, 0.65, 0.79)
    seat_0 = BIT["2C"] | BIT["3C"] | BIT["4C"] | BIT["5C"]
    kept_an_ace = {0: seat_0, 1: BIT["AD"] | BIT["9H"] | BIT["3D"] | BIT["4D"]}
    played_its_best = {0: seat_0, 1: BIT["9H"] | BIT["2D"] | BIT["3D"] | BIT["4D"]}
    assert world_weight(plays, kept_an_ace, **common, mimic=mimic) == pytest.approx(0.45 * 0.35)
    assert world_weight(plays, played_its_best, **common, mimic=mimic) == pytest.approx(0.05 * 0.45)
