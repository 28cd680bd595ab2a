"""The duplicate pages: the daily deal's results with matchpoints and references, nothing of it
for who has not played, the day's export verified once revealed, events' live standings, two
tables of the same deals compared, and the matchpoints themselves."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import duplicate_pages as pages
from games import services
from games.engine import GAMES
from games.engine.verify import verify_each
from games.matchpoints import Field
from games.models import BoardResult, GameSession, Standing
from games.services import duplicate
from games.stored import deal_start, deal_state
from tests.site.test_daily_deal import at_random, play_out, today_event
from tests.site_helpers import logged_in, started_table

pytestmark = pytest.mark.django_db

FIRST_GAME = next(iter(GAMES))


def references_now(event) -> None:
    """What the boards' queued tasks do (a task worker needs a test of its own: it closes connections)."""
    for board in event.boards.all():
        services.references_compute(board.pk)


def test_matchpoints_count_each_result_beaten_and_half_each_tie():
    field = Field({0.0: 1, 1.0: 2, 3.0: 1})  # four results: 0, 1, 1, 3
    assert field.matchpoints(3.0) == 3
    assert field.matchpoints(1.0) == 1.5
    assert field.matchpoints(0.0) == 0
    assert field.percent(1.0) == 50.0
    assert field.rank(1.0) == 2
    assert field.rank(0.0) == 4
    assert field.percent(2.0, member=False) == 75.0  # a reference placed in the field, not one of it
    assert Field({2.0: 1}).percent(2.0) is None  # alone: nobody to compare with


def test_the_results_page_scores_both_players_beside_the_computer_and_par(players):
    alice, bob, carol = players[:3]
    event = today_event()
    play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(11))
    play_out(services.event_play(user=bob, event_id=event.pk), bob, at_random(12))
    references_now(event)
    board = event.boards.get()
    page = logged_in(alice).get(reverse("event", args=[event.pk])).content.decode()
    values = {r.user_id: r.value for r in BoardResult.objects.filter(board=board)}
    assert "2 results from the same seat" in page
    assert alice.name in page
    assert bob.name in page
    percents = Field({v: list(values.values()).count(v) for v in values.values()})
    for value in values.values():
        assert f'<td data-label="Matchpoints %">{percents.percent(value)}</td>' in page
    assert 'class="computer-result"' in page
    assert 'class="par"' in page or "too large to search" in page
    # Carol has not played: the page says what the event is and offers a try, and nothing else.
    hidden = logged_in(carol).get(reverse("event", args=[event.pk])).content.decode()
    assert alice.name not in hidden
    assert "from the same seat" not in hidden
    assert 'class="computer-result"' not in hidden
    assert "board-results" not in hidden
    assert logged_in(carol).get(reverse("event_standings", args=[event.pk])).status_code == 404
    assert logged_in(carol).get(reverse("event_export", args=[event.pk])).status_code == 404


def test_a_player_still_at_the_deal_is_refused_the_results(players):
    alice, bob = players[:2]
    event = today_event()
    play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(13))
    services.event_play(user=bob, event_id=event.pk)
    response = logged_in(bob).get(reverse("event", args=[event.pk]))
    assert response.status_code == 403
    assert alice.name not in response.content.decode()


def test_the_daily_page_offers_every_game_and_shows_no_counts(players):
    alice, carol = players[0], players[2]
    event = today_event()
    play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(14))
    page = logged_in(carol).get(reverse("daily")).content.decode()
    assert page.count('class="daily-deal"') == sum(1 for rules in GAMES.values() if rules.on_site)
    assert reverse("event_play", args=[event.pk]) in page
    assert alice.name not in page
    mine = logged_in(alice).get(reverse("daily")).content.decode()
    assert reverse("event", args=[event.pk]) in mine  # played: her results link


