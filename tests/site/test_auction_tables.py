"""Nap and Euchre on the site: bids and calls as buttons with their meaning, partnerships,
seats sitting out, the hidden discard, results, ratings and exports."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_game
from games.engine.cards import INDEX
from games.engine.records import replay
from games.engine.tricks.deal import ACTION_WORDS
from games.history import replay_at, session_export
from games.models import Deal, GameSession, Seat, Standing
from games.stored import deal_state
from tests.site_helpers import current_deal, table_page, table_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def test_a_nap_table_for_four_with_three_computers_bids_plays_and_settles_in_chips(make_user):
    anna = make_user("anna")
    rng = random.Random(3)
    session = table_with(anna, "nap", {"rounds": 1}, 4, computers=(1, 2, 3))
    session = services.session_start(session_id=session.pk, user=anna, rng=rng)
    bids_seen = refused = 0
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            break
        state = current_deal(session)
        html, table = table_page(session, anna)
        if state.trick is None:  # anna's bid: a button for exactly each legal action, with its meaning
            bids_seen += 1
            assert [choice.action for choice in table.choices] == state.legal_actions()
            assert all(choice.label for choice in table.choices)
            assert all(choice.meaning for choice in table.choices if choice.action != "pass")
            assert "how many of the five tricks" in table.prompt or table.prompt.startswith("Nothing higher")
            for choice in table.choices:
                assert f'value="{choice.action}"' in html
            with pytest.raises(services.TableError) as error:
                services.action_take(session_id=session.pk, user=anna, action=state.hand(0)[0], seen_seq=session.seq)
            assert error.value.code == "bidding_first"
            assert "The bidding comes first" in error.value.message
            refused += 1
            session.refresh_from_db()
            assert current_deal(session).calls == state.calls  # nothing changed
            action = rng.choice([choice.action for choice in table.choices])
        else:
            assert not table.choices
            action = rng.choice(state.legal_cards())
        services.action_take(session_id=session.pk, user=anna, action=action, seen_seq=session.seq, rng=rng)
    assert bids_seen
    assert refused
    match = get_game("nap").match_from_record(session.match, players=4, options=get_game("nap").parse_options({}))
    assert sum(match.chips) == 0
    seats = list(session.seats.order_by("position"))
    best = max(match.chips)
    if match.chips.count(best) == 1:
        assert [seat.won for seat in seats] == [chips == best for chips in match.chips]
    for record in session_export(session):
        assert replay(record)["result"] is not None  # every finished deal replays, thrown-in ones too
    client = Client()
    assert client.get(reverse("session", args=[session.pk])).status_code == 200
    for deal in session.deals.all():
        moves = deal.plays.count()
        for step in (0, moves // 2, moves):
            page = client.get(reverse("deal_replay", args=[deal.pk]) + f"?step={step}")
            assert page.status_code == 200


def test_nap_bids_are_announced_and_the_contract_stays_in_the_header(make_user):
    anna, bo = make_user("anna"), make_user("bo")
    session = table_with(anna, "nap", {}, 3, people=((bo, 1),), computers=(2,))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(1))
    rng = random.Random(5)
    while current_deal(session).trick is None:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        state = current_deal(session)
        if state.trick is not None or state.is_over:
            break
        user = Seat.objects.get(session=session, position=state.to_act).user
        bid = "bid:2" if "bid:2" in state.legal_actions() else "pass"
        services.action_take(session_id=session.pk, user=user, action=bid, seen_seq=session.seq)
        session.refresh_from_db()
    state = current_deal(session)
    html, table = table_page(session, anna)
    assert len(table.header.bidding) == len(state.calls) == 3
    if state.contract is not None:
        bidder, bid = state.contract
        name = Seat.objects.get(session=session, position=bidder).short_name
        assert any(name in line and "must take" in line for line in table.header.contract), (name, table.header)
    assert 'class="bidding"' in html


def test_a_bid_lower_than_the_highest_is_refused_and_changes_nothing(make_user):
    anna, bo, cleo = make_user("anna"), make_user("bo"), make_user("cleo")
    session = table_with(anna, "nap", {}, 3, people=((bo, 1), (cleo, 2)))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(2))
    state = current_deal(session)
    first = Seat.objects.get(session=session, position=state.to_act).user
    services.action_take(session_id=session.pk, user=first, action="bid:3", seen_seq=session.seq)
    session.refresh_from_db()
    second = Seat.objects.get(session=session, position=current_deal(session).to_act).user
    with pytest.raises(services.TableError) as error:
        services.action_take(session_id=session.pk, user=second, action="bid:2", seen_seq=session.seq)
    assert error.value.code == "bid_too_low"
    with pytest.raises(services.TableError) as error:
        services.action_take(session_id=session.pk, user=second, action="wellington", seen_seq=session.seq)
    assert error.value.message == "That is not one of your choices now."
    session.refresh_from_db()
    assert current_deal(session).calls == ("bid:3",)


def test_the_play_form_takes_action_words_and_refuses_garbage(make_user):
    anna, bo, cleo = make_user("anna"), make_user("bo"), make_user("cleo")
    session = table_with(anna, "nap", {}, 3, people=((bo, 1), (cleo, 2)))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(2))
    user = Seat.objects.get(session=session, position=current_deal(session).to_act).user
    client = Client()
    client.force_login(user)
    url = reverse("action_take", args=[session.pk])
    bad = client.post(url, {"card": "<b>bid</b>", "seq": session.seq}, headers={"HX-Request": "true"})
    assert bad.status_code == 400
    assert "not understood" in bad.content.decode()
    good = client.post(url, {"card": "bid:1", "seq": session.seq}, headers={"HX-Request": "true"})
    assert good.status_code == 200
    assert current_deal(session).calls == ("bid:1",)


def _euchre(make_user, seed: int):
    anna, bo = make_user("anna"), make_user("bo")
    session = table_with(anna, "euchre", {}, 4, people=((bo, 2),), computers=(1, 3))
    return anna, bo, services.session_start(session_id=session.pk, user=anna, rng=random.Random(seed))


def _hidden_from(state, seat: int) -> set[str]:
    """Cards ``seat`` may not see now: other hands (the upcard aside: it was face up) and the discard."""
    hidden = {card for other in range(4) if other != seat for card in state.hand(other)}
    if seat != state.dealer:
        hidden |= {call[8:] for call in state.calls if call.startswith("discard:")}
    return hidden - {state.upcard}


@pytest.mark.parametrize("seed", [1, 2])
def test_euchre_with_a_friend_as_partner_against_two_computers(make_user, seed):
    anna, bo, session = _euchre(make_user, seed)
    rng = random.Random(seed)
    people = {0: anna, 2: bo}
    saw_alone = False
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            break
        state = current_deal(session)
        for seat, user in people.items():
            html, table = table_page(session, user)
            for card in _hidden_from(state, seat):
                assert f'data-card="{card}"' not in html
                assert f"discard:{card}" not in html
            panels = {panel.position: panel for panel in table.seats}
            assert panels[0].partner == "bo"
            assert panels[2].partner == "anna"
            assert panels[0].team == panels[2].team != panels[1].team == panels[3].team
            out = [p for p in range(4) if p not in state.seats]
            assert [p.position for p in table.seats if p.sitting_out] == out
            assert all(p.hand_size == 0 for p in table.seats if p.sitting_out)  # not even how many
            if out:
                saw_alone = True
                assert "sitting-out" in html
            assert any("anna and bo" in line for line in table.header.standing)
        user = people[state.to_act]
        html, table = table_page(session, user)
        legal = state.legal_actions()
        if state.trick is None:
            # A button for each, but the dealer's discard: a tap on the card in the hand.
            tapped = [card.action for card in table.hand if card.action]
            assert sorted([choice.action for choice in table.choices] + tapped) == sorted(legal)
            if "order" in legal:
                order = next(c for c in table.choices if c.action == "order")
                suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[state.upcard[1]]
                assert suit in order.label + order.meaning  # "Order up hearts", "Pick up the J♥: …hearts"
            # Make trump and go alone whenever one may: the partner then sits out.
            wanted = [a for a in legal if a in ("order", "alone") or a.startswith("call:")]
            action = wanted[0] if wanted else rng.choice(legal)
        else:
            action = rng.choice(legal)
        services.action_take(session_id=session.pk, user=user, action=action, seen_seq=session.seq, rng=rng)
    assert saw_alone
    rules = get_game("euchre")
    match = rules.match_from_record(session.match, players=4, options=rules.parse_options({}))
    seats = list(session.seats.order_by("position"))
    winners = set(match.winners)
    assert winners in ({0, 2}, {1, 3})
    assert [seat.won for seat in seats] == [position in winners for position in range(4)]
    assert session.winner_id is None
    standings = {s.user_id: s for s in Standing.objects.filter(game="euchre", user__isnull=False)}
    assert standings[anna.pk].sessions_won == standings[bo.pk].sessions_won == int(0 in winners)
    moved = [standings[user.pk].mu - 25 for user in (anna, bo)]  # openskill starts everyone at 25
    assert all(m > 0 for m in moved) if 0 in winners else all(m < 0 for m in moved)
    finished = [deal_state(deal) for deal in session.deals.order_by("number")]
    for record, state in zip(session_export(session), finished, strict=True):
        assert replay(record)["result"] == rules.replay_outcome(None, state)["result"]
        discards = [call for call in record["actions"] if call.startswith("discard")]
        if state.dealer not in state.seats and discards:
            assert discards == ["discard"]  # the dealer sat out: nobody ever sees the card
        for seat in range(4):  # a hand that sat the deal out was never seen: the export shows none
            assert record["hands"][seat] == ([] if seat not in state.seats else list(state.dealt[seat]))
    client = Client()
    page = client.get(reverse("session", args=[session.pk])).content.decode()
    assert "win the session as partners" in page
    for deal in Deal.objects.filter(session=session):
        state = deal_state(deal)
        for step in range(deal.plays.count() + 1):
            assert client.get(reverse("deal_replay", args=[deal.pk]) + f"?step={step}").status_code == 200
            shown = replay_at(deal, step)
            for seat in range(4):  # a seat that sat out: not even before the first lead
                assert not shown.seats[seat].hand if seat not in state.seats else shown.seats[seat].hand or step


def test_only_action_words_and_cards_are_choices(make_user):
    anna, bo, session = _euchre(make_user, 4)
    current_deal(session)
    for user in (anna, bo):
        _, table = table_page(session, user)
        for choice in table.choices:
            assert choice.action not in INDEX
            assert choice.action not in ACTION_WORDS


def test_a_discard_without_its_card_is_refused_at_the_table_and_the_upcard_leaves_the_header(make_user):
    people = [make_user(name) for name in ("anna", "bo", "cleo", "dag")]
    session = table_with(people[0], "euchre", {}, 4, people=[(user, seat) for seat, user in enumerate(people) if seat])
    session = services.session_start(session_id=session.pk, user=people[0], rng=random.Random(8))
    state = current_deal(session)
    assert table_page(session, people[0])[1].header.upcard.card == state.upcard  # round one: face up
    services.action_take(session_id=session.pk, user=people[state.to_act], action="order", seen_seq=session.seq)
    session.refresh_from_db()
    state = current_deal(session)
    assert state.to_act == state.dealer
    assert table_page(session, people[0])[1].header.upcard is None  # in the dealer's hand now
    with pytest.raises(services.TableError) as error:  # only a replayed record may hide its discard
        services.action_take(session_id=session.pk, user=people[state.dealer], action="discard", seen_seq=session.seq)
    assert error.value.code == "not_now"
    session.refresh_from_db()
    assert current_deal(session).calls == state.calls


def test_nap_for_two_opens_starts_and_plays_to_the_end(make_user):
    anna = make_user("anna")
    session = table_with(anna, "nap", {"rounds": 1}, 2, computers=(1,))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(4))
    rng = random.Random(4)
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            break
        action = rng.choice(current_deal(session).legal_actions())
        services.action_take(session_id=session.pk, user=anna, action=action, seen_seq=session.seq, rng=rng)
    assert session.seat_count == 2
    assert session.status == GameSession.Status.FINISHED
