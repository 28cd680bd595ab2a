"""Play now: one click from the lobby to a table of the game, and a lobby that shows where to sit first."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.models import GameSession, Seat
from games.services import lobby
from tests.site_helpers import logged_in, table_with

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_play_now_takes_a_free_seat_at_the_fullest_open_table_of_that_game(players, make_user, clock):
    anna, bjorn, cecilia = players
    dora, erik = make_user("dora"), make_user("erik")
    emptier = table_with(bjorn, "femkort", {}, 4)
    clock.advance(5)
    fuller = table_with(cecilia, "femkort", {}, 4, people=[(dora, 1)])
    other_game = table_with(dora, "nap", {}, 3, people=[(bjorn, 1)])
    blitz = services.table_create(host=erik, seats=3, game="femkort", turn_seconds=15)
    services.seat_take(session_id=blitz.pk, user=cecilia)
    full = table_with(erik, "femkort", {}, 3, people=[(bjorn, 1)], computers=[2])
    over_days = services.table_create(host=dora, seats=3, game="femkort", pace_seconds=24 * 3600)
    services.seat_take(session_id=over_days.pk, user=erik)  # as full as the fuller one, but turn-based

    response = logged_in(anna).post(reverse("play_now"), {"game": "femkort"})
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[fuller.pk])
    assert Seat.objects.filter(session=fuller, user=anna).exists()
    for untouched in (emptier, other_game, blitz, full, over_days):
        assert not Seat.objects.filter(session=untouched, user=anna).exists()
    again = logged_in(anna).post(reverse("play_now"), {"game": "femkort"})  # a second click: the same table
    assert again["Location"] == reverse("table", args=[fuller.pk])


def test_play_now_with_no_open_table_starts_one_against_computers_at_once(players):
    anna = players[0]
    response = logged_in(anna).post(reverse("play_now"), {"game": "euchre", "contribution": "abc1"})
    session = GameSession.objects.get(host=anna)
    assert response["Location"] == reverse("table", args=[session.pk])
    assert session.status == GameSession.Status.PLAYING
    assert session.game == "euchre"
    seats = list(session.seats.order_by("position"))
    assert [seat.user_id for seat in seats] == [anna.pk, None, None, None]
    assert all(seat.computer for seat in seats[1:])
    assert session.deals.get(number=1).fair["contributions"][0] == "abc1"
    page = logged_in(anna).get(response["Location"]).content.decode()
    assert "data-my-turn" in page or "data-card" in page  # at the table, playing


def test_play_now_refuses_an_unknown_game_and_asks_to_log_in(players):
    response = logged_in(players[0]).post(reverse("play_now"), {"game": "poker"}, follow=True)
    assert "Unknown game" in response.content.decode()
    assert not GameSession.objects.exists()
    anonymous = Client().post(reverse("play_now"), {"game": "femkort"})
    assert anonymous.status_code == 302
    assert reverse("login") in anonymous["Location"]


def test_the_lobby_shows_open_tables_before_the_new_table_form_filtered_by_game(players, clock):
    femkort = table_with(players[0], "femkort", {}, 4)
    clock.advance(5)
    nap = table_with(players[1], "nap", {}, 3)
    clock.advance(5)
    services.seat_take(session_id=femkort.pk, user=players[2])  # the latest activity
    page = logged_in(players[2]).get(reverse("lobby")).content.decode()
    assert page.index("Play now") < page.index("Waiting for players") < page.index('action="/tables/new/"')
    assert page.index(f"/tables/{femkort.pk}/") < page.index(f"/tables/{nap.pk}/")  # newest activity first
    only_nap = Client().get(reverse("lobby") + "?game=nap").content.decode()
    assert f"/tables/{nap.pk}/" in only_nap
    assert f"/tables/{femkort.pk}/" not in only_nap
    assert "Show every game" in only_nap


def test_a_finished_table_offers_no_invitation_or_notification(players):
    from tests.site_helpers import play_session

    session = play_session(players, options={"target": 1})
    page = logged_in(players[0]).get(reverse("table", args=[session.pk])).content.decode()
    assert 'class="copy-invite"' not in page
    assert 'class="notify-me"' not in page
    waiting = table_with(players[0], "femkort", {}, 4)
    page = logged_in(players[0]).get(reverse("table", args=[waiting.pk])).content.decode()
    assert 'class="copy-invite"' in page


def test_a_full_table_whose_host_is_gone_can_be_started_by_anyone_seated(players, clock, settings):
    from games.models import Connection
    from tests.site_helpers import table_page

    settings.FEMKORT_HOST_GONE_SECONDS = 120
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 3, people=[(bjorn, 1), (cecilia, 2)])
    with pytest.raises(services.TableError, match="Only the host"):
        services.session_start(session_id=session.pk, user=bjorn)
    clock.advance(60)
    Seat.objects.filter(session=session, user=host).update(seen=clock.now)  # the host's page polled
    clock.advance(100)
    assert not table_page(session, bjorn)[1].can_start
    with pytest.raises(services.TableError, match="Only the host"):
        services.session_start(session_id=session.pk, user=bjorn)
    connection = Connection.objects.create(session=session, user=host, channel_name="a-socket")
    Connection.objects.filter(pk=connection.pk).update(seen=clock.now)
    clock.advance(30)
    assert not table_page(session, bjorn)[1].can_start  # still connected: not gone
    Connection.objects.all().delete()
    assert table_page(session, bjorn)[1].can_start
    assert 'class="start"' in logged_in(bjorn).get(reverse("table", args=[session.pk])).content.decode()
    started = services.session_start(session_id=session.pk, user=bjorn)
    assert started.status == GameSession.Status.PLAYING


def test_a_table_with_a_free_seat_waits_for_its_host_however_long(players, clock, settings):
    settings.FEMKORT_HOST_GONE_SECONDS = 120
    session = table_with(players[0], "femkort", {}, 4, people=[(players[1], 1), (players[2], 2)])
    clock.advance(600)
    with pytest.raises(services.TableError, match="Only the host"):
        services.session_start(session_id=session.pk, user=players[1])


def test_a_private_table_is_not_listed_and_is_found_by_its_link_or_code(players):
    host = logged_in(players[0])
    form = {"game": "femkort", "seats": 4, "target": 3, "turn_seconds": 0, "unlisted": "on"}
    response = host.post(reverse("table_create"), form)
    private = GameSession.objects.get()
    assert response["Location"] == reverse("table", args=[private.pk])
    assert private.unlisted
    assert len(private.code) == 6
    listed = table_with(players[1], "femkort", {}, 4)
    for listing in (Client().get(reverse("lobby")), Client().get(reverse("lobby") + "?game=femkort")):
        assert f"/tables/{private.pk}/" not in listing.content.decode()
        assert f"/tables/{listed.pk}/" in listing.content.decode()
    page = host.get(reverse("table", args=[private.pk])).content.decode()
    assert private.code in page
    found = Client().get(reverse("table_by_code"), {"code": private.code.lower()})
    assert found["Location"] == reverse("table", args=[private.pk])
    missing = Client().get(reverse("table_by_code"), {"code": "NOPE99"}, follow=True)
    assert "No table has that code" in missing.content.decode()
    joined = logged_in(players[2]).post(reverse("play_now"), {"game": "femkort"})
    assert joined["Location"] == reverse("table", args=[listed.pk])  # Play now never seats anyone at a private table
    assert listed.code is None


def clicks_at_once(users_and_games: list[tuple]) -> list[str]:
    """Play now pressed by each (user, game) at the same moment, as from several server processes:
    where each response sends its player."""
    start = threading.Barrier(len(users_and_games))
    sent_to: list[str] = [""] * len(users_and_games)

    def click(number: int, user, game: str) -> None:
        client = logged_in(user)
        start.wait()
        try:
            sent_to[number] = client.post(reverse("play_now"), {"game": game})["Location"]
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=click, args=(number, user, game)) for number, (user, game) in enumerate(users_and_games)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sent_to


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_play_now_pressed_three_times_at_once_gives_one_table(players):
    anna = players[0]
    sent_to = clicks_at_once([(anna, "euchre")] * 3)
    tables = GameSession.objects.filter(seats__user=anna)
    assert tables.count() == 1
    assert set(sent_to) == {reverse("table", args=[tables.get().pk])}
    assert tables.get().status == GameSession.Status.PLAYING


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_at_once_each_get_a_started_table_and_none_is_left_half_made(make_user):
    people = [make_user(f"player{number}") for number in range(4)]
    sent_to = clicks_at_once([(person, "nap") for person in people])
    assert all(url.startswith("/tables/") for url in sent_to), sent_to  # nobody is sent back to the lobby
    for person, url in zip(people, sent_to, strict=True):
        seat = Seat.objects.get(user=person)
        assert url == reverse("table", args=[seat.session_id])
        assert seat.session.status == GameSession.Status.PLAYING
    assert not GameSession.objects.filter(status=GameSession.Status.WAITING).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two transactions at once: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_table_play_now_is_making_is_not_offered_to_another_player_before_it_starts(players, monkeypatch):
    """The interleaving that stranded a player: bjorn presses Play now while anna's new table has
    its host seated but not yet its computers."""
    anna, bjorn, _ = players
    seats_filled = lobby.computer_add
    outcome: dict[str, str] = {}

    def bjorn_presses() -> None:
        try:
            outcome["bjorn"] = logged_in(bjorn).post(reverse("play_now"), {"game": "nap"})["Location"]
        finally:
            connections.close_all()

    def computer_add(**kwargs):
        if not outcome:  # anna's first computer: bjorn presses now (his own table's computers come after)
            outcome["pressing"] = ""
            other = threading.Thread(target=bjorn_presses)
            other.start()
            other.join()
        return seats_filled(**kwargs)

    monkeypatch.setattr(lobby, "computer_add", computer_add)
    response = logged_in(anna).post(reverse("play_now"), {"game": "nap"})
    annas, bjorns = Seat.objects.get(user=anna).session, Seat.objects.get(user=bjorn).session
    assert response["Location"] == reverse("table", args=[annas.pk])
    assert outcome["bjorn"] == reverse("table", args=[bjorns.pk])
    assert annas.pk != bjorns.pk
    assert annas.status == bjorns.status == GameSession.Status.PLAYING
