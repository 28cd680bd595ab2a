"""Telling people it is their turn at a turn-based table while they are elsewhere: a push to each
browser they allowed, and an e-mail digest now and then listing every table waiting on them.

A notice is queued (a task on the task queue) in the transaction of the move that made the turn
begin, so a move rolled back tells nobody and a move kept is told even across a restart. Each
turn has one ``TurnNotice`` row, locked while it is sent: however often its task runs, a turn is
pushed once and listed in one digest once. Nothing is sent to someone looking at that table.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import tasks, webpush
from games.announcements import turns_changed
from games.engine import get_game
from games.models import PRESENCE_TIMEOUT, Connection, GameSession, PushSubscription, Seat, TurnNotice
from games.stored import match_of
from games.words import say_count

from .errors import TableError

log = logging.getLogger(__name__)
LOOK_AGAIN = timedelta(seconds=60)  # someone at the table on their turn: is the table still open a minute on?
UNSUBSCRIBE_SALT = "turn-email-unsubscribe"
RETRY_MAIL = timedelta(minutes=5)
WATCHING = "watching"
QUIET = "quiet"
LATER = ("", WATCHING, QUIET)  # a notice to look at again when its task runs; any other outcome is final


def turn_news(session: GameSession, seats: Sequence[Seat]) -> None:
    """A change was saved at ``session.seq`` of a turn-based table: its people's open pages count
    again the tables waiting on them, and if a person's turn began, its notice is queued in this
    same transaction."""
    if not session.turn_based:
        return
    turns_changed([seat.user_id for seat in seats if seat.user_id])
    if session.to_act is None or session.unattended_since is not None:
        return
    seat = seats[session.to_act]
    if seat.user_id is None or seat.played_by:
        return
    tasks.turn_notify.enqueue(session.pk, seat.user_id, session.seq)


def deadline_said(moment: datetime, user: User) -> str:
    """A deadline as the player reads it, in their own time zone: "Tue 18:00" (with the date if
    more than a week away)."""
    local = timezone.localtime(moment, user.zone)
    far = moment - timezone.now() > timedelta(days=6)
    return date_format(local, "D j M H:i" if far else "D H:i")


def quiet_now(user: User, moment: datetime) -> bool:
    if user.quiet_from is None or user.quiet_until is None or user.quiet_from == user.quiet_until:
        return False
    now = timezone.localtime(moment, user.zone).time()
    start, end = user.quiet_from, user.quiet_until
    return start <= now < end if start < end else now >= start or now < end


def quiet_over(user: User, moment: datetime) -> datetime:
    """``moment``, or the end of the player's quiet hours if it falls in them."""
    if not quiet_now(user, moment):
        return moment
    local = timezone.localtime(moment, user.zone)
    end = local.replace(hour=user.quiet_until.hour, minute=user.quiet_until.minute, second=0, microsecond=0)
    return end if end > local else end + timedelta(days=1)


def looking_until(session_id: int, user_id: int, now: datetime) -> datetime | None:
    """While the person has the table open (a live socket to it): when to look again whether they
    still do; ``None`` when they do not. Only sockets count: a push needs the browser's script, and
    a page with its script open has a socket (a seat's last sign of life is also the moment its
    socket closed, so it cannot say whether the page is still there)."""
    connected = Connection.objects.filter(
        session_id=session_id, user_id=user_id, seen__gte=now - timedelta(seconds=PRESENCE_TIMEOUT)
    )
    return now + LOOK_AGAIN if connected.exists() else None


def looking_at(session_id: int, user_id: int, now: datetime) -> bool:
    return looking_until(session_id, user_id, now) is not None


def waits_on(session: GameSession, user_id: int) -> Seat | None:
    """``user_id``'s seat if the session in play waits on them to move (not on a computer for them)."""
    if session.status != GameSession.Status.PLAYING or session.to_act is None or not session.turn_based:
        return None
    seat = next((s for s in session.seats.all() if s.position == session.to_act), None)
    return seat if seat is not None and seat.user_id == user_id and not seat.played_by else None


def table_url(session: GameSession) -> str:
    return reverse("table", args=[session.pk])


def scores_said(session: GameSession) -> str:
    """Where the session stands, every seat's score in the game's own units: "Anna 6 points · Bo 4 points"."""
    seats = list(session.seats.select_related("user"))
    if not session.match:
        return ""
    rules, match = get_game(session.game), match_of(session, seats)
    return " · ".join(
        " ".join([seat.short_name, *(say_count(c) for c in rules.seat_scores(match, seat.position))]) for seat in seats
    )


