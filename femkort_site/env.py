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
        return {"ENGINE": ENGINES["sqlite"], "NAME": unquote(parts.path[1:]) or ":memory:"}
    return {
        "ENGINE": ENGINES[parts.scheme],
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "OPTIONS": dict(parse_qsl(parts.query)),
        # Under ASGI each request may run in another thread; Django advises short-lived connections.
        "CONN_MAX_AGE": int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
        "CONN_HEALTH_CHECKS": True,
    }
