"""History: standings and ratings after scripted sessions, replays, exports, profiles, leaderboards."""

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from games import history, services
from games.models import Deal, GameSession, Seat, Standing
from games.stored import deal_state
from tests.site_helpers import play_session

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def standing(user, against="people"):
    return Standing.objects.get(user=user, game="femkort", against=against)


def test_counters_after_scripted_sessions(players):
    sessions = [play_session(players, seed=seed) for seed in range(4)]
    for user in players:
        mine = standing(user)
        seats = Seat.objects.filter(user=user).select_related("session")
        assert mine.sessions_played == 4
        assert mine.sessions_won == sum(s.winner.user_id == user.pk for s in sessions)
        assert mine.deals_won == sum(seat.session.match["wins"][seat.position] for seat in seats)
    assert sum(standing(u).sessions_won for u in players) == 4
    assert not Standing.objects.filter(against="computers").exists()


def test_ratings_move_with_results(players):
    session = play_session(players, seed=1)
    winner = session.winner.user
    ratings = {u.pk: standing(u).rating for u in players}
    assert ratings[winner.pk] == max(ratings.values())
    assert ratings[winner.pk] > Standing._meta.get_field("rating").default
    assert all(s.rating_after is not None for s in session.seats.all())


def test_sessions_with_computers_count_apart_and_computers_have_standings(players):
    play_session(players[:1], computers=2, seed=3)
    assert not Standing.objects.filter(user=players[0], against="people").exists()
    assert standing(players[0], "computers").sessions_played == 1
    easy = Standing.objects.get(computer="easy", against="computers")
    assert easy.sessions_played == 2  # two seats of the same level in one session


def test_recomputing_from_stored_sessions_equals_the_incremental_values(players, make_user):
    play_session(players, seed=5)
    play_session([players[1], players[2], make_user("dagny")], seed=6)
    play_session(players[:2], computers=1, seed=7)
    fields = ("game", "against", "user_id", "computer", "sessions_played", "sessions_won", "deals_won")
    before = {tuple(getattr(s, f) for f in fields): (s.mu, s.sigma, s.rating) for s in Standing.objects.all()}
    seats_before = dict(Seat.objects.values_list("pk", "rating_after"))
    assert services.standings_rebuild() == 3
    after = {tuple(getattr(s, f) for f in fields): (s.mu, s.sigma, s.rating) for s in Standing.objects.all()}
    assert after.keys() == before.keys()
    for key, values in before.items():
        assert after[key] == pytest.approx(values)
    assert dict(Seat.objects.values_list("pk", "rating_after")) == pytest.approx(seats_before)


def test_admin_action_recomputes(admin_client, players):
    play_session(players, seed=8)
    Standing.objects.update(sessions_won=99)
    admin_client.post(
        reverse("admin:games_standing_changelist"),
        {"action": "recompute", "_selected_action": list(Standing.objects.values_list("pk", flat=True))},
    )
    assert sum(Standing.objects.values_list("sessions_won", flat=True)) == 1


def test_session_page_lists_deals_with_replay_links(client, players):
    session = play_session(players, seed=2)
    page = client.get(reverse("session", args=[session.pk])).text
    for deal in session.deals.all():
        assert reverse("deal_replay", args=[deal.pk]) in page
    assert session.winner.name in page


def test_replay_shows_every_hand_of_a_finished_deal(client, players):
    session = play_session(players, seed=2)
    deal = session.deals.first()
    start = client.get(reverse("deal_replay", args=[deal.pk]), {"step": 0}).text
    shown = set(re.findall(r'data-card="(..)"', start))
    assert shown == {card for hand in deal.setup["hands"] for card in hand}
    middle = client.get(reverse("deal_replay", args=[deal.pk]), {"step": 4})
    assert "move 4 of 15" in middle.text
    assert client.get(reverse("deal_replay", args=[deal.pk]), {"step": "x"}).status_code == 200


def test_a_deal_in_progress_cannot_be_replayed_or_exported(client, players):
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    services.session_start(session_id=session.pk, user=players[0])
    deal = Deal.objects.get(session=session)
    for name in ("deal_replay", "deal_export"):
        response = client.get(reverse(name, args=[deal.pk]))
        assert response.status_code == 404
        hidden = {card for hand in deal.setup["hands"] for card in hand}
        assert not set(re.findall(r"\b([2-9TJQKA][SHDC])\b", response.text)) & hidden
    assert client.get(reverse("session_export", args=[session.pk])).json() == []


def test_exported_records_replay_to_the_stored_results(client, players):
    session = play_session(players, seed=4)
    records = client.get(reverse("session_export", args=[session.pk])).json()
    deals = list(session.deals.order_by("number"))
    assert len(records) == len(deals)
    for record, deal in zip(records, deals, strict=True):
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay"],
            input=json.dumps(record),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        result = json.loads(done.stdout)
        assert result["winner"] == deal.winner
        assert [t["winner"] for t in result["tricks"]] == [t.winner for t in deal_state(deal).tricks]
    single = client.get(reverse("deal_export", args=[deals[0].pk])).json()
    assert single == records[0]


