"""Playing whole sessions through the service layer, for history and leaderboard tests."""

from __future__ import annotations

import random
from datetime import timedelta

from django.test import Client
from django.urls import reverse

from games import services
from games.engine.records import replay
from games.engine.tricks.deal import ACTION_WORDS
from games.engine.verify import verify
from games.history import session_export
from games.models import Deal, GameSession, Seat
from games.selectors import table_snapshot, table_view
from games.stored import deal_state
from games.table_html import table_html
from games.task_queue import TaskWorker


def logged_in(user) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def started_table(
    users,
    *,
    computers: int = 0,
    target: int = 3,
    game: str | None = None,
    options: dict | None = None,
    pace_seconds: int = 0,
) -> GameSession:
    """A table for ``users`` (the first hosts) and ``computers`` medium computer players, started
    (turn-based with ``pace_seconds``)."""
    host = users[0]
    options = {"target": target} if options is None else options
    session = services.table_create(
        host=host, seats=len(users) + computers, game=game, options=options, pace_seconds=pace_seconds
    )
    for user in users[1:]:
        services.seat_take(session_id=session.pk, user=user)
    for position in range(len(users), len(users) + computers):
        services.computer_add(session_id=session.pk, user=host, position=position)
    return services.session_start(session_id=session.pk, user=host)


def play_session(
    users, *, computers: int = 0, seed: int = 0, game: str | None = None, options: dict | None = None
) -> GameSession:
    """Open a table for ``users`` (+ computers), start it and play it to the end with random legal cards."""
    rng = random.Random(seed)
    host = users[0]
    session = services.table_create(host=host, seats=len(users) + computers, game=game, options=options)
    for user in users[1:]:
        services.seat_take(session_id=session.pk, user=user)
    for position in range(len(users), len(users) + computers):
        services.computer_add(session_id=session.pk, user=host, position=position, level="easy")
    session = services.session_start(session_id=session.pk, user=host)
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return session
        state = deal_state(session.deals.order_by("-number").first())
        user = Seat.objects.get(session=session, position=state.to_act).user
        card = rng.choice([action for action in state.legal_actions() if action not in ACTION_WORDS])
        services.action_take(session_id=session.pk, user=user, action=card, seen_seq=session.seq)


