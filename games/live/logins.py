"""A socket's login must hold as long as the socket does, not only when it opened.

A websocket is authenticated once, at its handshake; logging out, changing the password or an
admin deactivating the account would leave it playing and chatting. So every action a socket
takes checks the login again, as Django checks it on every request (the session still there,
its password hash still the account's, the account still active), and the account's own
changes tell its open sockets to check at once (a group per player, ``broadcast.login_changed``).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model, user_logged_out
from django.contrib.sessions.models import Session
from django.db import connections
from django.db.models.signals import post_save, pre_save
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from games.announcements import login_changed

DATABASE_SESSIONS = "django.contrib.sessions.backends.db"
SIGNED_OUT = 4401  # the close code a page gets when its login no longer holds


def login_holds(session_key: str | None, user_id: int) -> bool:
    """Is ``session_key`` still a login of ``user_id``, as Django's own ``get_user`` would say?
    The session and the account's password hash and active flag: with database sessions (the
    default) in one statement, as every move asks it."""
    if not session_key:
        return False
    users = get_user_model()._default_manager
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if settings.SESSION_ENGINE == DATABASE_SESSIONS:
        connection = connections[Session.objects.db]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(_session_and_password_sql(), [user_id, session_key, now])
            row = cursor.fetchone()
        if row is None:
            return False
        data, user = store().decode(row[0]), get_user_model()(pk=user_id, password=row[1])
    else:
        data = store(session_key).load()
        user = users.filter(pk=user_id, is_active=True).only("password").first()
        if user is None:
            return False
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    stored = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(stored, expected) for expected in hashes)


@cache
def _session_and_password_sql() -> str:
    """The session's data and its account's password hash if the session is live and the account
    active: one statement written once (building it with the ORM was 7% of a busy server's CPU).
    Parameters: the user's id, the session key, now."""
    quote = connections[Session.objects.db].ops.quote_name
    user_model = get_user_model()
    users, sessions = quote(user_model._meta.db_table), quote(Session._meta.db_table)
    pk = quote(user_model._meta.pk.column)
    return (
        f"SELECT s.{quote('session_data')}, u.{quote('password')} FROM {sessions} s"
        f" JOIN {users} u ON u.{pk} = %s AND u.{quote('is_active')}"
        f" WHERE s.{quote('session_key')} = %s AND s.{quote('expire_date')} > %s"
    )


def _logged_out(sender, request, user, **kwargs) -> None:
    if user is not None and request is not None:
        login_changed(user.pk, request.session.session_key)


def _note_login_fields(sender, instance, update_fields=None, **kwargs) -> None:
    """Before an account is saved: will its password or active flag change? (Other saves, such as
    ``last_login`` at every login, cost nothing.)"""
    instance._login_changed = False
    if instance.pk is None or (update_fields is not None and not {"password", "is_active"} & set(update_fields)):
        return
    before = sender._default_manager.filter(pk=instance.pk).values_list("password", "is_active").first()
    instance._login_changed = before is not None and before != (instance.password, instance.is_active)


def _tell_sockets(sender, instance, created=False, **kwargs) -> None:
    if getattr(instance, "_login_changed", False):
        instance._login_changed = False
        login_changed(instance.pk)


def watch_logins() -> None:
    """Connected once, when the app is ready (Django's own hooks for logout and account changes)."""
    user_model = get_user_model()
    user_logged_out.connect(_logged_out, dispatch_uid="live-sockets-logout")
    pre_save.connect(_note_login_fields, sender=user_model, dispatch_uid="live-sockets-login-fields")
    post_save.connect(_tell_sockets, sender=user_model, dispatch_uid="live-sockets-login-changed")
