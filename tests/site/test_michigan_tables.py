"""Michigan on the site: the boodles with their chips, the widow's sale as buttons, the spread ante
as one compact list, who must play next and why, balances, the deal's settlement; no card out of
play or in another hand in any page; sessions to the end with exports that replay through the
engine, replays, leaderboards and ratings."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.cardnames import card_short
from games.engine import get_game
from games.engine.cards import CARDS
from games.engine.records import replay
from games.history import session_export
from games.models import Deal, GameSession, Seat, Standing
from games.stored import deal_state
from tests.site_helpers import current_deal, table_page, table_with

pytestmark = pytest.mark.django_db
MICHIGAN = get_game("michigan")


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def hidden_from(state, seat: int) -> set[str]:
    """Every card but the seat's own (once it has seen them) and those played: other hands, the widow,
    the cards out of play."""
    own = state.hands[seat] if state.phase != "ante" else 0
    return {card for index, card in enumerate(CARDS) if not (own | state.gone) >> index & 1}


def play_to_the_end(session, people: dict, rng: random.Random, look) -> None:
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return
        state = current_deal(session)
        for seat, user in people.items():
            html, table = table_page(session, user)
            shown = set(re.findall(r'data-card="(\w\w)"', html)) - {"AH", "KC", "QD", "JS"}
            assert not shown & hidden_from(state, seat), (seat, shown & hidden_from(state, seat))
            look(state, seat, html, table)
        user = people[state.to_act]
        html, table = table_page(session, user)
        legal = state.legal_actions()
        offered = [choice.action for choice in table.choices] + [c.card for c in table.hand if c.legal]
        assert sorted(offered) == sorted(legal)
        action = MICHIGAN.rule_of_thumb(state) if rng.random() < 0.5 else rng.choice(legal)
        services.action_take(session_id=session.pk, user=user, action=action, seen_seq=session.seq, rng=rng)


def test_four_players_against_three_computers_with_spread_antes(make_user):
    anna = make_user("anna")
    session = table_with(anna, "michigan", {"ante_spread": True}, 4, computers=(1, 2, 3), level="medium")
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(3))
    seen = {"spread": False, "sale": False, "starts": False, "boodles": False, "settled": ""}

    def look(state, seat, html, table) -> None:
        assert any(area.name == "boodles" for area in table.header.beside) or state.is_over
        seen["boodles"] |= '<span class="counters" aria-hidden="true">' in html
        if state.phase == "ante" and state.to_act == seat:
            assert len(table.choices) == 165
            assert html.count('name="move" value="ante:') == 1  # one button for the even spread, 164 in a list
            assert html.count('<option value="ante:') == 164
            assert 'class="primary">A♥ 2 · K♣ 2 · Q♦ 2 · J♠ 2</button>' in html
            assert "before you see your cards" in table.prompt
            assert not table.hand
            seen["spread"] = True
        if state.phase == "widow" and state.to_act == seat:
            assert {choice.label for choice in table.choices} == {"Take the widow", "Sell the widow"}
            seen["sale"] = True
        if state.phase == "play" and state.to_act == seat and state.run < 0:
            seen["starts"] |= "Start a" in table.prompt or "pass" in table.prompt
        if table.last_deal:
            seen["settled"] = table.last_deal

    play_to_the_end(session, {0: anna}, random.Random(4), look)
    assert all(seen[key] for key in ("spread", "sale", "starts", "boodles")), seen
    assert "went out first" in seen["settled"]
    assert re.search(r"This deal: \w+ [+-]\d+, ", seen["settled"])  # the settlement: every seat's chips
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    match = MICHIGAN.match_from_record(session.match, players=4, options=MICHIGAN.parse_options({"ante_spread": True}))
    assert match.deals >= 4
    assert len(match.leaders) == 1
    seats = list(session.seats.order_by("position"))
    assert [seat.won for seat in seats] == [p == match.leaders[0] for p in range(4)]
    assert Seat.objects.filter(session=session, rating_after__isnull=False).count() == 4
    assert Standing.objects.filter(game="michigan", user=anna).count() == 1
    exports_replay(session)
    client = Client()
    profile = client.get(reverse("player", args=["anna"])).content.decode()
    assert "Michigan" in profile
    rules = client.get(reverse("rules", args=["michigan"])).content.decode()
    assert 'data-card="QD"' in rules  # the layout, drawn
    assert "Spread the ante" in rules


def test_three_friends_take_the_widow_or_buy_it_and_pay(make_user):
    anna, bo, cleo = make_user("anna"), make_user("bo"), make_user("cleo")
    session = table_with(anna, "michigan", {}, 3, people=((bo, 1), (cleo, 2)))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(8))
    seen = {"bought": False, "holds": False}

    def look(state, seat, html, table) -> None:
        if state.phase == "play" and state.to_act != seat and state.run >= 0:
            # Whom the table waits for, and why: the next card of the run is theirs.
            holder = Seat.objects.get(session=session, position=state.to_act).short_name
            wanted = CARDS[state.run + 1]
            assert table.prompt == f"{holder} holds the {card_short(wanted)}."
            seen["holds"] = True
        if state.phase == "bidding" and state.to_act == seat:
            labels = [choice.label for choice in table.choices]
            assert labels[0] == "Pass"
            assert labels[-1] == "10 chips"
        seen["bought"] |= "bought the widow for" in html

    play_to_the_end(session, {0: anna, 1: bo, 2: cleo}, random.Random(9), look)
    assert seen["holds"]
    assert seen["bought"]
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    exports_replay(session)
    page = Client().get(reverse("session", args=[session.pk])).content.decode()
    assert "chips" in page
    board = Client().get(reverse("leaderboard") + "?game=michigan").content.decode()
    assert all(name in board for name in ("anna", "bo", "cleo"))  # sessions among people: the main board


def test_a_forged_spread_or_a_card_out_of_turn_changes_nothing(make_user):
    anna, bo = make_user("anna"), make_user("bo")
    session = table_with(anna, "michigan", {"ante_spread": True}, 3, people=((bo, 1),), computers=(2,))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(1))
    services.computers_play_all(session_id=session.pk, rng=random.Random(1))
    session.refresh_from_db()
    state = current_deal(session)
    mover = Seat.objects.get(session=session, position=state.to_act).user
    other = bo if mover == anna else anna
    seq = session.seq
    with pytest.raises(services.IllegalCard) as refused:
        services.action_take(session_id=session.pk, user=mover, action="ante:9,0,0,0", seen_seq=seq)
    assert refused.value.code == "ante_spread"
    assert "add up to 8" in refused.value.message
    with pytest.raises(services.IllegalCard) as refused:
        services.action_take(session_id=session.pk, user=other, action="ante:2,2,2,2", seen_seq=seq)
    assert refused.value.code == "not_your_turn"
    session.refresh_from_db()
    assert session.seq == seq
    assert deal_state(session.deals.order_by("-number").first()) == state
    page = Client()
    page.force_login(mover)
    response = page.post(reverse("action_take", args=[session.pk]), {"move": "ante:1,1,1,1,4", "seq": seq}, follow=True)
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.seq == seq


def exports_replay(session) -> None:
    finished = [deal_state(deal) for deal in session.deals.order_by("number")]
    exported = session_export(session)
    assert len(exported) == len(finished)
    for record, state in zip(exported, finished, strict=True):
        assert replay(record)["result"] == state.result()
        dead = {CARDS[i] for i in range(52) if state.dead >> i & 1}
        assert not {card for hand in record["hands"] for card in hand} & dead
        assert not set(record["widow"]) & dead
    client = Client()
    for deal in Deal.objects.filter(session=session):
        state = deal_state(deal)
        dead = {CARDS[i] for i in range(52) if state.dead >> i & 1}
        moves = deal.plays.count()
        for step in (0, 1, moves // 2, moves):
            page = client.get(reverse("deal_replay", args=[deal.pk]) + f"?step={step}")
            assert page.status_code == 200
            # The boodles beside the table are cards of their own (A♥ K♣ Q♦ J♠ with chips), not the deal's.
            shown = re.sub(r'<p class="row-area boodles.*?</p>', "", page.content.decode(), flags=re.S)
            assert not set(re.findall(r'data-card="(\w\w)"', shown)) & dead