def test_the_days_export_verifies_once_revealed(players, settings):
    alice = players[0]
    event = today_event()
    play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(15))
    references_now(event)
    assert logged_in(alice).get(reverse("event_export", args=[event.pk])).status_code == 404
    settings.FEMKORT_CLOCK_SHIFT_SECONDS = (event.reveals - duplicate.duplicate_now()).total_seconds() + 1
    response = logged_in(players[2]).get(reverse("event_export", args=[event.pk]))
    assert response.status_code == 200
    export = json.loads(response.content)
    assert export[0]["fair"]["seed"] == event.boards.get().seed
    assert verify_each(export) == [[]]
    result = BoardResult.objects.get(user=alice)
    assert result.percent is None  # alone in the field: no percentage
    assert duplicate.today() > event.day  # revealed an hour into the next day
    yesterday = logged_in(players[2]).get(reverse("daily")).content.decode()
    assert event.boards.get().seed in yesterday


def test_an_event_of_four_deals_with_three_players_has_standings(players):
    alice, bob, carol = players[:3]
    event = services.event_create(user=alice, game=FIRST_GAME, deal_count=4, window_seconds=3600)
    for seed, user in enumerate((alice, bob)):
        session = play_out(services.event_play(user=user, event_id=event.pk), user, at_random(20 + seed))
        assert session.deals.exclude(plays=None).values("number").count() >= 4
    carols = services.event_play(user=carol, event_id=event.pk)
    assert BoardResult.objects.filter(board__event=event).exclude(value=None).count() == 8
    standings = logged_in(alice).get(reverse("event_standings", args=[event.pk])).content.decode()
    assert alice.name in standings
    assert bob.name in standings
    assert carol.name in standings
    assert "playing" in standings  # Carol is still at her deals
    assert "4/4" in standings
    assert "0/4" in standings
    page = logged_in(alice).get(reverse("event", args=[event.pk])).content.decode()
    assert 'hx-trigger="every 5s"' in page
    play_out(carols, carol, at_random(30))
    standings = logged_in(carol).get(reverse("event_standings", args=[event.pk])).content.decode()
    assert standings.count("4/4") == 3
    # Over four deals each of three results meets two others: 3 matchpoints a deal between them.
    lines = standings.split("<tr")[2:]
    points = [float(line.split('data-label="Matchpoints">')[1].split("<")[0]) for line in lines]
    assert sum(points) == 12


def test_a_private_event_is_found_only_by_its_code(players):
    alice, bob = players[:2]
    event = services.event_create(user=alice, game=FIRST_GAME, deal_count=2, window_seconds=3600, unlisted=True)
    assert logged_in(bob).get(reverse("event", args=[event.pk])).status_code == 404
    assert logged_in(bob).get(reverse("event", args=[event.pk]) + f"?code={event.code}").status_code == 200
    assert event.name not in logged_in(bob).get(reverse("events")).content.decode() or not event.name


def test_events_per_creator_are_limited(players):
    alice = players[0]
    for _ in range(duplicate.OPEN_EVENTS_PER_CREATOR):
        services.event_create(user=alice, game=FIRST_GAME, deal_count=1, window_seconds=3600)
    with pytest.raises(services.TableError):
        services.event_create(user=alice, game=FIRST_GAME, deal_count=1, window_seconds=3600)
    response = logged_in(alice).post(reverse("events"), {"game": FIRST_GAME, "deal_count": 99, "window_seconds": 1})
    assert response.status_code == 400


