"""Reading settings from the environment: a database URL, a flag, a list."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


def flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def words(name: str, default: str = "") -> list[str]:
    return [word.strip() for word in os.environ.get(name, default).split(",") if word.strip()]


def database_from_url(url: str) -> dict[str, Any]:
    """``postgres://user:password@host:port/name?sslmode=require`` or ``sqlite:///path``."""
    parts = urlsplit(url)
    if parts.scheme not in ENGINES:
        raise ValueError(f"DATABASE_URL scheme must be one of {', '.join(ENGINES)}, not {parts.scheme!r}")
    if parts.scheme == "sqlite":
        return sqlite_database(unquote(parts.path[1:]) or ":memory:")
    database = {
        "ENGINE": ENGINES[parts.scheme],
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": dict(parse_qsl(parts.query)),
        "CONN_MAX_AGE": int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
    }
    # Under ASGI every request and websocket job may run in another thread, so persistent
    # per-thread connections would leak; a pool shared by the threads keeps connections open
    # instead. DJANGO_DB_POOL=0 turns it off (DJANGO_CONN_MAX_AGE then applies).
    pool_size = int(os.environ.get("DJANGO_DB_POOL", "20"))
    if pool_size > 0:
        database["CONN_MAX_AGE"] = 0
        database["OPTIONS"]["pool"] = {"min_size": 2, "max_size": pool_size, "timeout": 10}
    return database


def sqlite_database(name: str | os.PathLike) -> dict[str, Any]:
    """SQLite with every transaction taking the write lock at its start (``BEGIN IMMEDIATE``) and
    waiting up to 20 s for it: the live driver's computer moves and a request's own writes then
    queue instead of one failing with "database is locked" (a deferred transaction that reads
    first cannot wait its turn when it comes to write)."""
    return {
        "ENGINE": ENGINES["sqlite"],
        "NAME": name,
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }


def redis_host(url: str) -> dict[str, Any]:
    """channels-redis host options that keep idle websockets open and fail fast when Redis is down.

    channels-redis waits for messages with a 5-second blocking pop; redis-py's default socket
    timeout is also 5 s, so an idle consumer's read timed out and its socket closed. The read
    timeout must be longer than the blocking pop; a short connect timeout and a single retry
    make an outage an error at once instead of a stall.
    """
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    return {
        "address": url,
        # A pooled connection that died while Redis was away is replaced once, at once.
        "retry": Retry(NoBackoff(), 1),
        "retry_on_error": [RedisConnectionError],
        "socket_timeout": 15,
        "socket_connect_timeout": 2,
        "socket_keepalive": True,
        "health_check_interval": 30,
        "max_connections": 1000,  # past this redis-py refuses commands; 100 ran out when many sockets closed at once
    }
