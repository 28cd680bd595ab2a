"""The service layer: creating tables, seats, starting, playing cards through the rules."""

import itertools

import pytest

from games import services
from games.models import Deal, GameSession, Play, Seat
from games.stored import deal_state

pytestmark = pytest.mark.django_db


def open_table(host, seats=3, **options):
    return services.table_create(host=host, seats=seats, options=options or None)


def started(players, **options):
    session = open_table(players[0], seats=len(players), **options)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    return services.session_start(session_id=session.pk, user=players[0])


def current(session):
    session.refresh_from_db()
    deal = session.deals.order_by("-number").first()
    return deal, deal_state(deal)


def play_legal(session, players, *, pick=0):
    """The seat to act plays its ``pick``-th legal card through the service."""
    _deal, state = current(session)
    user = Seat.objects.get(session=session, position=state.to_act).user
    card = state.legal_cards()[pick % len(state.legal_cards())]
    return services.action_take(session_id=session.pk, user=user, action=card, seen_seq=session.seq)


@pytest.mark.parametrize("seats", [2, 11, 0])
def test_table_size_must_be_three_to_ten(players, seats):
    with pytest.raises(services.TableError):
        open_table(players[0], seats=seats)


def test_bad_options_are_refused(players):
    with pytest.raises(services.TableError):
        open_table(players[0], profile="ancient")


def test_table_stores_every_option_with_defaults(players):
    session = open_table(players[0], seats=4)
    assert session.options == {
        "profile": "modern",
        "trump": False,
        "pot": False,
        "stack": 10,
        "target": 3,
        "redeal": False,
    }
    assert [s.position for s in session.seats.all()] == [0, 1, 2, 3]
    assert session.seats.get(position=0).user == players[0]


def test_join_leave_and_full_table(players, make_user):
    session = open_table(players[0], seats=3)
    services.seat_take(session_id=session.pk, user=players[1])
    with pytest.raises(services.TableError, match="already"):
        services.seat_take(session_id=session.pk, user=players[1])
    services.seat_take(session_id=session.pk, user=players[2])
    with pytest.raises(services.TableError) as full:
        services.seat_take(session_id=session.pk, user=make_user("dagny"))
    assert full.value.code == "full"
    services.seat_leave(session_id=session.pk, user=players[2])
    assert not Seat.objects.filter(session=session, user=players[2]).exists()
    with pytest.raises(services.NotSeated):
        services.seat_leave(session_id=session.pk, user=players[2])


def test_only_the_host_adds_computers_and_starts(players):
    session = open_table(players[0], seats=4)
    services.seat_take(session_id=session.pk, user=players[1])
    with pytest.raises(services.TableError) as refused:
        services.computer_add(session_id=session.pk, user=players[1])
    assert refused.value.code == "not_host"
    with pytest.raises(services.TableError) as too_few:
        services.session_start(session_id=session.pk, user=players[0])
    assert too_few.value.code == "too_few"
    services.computer_add(session_id=session.pk, user=players[0], position=3)
    with pytest.raises(services.TableError):
        services.session_start(session_id=session.pk, user=players[1])
    session = services.session_start(session_id=session.pk, user=players[0])
    assert session.status == GameSession.Status.PLAYING
    # The empty seat 2 was closed; the computer moved up to position 2.
    assert session.seat_count == 3
    assert list(session.seats.values_list("position", "computer")) == [(0, ""), (1, ""), (2, "medium")]


def test_cannot_join_after_the_start(players, make_user):
    session = started(players)
    with pytest.raises(services.TableError) as refused:
        services.seat_take(session_id=session.pk, user=make_user("dagny"))
    assert refused.value.code == "not_waiting"


def test_start_deals_five_cards_each_from_a_random_dealer(players):
    session = started(players)
    deal = Deal.objects.get(session=session)
    assert deal.number == 1
    assert all(len(hand) == 5 for hand in deal.setup["hands"])
    assert len({card for hand in deal.setup["hands"] for card in hand}) == 15
    assert session.match["dealer"] == deal.dealer


def test_action_take_goes_through_the_rules(players):
    session = started(players)
    deal, state = current(session)
    seat = Seat.objects.get(session=session, position=state.to_act)
    hand = state.hand(state.to_act)
    session = services.action_take(session_id=session.pk, user=seat.user, action=hand[0], seen_seq=session.seq)
    _, after = current(session)
    assert after.plays == [hand[0]]
    assert Play.objects.get(deal=deal).action == hand[0]


def test_illegal_card_names_the_rule_and_changes_nothing(players):
    session = started(players)
    # Play leads until a follower holds a card that breaks a rule.
    for _ in range(200):
        _deal, state = current(session)
        seat = state.to_act
        if state.trick.cards:
            illegal = [c for c in state.hand(seat) if c not in state.legal_cards()]
            if illegal:
                user = Seat.objects.get(session=session, position=seat).user
                before = (session.seq, Play.objects.count())
                with pytest.raises(services.IllegalCard) as broken:
                    services.action_take(session_id=session.pk, user=user, action=illegal[0], seen_seq=session.seq)
                assert broken.value.rule in {"must_follow", "must_overtake"}
                assert "You must" in broken.value.message
                session.refresh_from_db()
                assert (session.seq, Play.objects.count()) == before
                return
        session = play_legal(session, players)
        if session.status != GameSession.Status.PLAYING:
            session = started(players)
    pytest.fail("no position with an illegal card was reached")