def test_leaderboard_boards_periods_and_minimum(client, players, make_user):
    first = play_session(players, seed=1)
    old = play_session(players, seed=2)
    GameSession.objects.filter(pk=old.pk).update(finished=timezone.now() - timedelta(days=40))
    services.standings_rebuild()  # the period counters follow the stored finishing times
    all_time = client.get(reverse("leaderboard")).text
    assert all_time.count('href="/players/') == 3
    month = client.get(reverse("leaderboard"), {"period": "month"}).text
    assert month.count('href="/players/') == 3
    assert first.winner.name in month
    rows = history.leaderboard(game="femkort", board="sessions", period="month", against="people", min_sessions=1)
    assert [row.played for row in rows] == [1, 1, 1]  # the session 40 days ago is not this month's
    assert [row.won for row in rows] == [1, 0, 0]
    assert rows[0].username == first.winner.user.username
    all_rows = history.leaderboard(game="femkort", board="sessions", period="all", against="people", min_sessions=1)
    assert sorted(row.played for row in all_rows) == [2, 2, 2]
    none = client.get(reverse("leaderboard"), {"min": 3}).text
    assert "Nobody here yet" in none
    rating = client.get(reverse("leaderboard"), {"board": "rating"}).text
    best = max(Standing.objects.filter(against="people"), key=lambda s: s.rating)
    assert rating.index(best.user.name) < min(
        rating.index(s.user.name) for s in Standing.objects.filter(against="people").exclude(pk=best.pk)
    )


def test_computers_appear_on_the_computer_board_as_themselves(client, players):
    play_session(players[:1], computers=2, seed=3)
    page = client.get(reverse("leaderboard"), {"against": "computers"}).text
    assert "Computer (easy)" in page
    assert "Computer (easy)" not in client.get(reverse("leaderboard")).text


def test_profile_page(client, players):
    sessions = [play_session(players, seed=seed) for seed in range(3)]
    page = client.get(reverse("player", args=[players[0].username.upper()]))
    assert page.status_code == 200
    text = page.text
    assert "Met most often" in text
    assert players[1].name in text
    assert str(sum(s.winner.user_id == players[0].pk for s in sessions)) in text
    assert client.get(reverse("player", args=["nobody"])).status_code == 404


def test_period_counters_equal_a_count_of_seats(players, make_user):
    from games.models import PeriodStanding
    from games.services.standings import period_starts

    play_session(players, seed=11)
    play_session([players[0], players[1], make_user("dagny")], seed=12)
    starts = period_starts(timezone.now())
    for period in ("month", "week"):
        rows = PeriodStanding.objects.filter(period=period, starts=starts[period])
        assert sum(r.sessions_played for r in rows) == 6
        assert sum(r.sessions_won for r in rows) == 2
        assert rows.get(user=players[0]).sessions_played == 2


def test_standings_are_visible_in_admin(admin_client, players):
    from games.models import PeriodStanding

    play_session(players, seed=13)
    for model in (Standing, PeriodStanding):
        meta = model._meta
        assert admin_client.get(reverse(f"admin:games_{meta.model_name}_changelist")).status_code == 200
        obj = model.objects.first()
        assert admin_client.get(reverse(f"admin:games_{meta.model_name}_change", args=[obj.pk])).status_code == 200


def test_a_replay_shows_trump_once_made_and_the_upcard(client, players):
    session = play_session(players[:1], computers=3, game="euchre", seed=4, options={"points": "5"})
    deal = next(deal for deal in session.deals.order_by("number") if deal_state(deal).contract)
    state = deal_state(deal)
    total = deal.plays.count()
    before = history.replay_at(deal, 0)
    assert before.trump == ""  # nothing is made before the first call
    assert before.upcard.card == state.upcard
    end = history.replay_at(deal, total)
    assert end.upcard.card == state.upcard
    assert end.trump == "Trump: " + {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[state.trump]
    page = client.get(reverse("deal_replay", args=[deal.pk]), {"step": total}).text
    assert end.trump in page
    assert re.search(rf'Upcard: <span class="card small[^"]*" data-card="{state.upcard}"', page)


def test_a_nap_replay_names_trump_from_the_first_lead(client, players):
    session = play_session(players, game="nap", seed=3, options={"rounds": 1})
    deal = next(deal for deal in session.deals.order_by("number") if deal_state(deal).tricks)
    bids = len(deal_state(deal).calls)
    assert history.replay_at(deal, bids).trump == ""
    assert history.replay_at(deal, bids + 1).trump != ""  # the bidder's first card names it