def _push_message(session: GameSession, user: User) -> str:
    title = _("Your turn at %(table)s") % {"table": session}
    body = _("Plays by %(deadline)s") % {"deadline": deadline_said(session.deadline, user)}
    scores = scores_said(session)
    return json.dumps(
        {
            "title": title,
            "body": f"{body}\n{scores}" if scores else body,
            "url": table_url(session),
            "tag": f"table-{session.pk}",
        }
    )


@transaction.atomic
def turn_notify(*, session_id: int, user_id: int, seq: int) -> str:
    """Tell ``user_id`` that their turn began at ``seq``: a push to each of their browsers (unless
    they turned push off), and an e-mail digest queued. While they have the table open, or in their
    quiet hours, it looks again later. Says what it did (the task's result, in the admin)."""
    try:
        with transaction.atomic():
            TurnNotice.objects.get_or_create(session_id=session_id, user_id=user_id, seq=seq)
    except IntegrityError:  # the table or the player is gone
        return "gone"
    notice = (
        TurnNotice.objects.select_for_update()
        .select_related("session", "user")
        .get(session_id=session_id, user_id=user_id, seq=seq)
    )
    if notice.pushed or notice.skipped not in LATER:
        return "told already"
    session, user, now = notice.session, notice.user, timezone.now()
    notice.skipped = ""  # looked at afresh, whatever an earlier look found
    watching = looking_until(session_id, user_id, now)
    if waits_on(session, user_id) is None:
        notice.skipped = "moved"
    elif watching is not None:  # they see it is their turn; if they go away without moving, they are told then
        notice.skipped = WATCHING
        notice.save(update_fields=["skipped"])
        tasks.turn_notify.using(run_after=watching).enqueue(session_id, user_id, seq)
        return WATCHING
    elif not user.turn_push:
        notice.skipped = "push off"
    elif quiet_now(user, now):  # told when their quiet hours end, if it is still their turn then
        notice.skipped = QUIET
        notice.save(update_fields=["skipped"])
        tasks.turn_notify.using(run_after=quiet_over(user, now)).enqueue(session_id, user_id, seq)
        if user.turn_email and user.email:
            digest_queue(user.pk)
        return QUIET
    if not notice.skipped:
        notice.pushed = _push(session, user)
        notice.skipped = "" if notice.pushed else "no browser"
    notice.save(update_fields=["pushed", "skipped"])
    if notice.skipped != "moved" and user.turn_email and user.email:
        digest_queue(user.pk)
    return notice.skipped or f"pushed to {notice.pushed}"


def _push(session: GameSession, user: User) -> int:
    with translation.override(user.language or settings.LANGUAGE_CODE):
        data = _push_message(session, user)
    ttl = int(max(60, min((session.deadline - timezone.now()).total_seconds(), 28 * 24 * 3600)))
    sent = 0
    for subscription in PushSubscription.objects.filter(user=user):
        outcome = webpush.push_send(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            data=data,
            ttl=ttl,
            topic=f"table-{session.pk}",
        )
        if outcome == "gone":
            subscription.delete()
        elif outcome == "sent":
            sent += 1
            PushSubscription.objects.filter(pk=subscription.pk).update(last_sent=timezone.now())
    return sent


def digest_queue(user_id: int) -> None:
    """Have an e-mail digest sent to the player, unless one is queued already (it will list this
    table too): after ``FEMKORT_TURN_EMAIL_DELAY_SECONDS``, at most once every
    ``FEMKORT_TURN_EMAIL_EVERY_SECONDS``, never in their quiet hours."""
    user = User.objects.select_for_update().get(pk=user_id)
    if user.digest_due is not None:
        return
    at = timezone.now() + timedelta(seconds=settings.FEMKORT_TURN_EMAIL_DELAY_SECONDS)
    if user.digest_sent is not None:
        at = max(at, user.digest_sent + timedelta(seconds=settings.FEMKORT_TURN_EMAIL_EVERY_SECONDS))
    user.digest_due = quiet_over(user, at)
    user.save(update_fields=["digest_due"])
    tasks.turn_digest.using(run_after=user.digest_due).enqueue(user.pk)