def test_a_finished_euchre_table_dealt_again_deals_the_same_cards_and_is_compared(players):
    alice, bob = players[:2]
    first = started_table([alice], computers=3, game="euchre", options={"points": "5"})
    first = play_out(first, alice, at_random(40))
    assert first.status == GameSession.Status.FINISHED
    refused = logged_in(bob).post(reverse("same_deals_open", args=[first.pk]), {"rotated": "1"})
    assert refused.status_code == 302  # not her table: refused with a message, nothing made
    assert not GameSession.objects.filter(same_deals_as=first).exists()
    response = logged_in(alice).post(reverse("same_deals_open", args=[first.pk]), {"rotated": "1"})
    again = GameSession.objects.get(same_deals_as=first)
    assert response.url == reverse("table", args=[again.pk])
    assert again.seats.get(user=alice).position == 1  # everyone one seat on
    again = services.session_start(session_id=again.pk, user=alice)
    again = play_out(again, alice, at_random(41))
    assert again.status == GameSession.Status.FINISHED
    pairs = [
        (first.deals.get(number=deal.number), deal)
        for deal in again.deals.all()
        if first.deals.filter(number=deal.number)
    ]
    assert pairs
    for one, two in pairs[:1]:
        a, b = deal_start(one), deal_start(two)
        assert all(a.view(seat).hand == b.view(seat).hand for seat in range(4))
        assert one.dealer == two.dealer
    page = logged_in(alice).get(reverse("comparison", args=[again.pk])).content.decode()
    assert 'class="compared-points"' in page
    assert page.count('class="panel compared-deal"') == len(pairs)
    # The first table's page links the comparison; the export of the second table verifies.
    assert (
        reverse("comparison", args=[again.pk])
        in logged_in(alice).get(reverse("session", args=[first.pk])).content.decode()
    )
    export = json.loads(logged_in(alice).get(reverse("session_export", args=[again.pk])).content)
    assert all(problems == [] for problems in verify_each(export))


def test_the_streak_is_on_the_profile_once_the_day_reveals(players, clock):
    alice = players[0]
    event = today_event()
    play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(50))
    profile = reverse("player", args=[alice.username])
    assert "Daily deal:" not in logged_in(players[1]).get(profile).content.decode()  # who played today: not yet
    clock.advance((event.reveals - clock.now).total_seconds() + 1)
    assert "Daily deal: 1 day in a row" in logged_in(players[1]).get(profile).content.decode()


def test_the_monthly_ladder_ranks_by_average_percentage_once_days_reveal(players, clock):
    alice, bob = players[:2]
    events = []
    for day in range(21, 26):  # five days of November (the clock's month)
        clock.now = clock.now.replace(day=day)
        event = today_event()
        for seed, user in enumerate((alice, bob)):
            play_out(services.event_play(user=user, event_id=event.pk), user, at_random(60 + 2 * day + seed))
        events.append(event)
    assert pages.ladder(FIRST_GAME, clock.now.date()) == []  # nothing revealed yet: no percentages
    clock.now = clock.now.replace(day=30)
    for event in events:
        assert services.event_reveal(event.pk) == "revealed"  # what the task queued with the event does
    rows = pages.ladder(FIRST_GAME, clock.now.date())
    assert [row.deals for row in rows] == [5, 5]
    assert rows[0].percent >= rows[1].percent
    assert rows[0].percent + rows[1].percent == pytest.approx(100)  # two players: each deal's 100 % shared
    assert pages.ladder(FIRST_GAME, clock.now.date(), least=6) == []
    assert pages.streak(alice, clock.now.date()) == (0, 5)  # five days in a row, but not up to today


def test_the_profile_ranks_the_events_played_only_for_who_may_see_them(players):
    alice, bob, carol = players[:3]
    event = today_event()
    for seed, user in enumerate((alice, bob)):
        play_out(services.event_play(user=user, event_id=event.pk), user, at_random(70 + seed))
    profile = reverse("player", args=[alice.username])
    seen_by_bob = logged_in(bob).get(profile).content.decode()
    assert reverse("event", args=[event.pk]) in seen_by_bob
    assert "of 2</span>" in seen_by_bob  # her place among the two who played
    seen_by_carol = logged_in(carol).get(profile).content.decode()
    assert reverse("event", args=[event.pk]) not in seen_by_carol  # how many played: not before she has
    assert "of 2</span>" not in seen_by_carol


