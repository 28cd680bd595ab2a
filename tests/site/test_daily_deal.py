"""The daily deal: the same cards for everyone from the same seat, the same computers, one try each,
scored by matchpoints, and nothing of it shown to anyone who has not played it."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.urls import reverse

from games import services
from games.bots import decide
from games.engine import GAMES, get_game
from games.engine.verify import verify, verify_each
from games.history import session_export
from games.models import Board, BoardResult, BoardTally, GameSession
from games.services import duplicate
from games.services.errors import TableError
from games.stored import deal_start, deal_state
from tests.site_helpers import logged_in, run_tasks

pytestmark = pytest.mark.django_db

FIRST_GAME = next(iter(GAMES))


def play_out(session: GameSession, user, choose) -> GameSession:
    """``user`` plays their seat to the end, each action as ``choose(state, seat)`` says."""
    while True:
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return session
        state = deal_state(session.deals.order_by("-number").first())
        services.action_take(session_id=session.pk, user=user, action=choose(state, state.to_act), seen_seq=session.seq)


def at_random(seed: int):
    rng = random.Random(seed)
    return lambda state, seat: rng.choice(state.legal_actions())


def today_event(game: str = FIRST_GAME):
    return duplicate.daily_event(game, duplicate.today())


def test_everyone_is_dealt_the_same_cards_from_the_same_seat(players):
    alice, bob = players[:2]
    event = today_event()
    first = services.event_play(user=alice, event_id=event.pk)
    second = services.event_play(user=bob, event_id=event.pk)
    deals = [session.deals.get() for session in (first, second)]
    starts = [deal_start(deal) for deal in deals]
    seat = duplicate.PLAYER_SEAT
    assert starts[0].view(seat).hand == starts[1].view(seat).hand
    assert deals[0].setup == deals[1].setup
    assert deals[0].dealer == deals[1].dealer
    assert first.seats.get(position=seat).user == alice
    assert second.seats.get(position=seat).user == bob
    assert {s.computer for s in first.seats.exclude(position=seat)} == {duplicate.COMPUTER_LEVEL}
    # The day before, the next day's commitment is already on show.
    tomorrow = duplicate.daily_event(FIRST_GAME, duplicate.today() + timedelta(days=1))
    assert tomorrow.boards.get().commitment != event.boards.get().commitment


@pytest.mark.django_db(transaction=True)  # a task worker closes its connections between tasks
def test_the_computers_decide_the_same_at_every_table(players):
    """Play Alice's seat as the strong computer would: the deal ends exactly as the board's reference."""
    alice = players[0]
    event = today_event()
    board = event.boards.get()
    assert not board.references
    assert run_tasks() == 0  # nobody has played it: no search yet

    def as_the_computer(state, seat):
        return decide("strong", state.view(seat), duplicate.computer_rng(session.deals.get(), seat, state))

    session = services.event_play(user=alice, event_id=event.pk)
    assert run_tasks() == 1  # its first player: the board's references are computed
    board.refresh_from_db()
    assert board.references
    play_out(session, alice, as_the_computer)
    actions = [[seat, action] for seat, action in session.deals.get().plays.values_list("seat", "action")]
    assert actions == board.computer_actions
    result = BoardResult.objects.get(board=board, user=alice)
    assert result.value == board.computer[str(duplicate.PLAYER_SEAT)]


def test_one_try_each_and_the_results_tally(players):
    alice, bob, carol = players[:3]
    event = today_event()
    for seed, user in enumerate((alice, bob, carol)):
        play_out(services.event_play(user=user, event_id=event.pk), user, at_random(seed))
    with pytest.raises(TableError) as refused:
        services.event_play(user=alice, event_id=event.pk)
    assert refused.value.code == "played"
    board = event.boards.get()
    values = sorted(BoardResult.objects.filter(board=board).values_list("value", flat=True))
    tallied = sorted(v for t in BoardTally.objects.filter(board=board) for v in [t.value] * t.count)
    assert values == tallied
    assert len(values) == 3
    assert GameSession.objects.filter(event=event, status=GameSession.Status.FINISHED).count() == 3


def test_leaving_counts_as_played(players):
    alice = players[0]
    event = today_event()
    session = services.event_play(user=alice, event_id=event.pk)
    services.session_leave(session_id=session.pk, user=alice)
    session.refresh_from_db()
    assert session.status == GameSession.Status.ABANDONED
    result = BoardResult.objects.get(user=alice)
    assert result.left
    assert result.value is None
    assert not BoardTally.objects.exists()  # the computer's play for her is nobody's result
    with pytest.raises(TableError):
        services.event_play(user=alice, event_id=event.pk)


def test_a_table_is_resumed_not_made_twice(players):
    alice = players[0]
    event = today_event()
    first = services.event_play(user=alice, event_id=event.pk)
    assert services.event_play(user=alice, event_id=event.pk) == first
    assert GameSession.objects.filter(event=event).count() == 1


@pytest.mark.django_db(transaction=True)
def test_clicks_at_once_make_one_table(players):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (SQLite serialises every write)")
    alice = players[0]
    event = today_event()
    made, barrier = [], threading.Barrier(4)

    def click():
        barrier.wait()
        try:
            made.append(services.event_play(user=alice, event_id=event.pk).pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 4
    assert len(set(made)) == 1
    assert BoardResult.objects.filter(user=alice).count() == 1


def test_nothing_of_the_deal_reaches_who_has_not_played_it(players, settings):
    alice, bob, carol = players[:3]
    event = today_event()
    session = play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(1))
    bobs = services.event_play(user=bob, event_id=event.pk)  # in play: not done with it yet
    deal = session.deals.get()
    pages = [
        reverse("table", args=[session.pk]),
        reverse("session", args=[session.pk]),
        reverse("session_export", args=[session.pk]),
        reverse("deal_replay", args=[deal.pk]),
        reverse("deal_review", args=[deal.pk]),
        reverse("deal_export", args=[deal.pk]),
        reverse("deal_verify") + f"?deal={deal.pk}",
    ]
    for user in (carol, bob):
        client = logged_in(user)
        for page in pages:
            assert client.get(page).status_code == 404, (user, page)
    alices = logged_in(alice)
    assert all(alices.get(page).status_code == 200 for page in pages)
    # Alice sees her deal, but not the seed: it would deal Bob's cards in front of him.
    seed = event.boards.get().seed
    assert seed not in alices.get(reverse("session_export", args=[session.pk])).content.decode()
    assert seed not in alices.get(reverse("deal_verify") + f"?deal={deal.pk}").content.decode()
    # Once Bob has played, he sees Alice's table too.
    play_out(bobs, bob, at_random(2))
    assert logged_in(bob).get(reverse("session", args=[session.pk])).status_code == 200


def test_the_seed_is_revealed_when_the_day_closes_and_every_deal_verifies(players, settings):
    alice, bob = players[:2]
    event = today_event()
    session = play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(3))
    bobs = services.event_play(user=bob, event_id=event.pk)
    export = session_export(session)
    assert "seed" not in export[0]["fair"]
    settings.FEMKORT_CLOCK_SHIFT_SECONDS = (event.reveals - duplicate.duplicate_now()).total_seconds() + 1
    assert not duplicate.revealed(event)  # Bob's table is still in play: a page ends nobody's table
    assert services.event_reveal(event.pk) == "revealed"  # the reveal's task does
    assert duplicate.revealed(event)
    bobs.refresh_from_db()
    assert bobs.status == GameSession.Status.ABANDONED  # still in play at the close: ended, counted as played
    assert BoardResult.objects.get(user=bob).left
    assert services.event_reveal(event.pk) == "revealed already"
    export = session_export(session)
    assert export[0]["fair"]["seed"] == event.boards.get().seed
    assert verify_each(export) == [[]]
    assert verify(export[0]) == []
    with pytest.raises(TableError) as refused:
        services.event_play(user=carol_of(players), event_id=event.pk)
    assert refused.value.code == "closed"
    carol = logged_in(carol_of(players))
    assert carol.get(reverse("session", args=[session.pk])).status_code == 200  # everything is public now


def carol_of(players):
    return players[2]


@pytest.mark.parametrize("game", [name for name, rules in GAMES.items() if rules.on_site])
def test_every_game_has_a_daily_deal_that_plays_to_its_end(players, game, monkeypatch):
    monkeypatch.setattr(duplicate, "PAR_NODES", 5_000)  # par or "too large" alike: a quick search here
    alice = players[0]
    event = today_event(game)
    assert event.players in get_game(game).seat_counts
    session = play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(4))
    assert session.status == GameSession.Status.FINISHED
    assert session.deals.count() >= 1
    assert BoardResult.objects.get(user=alice).value is not None
    board = Board.objects.get(event=event)
    services.references_compute(board.pk)  # what its queued task does
    board.refresh_from_db()
    assert board.references
    assert set(board.computer) == {str(seat) for seat in range(event.players)}


def test_an_event_table_waits_for_its_player_and_then_links_the_results(players, clock):
    """Nobody stands in for a person away from their own try: it waits (until the event closes)."""
    alice = players[0]
    event = today_event()
    session = services.event_play(user=alice, event_id=event.pk)
    services.computers_play_all(session_id=session.pk)
    session.refresh_from_db()
    assert session.to_act == duplicate.PLAYER_SEAT
    assert session.due is None
    clock.advance(3600)
    services.turn_check(session_id=session.pk, seen_seq=session.seq)
    session.refresh_from_db()
    seat = session.seats.get(user=alice)
    assert session.status == GameSession.Status.PLAYING
    assert not seat.stand_in
    with pytest.raises(TableError):
        services.session_rematch(session_id=play_out(session, alice, at_random(5)).pk, user=alice)
    page = logged_in(alice).get(reverse("table", args=[session.pk])).content.decode()
    assert reverse("event", args=[event.pk]) in page
    assert "Play again" not in page


def test_an_event_table_offers_no_link_to_share(players):
    """Its address opens nothing for anyone else: no "Invite" button copies it."""
    alice = players[0]
    session = services.event_play(user=alice, event_id=today_event().pk)
    page = logged_in(alice).get(reverse("table", args=[session.pk])).content.decode()
    assert 'class="copy-invite"' not in page
    assert "To invite players" not in page