@transaction.atomic
def digest_send(*, user_id: int) -> str:
    """Send the player one e-mail listing every turn-based table still waiting on them that no digest
    listed yet for that turn, each table once; nothing if there is none, or they are looking at it."""
    user = User.objects.select_for_update().filter(pk=user_id).first()
    now = timezone.now()
    if user is None or user.digest_due is None or user.digest_due > now + timedelta(seconds=5):
        return "not due"  # sent already by an earlier run, or a later digest is queued
    user.digest_due = None
    notices = list(
        TurnNotice.objects.filter(user=user, mailed=None).select_related("session").order_by("session_id", "seq")
    )
    tables = {}
    for notice in notices:
        session = notice.session
        if waits_on(session, user.pk) is not None and not looking_at(session.pk, user.pk, now):
            tables[session.pk] = session
    if tables and user.turn_email and user.email:
        try:
            _mail(user, list(tables.values()))
        except Exception:  # the mail server is away: try again later, keeping what is to be listed
            log.exception("turn digest for player %s failed", user.pk)
            user.digest_due = now + RETRY_MAIL
            user.save(update_fields=["digest_due"])
            tasks.turn_digest.using(run_after=user.digest_due).enqueue(user.pk)
            return "failed, again later"
        user.digest_sent = now
    TurnNotice.objects.filter(pk__in=[notice.pk for notice in notices]).update(mailed=now)
    user.save(update_fields=["digest_due", "digest_sent"])
    return f"listed {len(tables)} tables" if tables and user.email else "nothing to list"


def unsubscribe_token(user: User) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(user: User) -> str:
    return settings.FEMKORT_SITE_URL + reverse("turn_email_unsubscribe", args=[unsubscribe_token(user)])


def turn_email_unsubscribe(*, token: str) -> User:
    """Turn e-mail off for the player a digest's link names (signed: nobody can do it for another)."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        user_id = None
    user = User.objects.filter(pk=user_id).first() if isinstance(user_id, int) else None
    if user is None:
        raise TableError(_("This link is not valid: change your e-mail settings in Settings."), code="bad_link")
    User.objects.filter(pk=user.pk).update(turn_email=False)
    return user


def _mail(user: User, sessions: list[GameSession]) -> None:
    with translation.override(user.language or settings.LANGUAGE_CODE):
        lines = [
            {
                "table": str(session),
                "deadline": deadline_said(session.deadline, user),
                "scores": scores_said(session),
                "url": settings.FEMKORT_SITE_URL + table_url(session),
            }
            for session in sorted(sessions, key=lambda s: s.deadline)
        ]
        context = {
            "user": user,
            "tables": lines,
            "mine": settings.FEMKORT_SITE_URL + reverse("my_tables"),
            "settings": settings.FEMKORT_SITE_URL + reverse("profile"),
            "unsubscribe": unsubscribe_url(user),
        }
        subject = ngettext("Your turn at %(count)d table", "Your turn at %(count)d tables", len(lines)) % {
            "count": len(lines)
        }
        text = render_to_string("games/email/turns.txt", context)
        html = render_to_string("games/email/turns.html", context)
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[user.email],
        headers={  # one click in the mail program turns these e-mails off (RFC 8058)
            "List-Unsubscribe": f"<{context['unsubscribe']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()


def push_subscribe(*, user: User, info: object, browser: str = "") -> PushSubscription:
    """Keep a browser's subscription (``PushSubscription.toJSON()`` as it sent it) for ``user``; the
    same browser subscribing again replaces its keys, and moves to ``user`` if someone else had it."""
    keys = info.get("keys") if isinstance(info, dict) else None
    endpoint = info.get("endpoint") if isinstance(info, dict) else None
    p256dh, auth = (keys.get("p256dh"), keys.get("auth")) if isinstance(keys, dict) else (None, None)
    if not (push_service_known(endpoint) and _b64url(p256dh, 65) and _b64url(auth, 16)):
        raise TableError(_("That is not a push subscription this site can use."), code="bad_subscription")
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "browser": browser[:200]}
    )
    return subscription


def push_unsubscribe(*, user: User, endpoint: object) -> int:
    if not isinstance(endpoint, str):
        return 0
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0]


def push_service_known(endpoint: object) -> bool:
    """An endpoint of a push service the site sends to (``FEMKORT_PUSH_SERVICES``), over HTTPS: the
    server posts to whatever address a browser gives, so only the browsers' own push services are
    taken, never an address inside our network (plain HTTP only on this machine, for tests)."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        return False
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
    except ValueError:
        return False
    local = host in ("127.0.0.1", "localhost")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        return False
    return any(host == known or host.endswith("." + known) for known in settings.FEMKORT_PUSH_SERVICES)


def _b64url(value: object, size: int) -> bool:
    if not isinstance(value, str) or len(value) > 200:
        return False
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) == size
    except ValueError:
        return False
