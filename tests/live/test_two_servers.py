"""Two server processes sharing PostgreSQL and Redis: players on either one see each other's moves."""

from contextlib import ExitStack

import pytest

from games.stored import deal_state
from tests.servers import daphne, next_view, production_env, server_database_url, shared_services_or_skip, table_socket
from tests.site_helpers import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers


def start_servers(stack: ExitStack, tmp_path) -> list[str]:
    env = production_env(tmp_path, DATABASE_URL=server_database_url(tmp_path))
    return [stack.enter_context(daphne(env)) for _ in range(2)]


def test_players_on_two_processes_see_each_others_moves(players, tmp_path):
    shared_services_or_skip()
    session = started_table(players)
    with ExitStack() as stack:
        bases = start_servers(stack, tmp_path)
        clients = [
            stack.enter_context(table_socket(bases[seat % 2], session.pk, user)) for seat, user in enumerate(players)
        ]
        play_six_cards(session, clients, bases)


def play_six_cards(session, clients, bases) -> None:
    """Each move, made on one process, must reach the players connected to the other."""
    for client in clients:
        next_view(client, session.seq)
    for _ in range(6):
        session.refresh_from_db()
        state = deal_state(session.deals.order_by("-number").first())
        card = state.legal_cards()[0]
        mover = state.to_act
        clients[mover].send(f'{{"action": "play", "card": "{card}", "seq": {session.seq}}}')
        for seat, client in enumerate(clients):
            frame = next_view(client, session.seq + 1)
            assert f'data-card="{card}"' in frame, f"seat {seat} on {bases[seat % 2]} missed {card}"
