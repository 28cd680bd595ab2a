"""Playing whole sessions through the service layer, for history and leaderboard tests."""

from __future__ import annotations

import random

from django.test import Client
from django.urls import reverse

from games import services
from games.engine.tricks.deal import ACTION_WORDS
from games.models import GameSession, Seat
from games.records import deal_state
from games.selectors import table_snapshot, table_view
from games.table_html import table_html


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


def table_with(host, game: str, options: dict, seats: int, people=(), computers=()) -> GameSession:
    """A waiting table of ``game`` with ``people`` (user, position) seated and easy computers at ``computers``."""
    session = services.table_create(host=host, seats=seats, game=game, options=options)
    for user, position in people:
        services.seat_take(session_id=session.pk, user=user, position=position)
    for position in computers:
        services.computer_add(session_id=session.pk, user=host, position=position, level="easy")
    return session


def table_page(session: GameSession, user) -> tuple[str, object]:
    """The table as ``user`` sees it: its HTML and the view it was rendered from."""
    table = table_view(table_snapshot(session.pk), user)
    return table_html(table), table


def current_deal(session: GameSession):
    return deal_state(session.deals.order_by("-number").first())
