"""Settings from the environment, production checks, and the real services CI runs against."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from femkort_site.env import database_from_url

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE_URL", "REDIS_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_postgres_url_is_parsed():
    db = database_from_url("postgres://anna:p%40ss@db.local:5433/femkort?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "anna",
        "p@ss",
        "db.local",
        "5433",
        "femkort",
    )
    assert db["OPTIONS"]["sslmode"] == "require"


def test_unknown_database_scheme_is_refused():
    with pytest.raises(ValueError, match="scheme"):
        database_from_url("mongodb://localhost/x")


def production(**env: str) -> dict[str, str]:
    """The environment of a complete production setup, with ``env`` added or overriding."""
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "x7" * 20 + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "femkort.example",
        "DJANGO_EMAIL_HOST": "smtp.femkort.example",
    } | env


def test_production_mode_passes_the_deploy_checks():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **production())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_deploy_checks_pass_behind_a_proxy_that_redirects_to_https():
    done = manage("check", "--deploy", "--fail-level", "WARNING", **production(DJANGO_SECURE_SSL_REDIRECT="0"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 silenced" in done.stdout


def test_only_the_proxy_setup_silences_the_redirect_warning():
    show = "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, s.SILENCED_SYSTEM_CHECKS)"
    assert manage("shell", "-c", show, **production()).stdout.split("\n")[-2] == "True []"
    done = manage("shell", "-c", show, **production(DJANGO_SECURE_SSL_REDIRECT="0"))
    assert done.stdout.split("\n")[-2] == "False ['security.W008']"


def test_production_mode_refuses_to_start_without_mail_settings():
    env = production()
    del env["DJANGO_EMAIL_HOST"]
    done = manage("check", **env)
    assert done.returncode != 0
    assert "DJANGO_EMAIL_HOST" in done.stderr


def test_mail_settings_come_from_the_environment():
    show = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, "
        "s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL)"
    )
    done = manage(
        "shell",
        "-c",
        show,
        **production(
            DJANGO_EMAIL_PORT="2525",
            DJANGO_EMAIL_HOST_USER="mailer",
            DJANGO_EMAIL_HOST_PASSWORD="pw",
            DJANGO_EMAIL_USE_TLS="0",
            DJANGO_DEFAULT_FROM_EMAIL="Femkort <noreply@femkort.example>",
        ),
    )
    assert done.stdout.split("\n")[-2] == (
        "django.core.mail.backends.smtp.EmailBackend smtp.femkort.example 2525 mailer pw False "
        "Femkort <noreply@femkort.example>"
    )


def test_console_mail_in_production_is_a_loud_warning():
    env = production(DJANGO_EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
    del env["DJANGO_EMAIL_HOST"]
    done = manage("check", **env)
    assert done.returncode == 0, done.stderr  # it starts, but says so
    assert "femkort.W001" in done.stderr
    assert "mail goes to the server log" in done.stderr
    assert manage("check", "--deploy", "--fail-level", "WARNING", **env).returncode != 0


def test_console_mail_is_fine_in_development():
    done = manage("check", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "femkort.W001" not in done.stdout + done.stderr


def test_production_mode_requires_a_secret_key():
    done = manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="femkort.example")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr


def test_the_embedded_default_is_sqlite_and_in_memory_channels():
    done = manage(
        "shell", "-c", "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'], s.DEBUG)"
    )
    assert done.stdout.split()[-2:] == ["django.db.backends.sqlite3", "True"]


@pytest.mark.django_db
def test_database_in_use_is_the_one_configured():
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected


def test_channel_layer_is_the_one_configured():
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if os.environ.get("REDIS_URL"):
        assert backend == "channels_redis.core.RedisChannelLayer"
    else:
        assert backend == "channels.layers.InMemoryChannelLayer"


async def test_channel_layer_round_trip():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "table.changed", "seq": 7})
    assert (await layer.receive(channel))["seq"] == 7


async def test_redis_channel_layer_round_trip():
    """Needs Redis: fails under CI=true when unreachable, skips only on a developer machine without it."""
    from channels_redis.core import RedisChannelLayer

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    layer = RedisChannelLayer(hosts=[url])
    try:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "table.changed", "seq": 3})
        message = await layer.receive(channel)
    except OSError as error:
        if os.environ.get("CI"):
            pytest.fail(f"Redis at {url} is unreachable under CI: {error}")
        pytest.skip(f"no Redis at {url} on this machine: {error}")
    finally:
        await layer.flush()
    assert message["seq"] == 3


@pytest.mark.parametrize(
    ("count", "expected"),
    [("", "0 None"), ("1", "1 ('HTTP_X_FORWARDED_PROTO', 'https')")],
)
def test_proxy_headers_are_trusted_only_when_a_proxy_is_configured(count, expected):
    show = "from django.conf import settings as s; print(s.PROXY_COUNT, getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    env = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "example.org"}
    env |= {"DJANGO_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"}
    done = manage("shell", "-c", show, **env, **({"DJANGO_PROXY_COUNT": count} if count else {}))
    assert done.stdout.split("\n")[-2] == expected
