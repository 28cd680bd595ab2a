"""Your turn by Web Push: each browser the person allowed gets one message per turn, encrypted for it
and signed with the site's VAPID key (a local push service decrypts and verifies every one), nobody
else does; nothing for a table they have open, in quiet hours or with push off; a browser the push
service says is gone is forgotten."""

from __future__ import annotations

import threading
from datetime import time

import pytest
from django.db import connection, connections

from games import services, webpush
from games.models import Connection, GameSession, PushSubscription, Seat, TurnNotice
from tests.push_service import PushService, vapid_keys
from tests.site.test_turn_based import a_card
from tests.site_helpers import run_tasks, started_table

pytestmark = pytest.mark.django_db(transaction=True)  # a task worker closes its connections between tasks
DAY = 24 * 3600


@pytest.fixture
def push(settings):
    private, public = vapid_keys()
    settings.FEMKORT_VAPID_PRIVATE_KEY = private
    settings.FEMKORT_PUSH_SERVICES = ["127.0.0.1"]
    webpush.vapid.cache_clear()
    with PushService(vapid_public_key=public) as service:
        yield service
    webpush.vapid.cache_clear()


def subscribed(push: PushService, user, name: str):
    browser = push.subscribe(name)
    services.push_subscribe(user=user, info=browser.info(), browser=name)
    return browser


def to_act(session: GameSession) -> Seat:
    session.refresh_from_db()
    return Seat.objects.select_related("user").get(session=session, position=session.to_act)


def test_the_person_whose_turn_began_gets_one_encrypted_signed_message_per_browser(players, push):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    first = to_act(session)
    services.action_take(session_id=session.pk, user=first.user, action=a_card(session), seen_seq=session.seq)
    waiting = to_act(session)
    browsers = {player.pk: subscribed(push, player, player.username) for player in players}
    phone = subscribed(push, waiting.user, "phone")
    run_tasks()
    message = push.wait_for(browsers[waiting.user_id].name)[0]
    assert message.json()["title"] == f"Your turn at {session}"
    assert message.json()["url"] == f"/tables/{session.pk}/"
    assert message.json()["tag"] == f"table-{session.pk}"
    assert "Plays by" in message.json()["body"]
    assert message.claims["aud"] == push.url
    assert push.wait_for(phone.name)[0].json() == message.json()
    others = [player for player in players if player.pk != waiting.user_id]
    assert all(push.messages(player.username) == [] for player in others)
    assert push.failures == []
    run_tasks()  # run again: told once
    assert len(push.messages(browsers[waiting.user_id].name)) == 1


def test_nothing_is_pushed_for_a_table_the_person_has_open_or_in_quiet_hours(players, push):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = to_act(session)
    subscribed(push, seat.user, "laptop")
    Connection.objects.create(session=session, user=seat.user, channel_name="looking")
    run_tasks()
    assert TurnNotice.objects.get(user=seat.user).skipped == "watching"
    Connection.objects.all().delete()
    seat.user.quiet_from, seat.user.quiet_until = time(0, 0), time(23, 59)
    seat.user.save()
    services.turn_notify(session_id=session.pk, user_id=seat.user_id, seq=session.seq + 100)
    assert TurnNotice.objects.get(seq=session.seq + 100).skipped == "quiet"
    assert push.messages("laptop") == []


def test_a_browser_the_push_service_calls_gone_is_forgotten(players, push):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = to_act(session)
    subscribed(push, seat.user, "old")
    kept = subscribed(push, seat.user, "new")
    push.gone("old")
    run_tasks()
    push.wait_for(kept.name)
    assert list(PushSubscription.objects.values_list("browser", flat=True)) == ["new"]
    assert TurnNotice.objects.get(user=seat.user).pushed == 1


def test_without_a_key_of_its_own_the_site_signs_with_one_derived_from_its_secret_key(players, settings):
    settings.FEMKORT_VAPID_PRIVATE_KEY = ""
    settings.FEMKORT_PUSH_SERVICES = ["127.0.0.1"]
    webpush.vapid.cache_clear()
    key = webpush.application_server_key()
    settings.SECRET_KEY = "another secret key, another site"
    webpush.vapid.cache_clear()
    assert webpush.application_server_key() != key
    with PushService(vapid_public_key=webpush.application_server_key()) as service:
        browser = service.subscribe("browser")
        sent = webpush.push_send(
            endpoint=browser.endpoint,
            p256dh=browser.info()["keys"]["p256dh"],
            auth=browser.info()["keys"]["auth"],
            data='{"title": "t"}',
            ttl=60,
        )
        assert sent == "sent"
        assert service.wait_for("browser")[0].json() == {"title": "t"}
    webpush.vapid.cache_clear()


def test_someone_who_had_the_table_open_and_left_without_moving_is_told_then(players, push, clock):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = to_act(session)
    browser = subscribed(push, seat.user, "phone")
    Connection.objects.create(session=session, user=seat.user, channel_name="looking")
    run_tasks()
    assert TurnNotice.objects.get(user=seat.user).skipped == "watching"
    clock.advance(30)
    Connection.objects.all().delete()  # the browser closed
    run_tasks()
    assert push.messages(browser.name) == []  # looked at again a minute after, not before
    clock.advance(31)
    run_tasks()
    assert push.wait_for(browser.name)[0].json()["url"] == f"/tables/{session.pk}/"
    clock.advance(3600)
    run_tasks()
    assert len(push.messages(browser.name)) == 1


def test_a_turn_that_begins_in_quiet_hours_is_pushed_when_they_end_if_still_waiting(players, push, clock):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = to_act(session)
    seat.user.quiet_from, seat.user.quiet_until = time(11, 0), time(13, 0)  # the clock is at 12:00 UTC
    seat.user.save()
    browser = subscribed(push, seat.user, "phone")
    run_tasks()
    assert TurnNotice.objects.get(user=seat.user).skipped == "quiet"
    clock.advance(59 * 60)
    run_tasks()
    assert push.messages(browser.name) == []
    clock.advance(61)
    run_tasks()
    assert push.wait_for(browser.name)[0].json()["tag"] == f"table-{session.pk}"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two workers at once: PostgreSQL's row locks")
def test_one_turns_notice_run_by_two_workers_at_once_is_pushed_once(players, push):
    session = started_table(players, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = to_act(session)
    browser = subscribed(push, seat.user, "phone")
    start = threading.Barrier(2)
    said: list[str] = []

    def worker() -> None:
        try:
            start.wait(timeout=30)
            said.append(services.turn_notify(session_id=session.pk, user_id=seat.user_id, seq=session.seq))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(said) == ["pushed to 1", "told already"]
    assert len(push.wait_for(browser.name)) == 1
    assert TurnNotice.objects.count() == 1