def open_from_the_lobby(players, game: str, form: dict) -> GameSession:
    """A table of ``game`` opened from the lobby's form by the first player, the others seated, started."""
    host = Client()
    host.force_login(players[0])
    lobby = host.get(reverse("lobby") + f"?game={game}").content.decode()
    assert f'name="game" value="{game}"' in lobby
    response = host.post(reverse("table_create"), {"game": game, "seats": len(players), **form})
    assert response.status_code == 302, response.content.decode()[:2000]
    session = GameSession.objects.get()
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    host.post(reverse("session_start", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.PLAYING
    return session


def history_pages(session: GameSession, step: int) -> dict:
    """What a visitor gets of a finished session: its page, its export, its first deal's replay at
    ``step`` and the game's leaderboard."""
    visitor = Client()
    page = visitor.get(reverse("session", args=[session.pk])).content.decode()
    exported = visitor.get(reverse("session_export", args=[session.pk])).json()
    deal = session.deals.order_by("number").first()
    replayed = visitor.get(reverse("deal_replay", args=[deal.pk]) + f"?step={step}")
    board = visitor.get(reverse("leaderboard") + f"?game={session.game}").content.decode()
    return {"page": page, "exported": exported, "replay": replayed.status_code, "board": board}


def table_with(host, game: str, options: dict, seats: int, people=(), computers=(), level="easy") -> GameSession:
    """A waiting table of ``game`` with ``people`` (user, position) seated and computers at ``computers``."""
    session = services.table_create(host=host, seats=seats, game=game, options=options)
    for user, position in people:
        services.seat_take(session_id=session.pk, user=user, position=position)
    for position in computers:
        services.computer_add(session_id=session.pk, user=host, position=position, level=level)
    return session


def table_page(session: GameSession, user) -> tuple[str, object]:
    """The table as ``user`` sees it: its HTML and the view it was rendered from."""
    table = table_view(table_snapshot(session.pk), user)
    return table_html(table), table


def current_deal(session: GameSession):
    return deal_state(session.deals.order_by("-number").first())


def hidden_from(state, seat: int) -> set[str]:
    """What ``seat`` may not see: other hands, other seats' discards and cards taken, and the stock
    not turned up (the seat's own cards, played cards, turn-ups and an upcard aside)."""
    hidden = {card for other in range(state.players) if other != seat for card in state.hand(other)}
    hidden |= {call.split(":")[1] for call in state.calls if call.startswith(("discard:", "take:"))}
    hidden |= set(state.stock)
    own = set(state.hand(seat)) | set(state.dealt[seat])
    own |= {
        call.split(":")[1] for call, who in zip(state.calls, state.callers, strict=True) if who == seat and ":" in call
    }
    played = {card for trick in (*state.tricks, state.trick) if trick for card in trick.cards}
    public = set(getattr(state.contract, "turned", ())) | ({state.upcard} if state.upcard else set())
    return hidden - own - played - public


def play_to_the_end(session, people: dict, rng: random.Random, look=None, choose=None) -> None:
    """Every person acts by a button or card their page offers until the session is over; each page
    shows no card its viewer may not see, and a button for exactly each legal action. A person
    acts at random, or as ``choose(state, rng)`` says (random bids may keep a session from ending)."""
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return
        state = current_deal(session)
        for seat, user in people.items():
            html, table = table_page(session, user)
            for card in hidden_from(state, seat):
                assert f'data-card="{card}"' not in html
                assert f"discard:{card}" not in html
            if look:
                look(state, html, table)
        user = people[state.to_act]
        html, table = table_page(session, user)
        legal = state.legal_actions()
        buttons = {choice.action for choice in table.choices} | {card.action for card in table.hand if card.action}
        marking = table.marking
        if state.trick is None:
            # A button (or a card of the hand to tap) for each legal action, but those taken by marking
            # a card of the hand (one each) and the one button after them.
            offered = buttons | ({marking.action} if marking else set())
            assert len(legal) == len(offered) + (len(marking.cards) if marking else 0)
            assert offered <= set(legal)
            assert all(choice.label for choice in table.choices)
        else:
            assert not table.choices
            assert {card.card for card in table.hand if card.legal} == set(legal)
        action = rng.choice(legal) if choose is None else choose(state, rng)
        marked = []
        if marking is not None and action not in buttons:  # the draw: mark a few cards, then draw
            marked = rng.sample(sorted(marking.cards), rng.randint(0, min(3, marking.most)))
            action = marking.action
        services.action_take(
            session_id=session.pk, user=user, action=action, seen_seq=session.seq, marked=marked, rng=rng
        )


def exports_replay(session, rules) -> None:
    finished = [deal_state(deal) for deal in session.deals.order_by("number")]
    for record, state in zip(session_export(session), finished, strict=True):
        assert replay(record)["result"] == rules.replay_outcome(None, state)["result"]
        if "fair" in record:  # dealt from a committed seed (not a test's seeded generator): it verifies
            assert verify(record) == []
    client = Client()
    assert client.get(reverse("session", args=[session.pk])).status_code == 200
    for deal in Deal.objects.filter(session=session):
        moves = deal.plays.count()
        for step in (0, moves // 2, moves):
            assert client.get(reverse("deal_replay", args=[deal.pk]) + f"?step={step}").status_code == 200


TASK_LEASE = timedelta(minutes=10)


def run_tasks() -> int:
    """Run every ready task here, as ``manage.py tasks_worker --batch`` does; how many were taken up."""
    worker = TaskWorker(
        lease=TASK_LEASE,
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test",
        excluded_queue_names=[],
    )
    worker.run()
    return worker._run_tasks