def test_an_event_table_has_no_chat(players):
    alice, bob = players[:2]
    event = today_event()
    session = services.event_play(user=alice, event_id=event.pk)
    play_out(services.event_play(user=bob, event_id=event.pk), bob, at_random(80))
    for user in (alice, bob):
        with pytest.raises(services.TableError):
            services.chat_post(session_id=session.pk, user=user, text="hello")
    with pytest.raises(services.TableError):
        services.chat_switch(session_id=session.pk, user=alice, on=True)
    with pytest.raises(services.TableError):
        services.pace_ask(session_id=session.pk, user=alice, pace_seconds=24 * 3600)


def test_leaving_at_the_first_deal_opens_no_later_deal(players):
    """Bob left his event table at its first deal: the other tables' later deals stay hidden from him."""
    alice, bob = players[:2]
    event = services.event_create(user=alice, game=FIRST_GAME, deal_count=2, window_seconds=3600)
    alices = play_out(services.event_play(user=alice, event_id=event.pk), alice, at_random(81))
    bobs = services.event_play(user=bob, event_id=event.pk)
    services.session_leave(session_id=bobs.pk, user=bob)
    client = logged_in(bob)
    assert client.get(reverse("session", args=[alices.pk])).status_code == 404
    second = alices.deals.filter(plays__isnull=False).order_by("-number").first()
    assert client.get(reverse("deal_replay", args=[second.pk])).status_code == 404
    page = client.get(reverse("event", args=[event.pk]) + "?deal=2").content.decode()
    assert "You have not played this deal" in page
    assert 'class="board stack board-results"' not in page
    first = client.get(reverse("event", args=[event.pk]) + "?deal=1").content.decode()
    assert 'class="board stack board-results"' in first  # the deal he had his try at


def test_the_same_deals_are_dealt_only_to_a_full_table_and_not_rated(players):
    alice, bob = players[:2]
    first = started_table([alice, bob], computers=2, game="euchre", options={"points": "5"})
    for _ in range(400):
        services.computers_play_all(session_id=first.pk)
        first.refresh_from_db()
        if first.status != GameSession.Status.PLAYING:
            break
        state = deal_state(first.deals.order_by("-number").first())
        user = first.seats.get(position=state.to_act).user
        services.action_take(session_id=first.pk, user=user, action=state.legal_actions()[0], seen_seq=first.seq)
    assert first.status == GameSession.Status.FINISHED
    again = services.same_deals_open(session_id=first.pk, user=alice, rotated=False)
    with pytest.raises(services.TableError) as refused:
        services.session_start(session_id=again.pk, user=alice)  # Bob's kept seat is still empty
    assert refused.value.code == "too_few"
    services.seat_take(session_id=again.pk, user=bob)
    again = play_out_two(services.session_start(session_id=again.pk, user=alice), alice, bob)
    assert again.status == GameSession.Status.FINISHED
    assert not Standing.objects.filter(user=alice, sessions_played__gt=1).exists()  # only the first table counted


def play_out_two(session, *people):
    for _ in range(400):
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return session
        state = deal_state(session.deals.order_by("-number").first())
        user = session.seats.get(position=state.to_act).user
        services.action_take(session_id=session.pk, user=user, action=state.legal_actions()[0], seen_seq=session.seq)
    return session


def test_a_private_events_code_is_counted_like_a_tables(players, settings):
    alice, bob = players[:2]
    settings.FEMKORT_CODE_TRIES = (2, 600)
    event = services.event_create(user=alice, game=FIRST_GAME, deal_count=1, window_seconds=3600, unlisted=True)
    client = logged_in(bob)
    assert client.get(reverse("event", args=[event.pk]) + "?code=WRONG1").status_code == 404
    assert client.get(reverse("event_by_code") + "?code=wrong-2").status_code == 302
    assert client.get(reverse("event", args=[event.pk]) + f"?code={event.code}").status_code == 429
