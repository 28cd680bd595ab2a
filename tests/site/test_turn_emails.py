"""Turn notices at turn-based tables, by e-mail and in the pages: queued with the move that began the
turn, a digest listing each table once however many moves were made, nothing for a table the person
has open, quiet hours, at most one e-mail per period, a one-click way out; My tables and the header."""

from __future__ import annotations

import json
from datetime import time, timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import services
from games.models import Connection, GameSession, Seat, TurnNotice
from games.services.notify import unsubscribe_token
from tests.site.test_turn_based import a_card
from tests.site_helpers import run_tasks, started_table

pytestmark = pytest.mark.django_db(transaction=True)  # a task worker closes its connections between tasks
DAY = 24 * 3600


@pytest.fixture
def mailed(players, settings):
    settings.FEMKORT_TURN_EMAIL_DELAY_SECONDS = 600
    settings.FEMKORT_TURN_EMAIL_EVERY_SECONDS = 3600
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    for player in players:
        player.email = f"{player.username}@example.com"
        player.save(update_fields=["email"])
    return players


def person_moves_until(session: GameSession, *, turns_of: Seat, count: int) -> None:
    """People play (running the queued tasks after each move) until ``turns_of`` has been to act
    ``count`` times, and it is their turn again at the end."""
    seen = 0
    while True:
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        run_tasks()
        seat = Seat.objects.select_related("user").get(session=session, position=session.to_act)
        if seat.pk == turns_of.pk:
            seen += 1
            if seen > count:
                return
        services.action_take(session_id=session.pk, user=seat.user, action=a_card(session), seen_seq=session.seq)


