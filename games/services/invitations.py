"""Invitations by name and blocks: who may ask whom to a table, and what a block keeps away.

A refusal never tells the inviter that they were blocked: "cannot be invited" says the same
for a block, a missing name or the inviter themselves.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import announcements
from games.engine import get_game
from games.models import Block, ChatMute, Follow, GameSession, Invitation

from .errors import TableError
from .seats import seat_take
from .waiting import host_only, table_changed, waiting_table


def blocked_between(one: int, other: int) -> bool:
    return Block.objects.filter(Q(user_id=one, blocked_id=other) | Q(user_id=other, blocked_id=one)).exists()


@transaction.atomic
def invite(*, session_id: int, user: User, username: str) -> Invitation:
    """The host asks a registered player by name to the waiting table (rate-limited: counted under
    the inviter's row lock, taken before the table's, so invitations sent at once count one by one)."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    session = waiting_table(session_id)
    host_only(session, user)
    invitee = User.objects.filter(username__iexact=str(username).strip()).first()
    if invitee is None or invitee.pk == user.pk or blocked_between(user.pk, invitee.pk):
        raise TableError(_("That player cannot be invited."), code="cannot_invite")
    count, seconds = settings.FEMKORT_INVITE_RATE
    recent = Invitation.objects.filter(inviter=user, created__gte=timezone.now() - timedelta(seconds=seconds))
    if recent.count() >= count:
        raise TableError(_("Too many invitations at once; try again in a few minutes."), code="invite_rate")
    if session.seats.filter(user=invitee).exists():
        raise TableError(_("That player already sits at this table."), code="already_seated")
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(session=session, inviter=user, invitee=invitee)
    except IntegrityError:
        raise TableError(_("That player has been invited already."), code="invited") from None
    table_changed(session)
    announcements.invited(invitee.pk, invitation.pk)
    return invitation


def invitations_open(user: User):
    """The invitations waiting for ``user``'s answer: only to tables still waiting for players."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    return Invitation.objects.filter(
        invitee=user, answer=Invitation.Answer.PENDING, session__status=GameSession.Status.WAITING
    ).select_related("session", "inviter")


@transaction.atomic
def invitation_answer(*, invitation_id: int, user: User, join: bool) -> GameSession:
    """Join the table (a free seat) or say no thanks; either way the invitation is answered."""
    invitation = invitations_open(user).select_for_update(of=("self",)).filter(pk=invitation_id).first()
    if invitation is None:
        raise TableError(_("That invitation is no longer open."), code="invitation_gone")
    if join:
        session = seat_take(session_id=invitation.session_id, user=user, position=_beside(invitation))
        invitation.answer = Invitation.Answer.JOINED
    else:
        session = invitation.session
        invitation.answer = Invitation.Answer.DECLINED
    invitation.save(update_fields=["answer"])
    return session


def _beside(invitation: Invitation) -> int | None:
    """The free seat on the inviter's side in a game of partnerships (else any free seat: None)."""
    session = invitation.session
    seats = {seat.position: seat for seat in session.seats.all()}
    inviter = next((seat for seat in seats.values() if seat.user_id == invitation.inviter_id), None)
    if inviter is None:
        return None
    rules = get_game(session.game)
    partners = rules.partners(inviter.position, session.seat_count, rules.parse_options(session.options))[1:]
    free = [p for p in partners if seats[p].is_empty and seats[p].invited_id in (None, invitation.invitee_id)]
    return free[0] if free else None


@transaction.atomic
def follow(*, user: User, username: str, following: bool = True) -> User:
    """Follow a player (a friend: offered first when inviting, listed with friends in common), or stop."""
    other = User.objects.filter(username__iexact=str(username).strip()).first()
    if other is None or other.pk == user.pk:
        raise TableError(_("No such player."), code="missing")
    if following:
        if not Follow.objects.filter(user=user, followed=other).exists():
            _within_follow_rate(user)
            Follow.objects.get_or_create(user=user, followed=other)
    else:
        Follow.objects.filter(user=user, followed=other).delete()
    return other


@transaction.atomic
def block(*, user: User, username: str, blocked: bool = True) -> User:
    """Block a player (their invitations stop, their chat is hidden, Play now keeps you apart), or unblock."""
    other = User.objects.filter(username__iexact=str(username).strip()).first()
    if other is None or other.pk == user.pk:
        raise TableError(_("No such player."), code="missing")
    if blocked:
        if not Block.objects.filter(user=user, blocked=other).exists():
            _within_follow_rate(user)
        Block.objects.get_or_create(user=user, blocked=other)
        ChatMute.objects.get_or_create(user=user, muted=other)
        Invitation.objects.filter(invitee=user, inviter=other, answer=Invitation.Answer.PENDING).update(
            answer=Invitation.Answer.DECLINED
        )
    else:
        Block.objects.filter(user=user, blocked=other).delete()
        ChatMute.objects.filter(user=user, muted=other).delete()
    return other


def _within_follow_rate(user: User) -> None:
    """New follows and blocks together, at most ``FEMKORT_FOLLOW_RATE`` (count/seconds): their rows
    are what a script could pile up; undoing one is never limited."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # follows made at once count one by one
    count, seconds = settings.FEMKORT_FOLLOW_RATE
    since = timezone.now() - timedelta(seconds=seconds)
    made = Follow.objects.filter(user=user, created__gte=since).count()
    made += Block.objects.filter(user=user, created__gte=since).count()
    if made >= count:
        raise TableError(_("Too many follows and blocks at once; try again in a few minutes."), code="follow_rate")
