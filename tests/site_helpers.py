"""Playing whole sessions through the service layer, for history and leaderboard tests."""

from __future__ import annotations

import random

from games import services
from games.engine.tricks.deal import ACTION_WORDS
from games.models import GameSession, Seat
from games.records import deal_state


def started_table(
    users, *, computers: int = 0, target: int = 3, game: str | None = None, options: dict | None = None
) -> GameSession:
    """A table for ``users`` (the first hosts) and ``computers`` medium computer players, started."""
    host = users[0]
    options = {"target": target} if options is None else options
    session = services.table_create(host=host, seats=len(users) + computers, game=game, options=options)
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