def test_a_digest_lists_a_table_once_however_many_turns_it_waited_on_the_person(mailed, clock):
    session = started_table(mailed, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    carol = Seat.objects.get(session=session, user=mailed[2])
    person_moves_until(session, turns_of=carol, count=2)
    assert TurnNotice.objects.filter(user=mailed[2]).count() >= 2
    assert mail.outbox == []  # the digest waits: the player may come by first
    clock.advance(601)
    run_tasks()
    to_carol = [message for message in mail.outbox if message.to == ["cecilia@example.com"]]
    assert len(to_carol) == 1
    text = to_carol[0].body
    assert text.count(f"/tables/{session.pk}/") == 1
    assert str(session) in text
    assert to_carol[0].extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert not [message for message in mail.outbox if message.to == ["anna@example.com"]]  # not waiting on her now


def test_at_most_one_digest_per_period(mailed, clock):
    session = started_table(mailed, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    carol = Seat.objects.get(session=session, user=mailed[2])
    person_moves_until(session, turns_of=carol, count=0)
    clock.advance(601)
    run_tasks()
    assert len(mail.outbox) == 1
    person_moves_until(session, turns_of=carol, count=1)  # her turn again, minutes later
    carol_user = type(mailed[2]).objects.get(pk=mailed[2].pk)
    assert carol_user.digest_due >= carol_user.digest_sent + timedelta(seconds=3600)
    clock.advance(601)
    run_tasks()
    assert len(mail.outbox) == 1
    clock.advance(3600)
    run_tasks()
    assert len(mail.outbox) == 2


def test_no_digest_for_a_table_the_person_has_open(mailed, clock):
    session = started_table(mailed, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    carol = Seat.objects.get(session=session, user=mailed[2])
    person_moves_until(session, turns_of=carol, count=0)
    clock.advance(601)
    Connection.objects.create(session=session, user=mailed[2], channel_name="carol-looking")  # a live socket
    run_tasks()
    assert mail.outbox == []


def test_quiet_hours_move_the_digest_to_their_end(mailed, clock):
    carol = mailed[2]
    carol.time_zone, carol.quiet_from, carol.quiet_until = "Europe/Stockholm", time(12, 30), time(20, 0)
    carol.save()
    session = started_table(mailed, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    person_moves_until(session, turns_of=Seat.objects.get(session=session, user=carol), count=0)
    carol.refresh_from_db()
    # 12:00 UTC is 13:00 in Stockholm (quiet until 20:00 there, 19:00 UTC)
    assert timezone.localtime(carol.digest_due, carol.zone).time() == time(20, 0)
    clock.advance(3600)
    run_tasks()
    assert mail.outbox == []
    clock.advance(6 * 3600)
    run_tasks()
    assert len(mail.outbox) == 1


def test_a_notice_is_queued_with_its_move_and_never_for_a_move_rolled_back(players):
    session = started_table(players, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    session.refresh_from_db()
    queued = DBTaskResult.objects.filter(task_path="games.tasks.turn_notify")
    assert queued.count() == 1  # the first turn, queued with the start
    seat = Seat.objects.select_related("user").get(session=session, position=session.to_act)

    def refused() -> None:
        with transaction.atomic():
            services.action_take(session_id=session.pk, user=seat.user, action=a_card(session), seen_seq=session.seq)
            raise RuntimeError("the database refused the move")

    with pytest.raises(RuntimeError):
        refused()
    assert queued.count() == 1
    services.action_take(session_id=session.pk, user=seat.user, action=a_card(session), seen_seq=session.seq)
    assert queued.count() == 2


def test_a_notice_run_twice_tells_once(players):
    session = started_table(players, game="nap", options={"rounds": 3}, pace_seconds=DAY)
    session.refresh_from_db()
    seat = Seat.objects.get(session=session, position=session.to_act)
    first = services.turn_notify(session_id=session.pk, user_id=seat.user_id, seq=session.seq)
    again = services.turn_notify(session_id=session.pk, user_id=seat.user_id, seq=session.seq)
    assert first == "no browser"
    assert again == "told already"
    assert TurnNotice.objects.count() == 1


def test_live_tables_queue_no_notices(players):
    started_table(players, game="nap", options={"rounds": 3})
    assert not DBTaskResult.objects.filter(task_path="games.tasks.turn_notify").exists()


def test_the_unsubscribe_link_asks_first_and_one_post_turns_the_emails_off(mailed):
    carol = mailed[2]
    url = reverse("turn_email_unsubscribe", args=[unsubscribe_token(carol)])
    client = Client(enforce_csrf_checks=True)  # a mail program's one-click POST has no CSRF token
    assert client.get(url).status_code == 200
    carol.refresh_from_db()
    assert carol.turn_email
    assert client.post(url, {"List-Unsubscribe": "One-Click"}).status_code == 200
    carol.refresh_from_db()
    assert not carol.turn_email
    forged = reverse("turn_email_unsubscribe", args=[unsubscribe_token(carol)[:-2] + "xx"])
    mailed[0].refresh_from_db()
    assert client.post(forged).status_code == 400


def test_my_tables_lists_those_waiting_on_me_first_in_few_queries(players, django_assert_max_num_queries):
    waiting_on_anna = []
    for _ in range(3):
        session = started_table(players, game="nap", options={"rounds": 3}, pace_seconds=DAY)
        session.refresh_from_db()
        if Seat.objects.get(session=session, position=session.to_act).user_id == players[0].pk:
            waiting_on_anna.append(session)
    services.table_create(host=players[0], seats=3, game="nap", pace_seconds=DAY)  # waiting for players
    client = Client()
    client.force_login(players[0])
    with django_assert_max_num_queries(12):  # the page's own reads are ≤ 10; the login takes two
        page = client.get(reverse("my_tables")).content.decode()
    mine, others = page.split('id="waiting-on-others"')
    assert all(f"/tables/{session.pk}/" in mine for session in waiting_on_anna)
    assert "waiting for players" in others
    header = f"{len(waiting_on_anna)}</span>" if waiting_on_anna else 'id="my-tables-link"'
    assert header in page


def test_push_subscriptions_are_checked_kept_per_browser_and_removed_by_their_owner(players, settings):
    settings.FEMKORT_PUSH_SERVICES = ["push.example.net"]
    client = Client()
    client.force_login(players[0])
    url = reverse("push_subscribe")
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    good = {"endpoint": "https://push.example.net/send/abc", "keys": keys}

    def post(body: object) -> int:
        data = body if isinstance(body, str) else json.dumps(body)
        return client.post(url, data, content_type="application/json").status_code

    assert post("{not json") == 400
    assert post({"endpoint": "https://10.0.0.1/internal", "keys": keys}) == 400  # not a push service
    assert post({"endpoint": "http://push.example.net/send/abc", "keys": keys}) == 400  # not HTTPS
    assert post({"endpoint": good["endpoint"], "keys": {"p256dh": "short", "auth": "A" * 22}}) == 400
    assert post(good) == 201
    assert post(good) == 201  # the same browser again: one subscription
    assert players[0].push_subscriptions.count() == 1
    other = Client()
    other.force_login(players[1])
    removed = other.post(reverse("push_unsubscribe"), json.dumps({"endpoint": good["endpoint"]}), "application/json")
    assert removed.json() == {"removed": 0}  # not theirs
    assert Client().post(url, json.dumps(good), content_type="application/json").status_code == 302  # log in first
    mine = client.post(reverse("push_unsubscribe"), json.dumps({"endpoint": good["endpoint"]}), "application/json")
    assert mine.json() == {"removed": 1}