def test_stale_sequence_and_double_click_change_nothing(players):
    session = started(players)
    deal, state = current(session)
    user = Seat.objects.get(session=session, position=state.to_act).user
    card = state.legal_cards()[0]
    seen = session.seq
    services.action_take(session_id=session.pk, user=user, action=card, seen_seq=seen)
    with pytest.raises(services.StaleMove) as stale:
        services.action_take(session_id=session.pk, user=user, action=card, seen_seq=seen)
    session.refresh_from_db()
    assert stale.value.seq == session.seq
    assert Play.objects.filter(deal=deal).count() == 1


def test_out_of_turn_and_not_seated(players, make_user):
    session = started(players)
    _, state = current(session)
    waiting = next(s for s in range(3) if s != state.to_act)
    user = Seat.objects.get(session=session, position=waiting).user
    with pytest.raises(services.IllegalCard) as out_of_turn:
        services.action_take(session_id=session.pk, user=user, action=state.hand(waiting)[0], seen_seq=session.seq)
    assert out_of_turn.value.rule == "not_your_turn"
    with pytest.raises(services.NotSeated):
        services.action_take(session_id=session.pk, user=make_user("eve"), action="AS", seen_seq=session.seq)
    assert Play.objects.count() == 0


def test_a_session_ends_at_exactly_three_wins_with_the_right_winner(players):
    session = started(players)
    while session.status == GameSession.Status.PLAYING:
        session = play_legal(session, players, pick=session.seq)
    session.refresh_from_db()
    wins = dict(enumerate(session.match["wins"]))
    assert session.status == GameSession.Status.FINISHED
    assert wins[session.winner.position] == 3
    assert sorted(wins.values())[-2] < 3
    deals = list(session.deals.order_by("number"))
    assert sum(wins.values()) == len(deals)
    for seat, won in wins.items():
        assert sum(deal.winner == seat for deal in deals) == won
    # The dealer moves one seat clockwise every deal.
    assert all(b.dealer == (a.dealer + 1) % 3 for a, b in itertools.pairwise(deals))
    # Every stored deal replays to its stored result.
    for deal in deals:
        assert deal_state(deal).winner == deal.winner
    with pytest.raises(services.TableError) as over:
        services.action_take(
            session_id=session.pk, user=players[0], action=deals[-1].setup["hands"][0][0], seen_seq=session.seq
        )
    assert over.value.code == "not_playing"


def test_computer_players_act_at_once(players):
    host = players[0]
    session = open_table(host, seats=4)
    for position in (1, 2, 3):
        services.computer_add(session_id=session.pk, user=host, position=position)
    session = services.session_start(session_id=session.pk, user=host)
    services.computers_play_all(session_id=session.pk)
    _, state = current(session)
    assert state.to_act == 0  # the computers played up to the human's turn
    while session.status == GameSession.Status.PLAYING:
        session = play_legal(session, players)
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        _, state = current(session) if session.status == GameSession.Status.PLAYING else (None, None)
        assert state is None or state.to_act == 0
    assert session.status == GameSession.Status.FINISHED
    assert max(session.match["wins"]) == 3


def test_abandon(players):
    session = started(players)
    session = services.session_abandon(session_id=session.pk)
    assert session.status == GameSession.Status.ABANDONED
    with pytest.raises(services.TableError):
        play_legal(session, players)


def test_host_closes_a_waiting_table_but_not_one_in_play(players):
    session = open_table(players[0])
    with pytest.raises(services.TableError):
        services.session_abandon(session_id=session.pk, user=players[1])
    closed = services.session_abandon(session_id=session.pk, user=players[0])
    assert closed.status == GameSession.Status.CLOSED
    playing = started(players)
    with pytest.raises(services.TableError):
        services.session_abandon(session_id=playing.pk, user=players[0])


def waiting_on_a_computer(players):
    """A started table (one person, two computers) where a computer is to act."""
    host = players[0]
    session = open_table(host, seats=3)
    for position in (1, 2):
        services.computer_add(session_id=session.pk, user=host, position=position)
    session = services.session_start(session_id=session.pk, user=host)
    _, state = current(session)
    while state.to_act == 0:
        session = play_legal(session, players)
        _, state = current(session)
    return session


def test_a_computer_turn_is_played_once_for_one_sequence_number(players):
    session = waiting_on_a_computer(players)
    seen = session.seq
    before = Play.objects.count()
    assert services.computer_turn(session_id=session.pk, seen_seq=seen)
    assert not services.computer_turn(session_id=session.pk, seen_seq=seen)
    assert Play.objects.count() == before + 1


def test_computer_turn_does_nothing_on_a_humans_turn(players):
    session = started(players)
    assert not services.computer_turn(session_id=session.pk)


def test_a_restart_resumes_tables_waiting_on_a_computer(players):
    from django.core.management import call_command

    session = waiting_on_a_computer(players)
    call_command("computers_resume")
    _, state = current(session)
    assert state.to_act == 0
