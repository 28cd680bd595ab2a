import os
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def _redis_of_this_worker() -> None:
    """Under pytest-xdist (``-n``) each worker has a test database of its own, so table ids repeat
    across workers, and so would their channel groups: worker N uses Redis database base + N, and
    so do the servers it starts (they take ``REDIS_URL`` from this process's environment)."""
    from django.conf import settings as django_settings

    from femkort_site.env import redis_host

    worker, url = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("REDIS_URL", "")
    if not url or not worker.startswith("gw") or int(worker[2:]) == 0:
        return
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + int(worker[2:])
    url = urlunsplit(parts._replace(path=f"/{number}"))
    os.environ["REDIS_URL"] = django_settings.REDIS_URL = url
    django_settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [redis_host(url)]


_redis_of_this_worker()
# The servers tests start run no task workers unless a test asks (they would take the tests' tasks).
os.environ.setdefault("FEMKORT_TASK_WORKERS", "0")
os.environ.setdefault("FEMKORT_TOURNAMENT_WORKERS", "0")


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, password: str = "a-long-test-password-42", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("anna", "bjorn", "cecilia")]


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing costs most of a second per user; tests do not need it to be slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def computers_without_pause(settings):
    settings.COMPUTER_PAUSE_SECONDS = 0
    settings.FEMKORT_TRICK_PAUSE_SECONDS = 0
    settings.FEMKORT_SWEEP_SECONDS = 0  # the sweep's own tests turn it on; elsewhere it would act between steps
    settings.FEMKORT_TASK_WORKERS = 0  # tasks run where a test runs them (tests/site/test_task_queue.py)
    settings.FEMKORT_TOURNAMENT_WORKERS = 0


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test runs in its own event loop; a channel layer (and its locks) must not outlive it."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_table_memory():
    """Snapshots and rendered pieces are keyed by table id and seq; a rolled-back test database reuses ids."""
    from games import snapshots, table_html

    snapshots.forget_all()
    table_html.forget_all()
    yield
    snapshots.forget_all()
    table_html.forget_all()


class Clock:
    """``timezone.now`` under the test's control: time is advanced, never slept."""

    def __init__(self, monkeypatch):
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


@pytest.fixture(autouse=True)
def language_left_as_found():
    """A test that activates a language (a request's middleware, a translation test) leaves the
    default active after it, so the next test in the same worker reads English refusals."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture
def in_english():
    """Refusals matched in English, whatever language an earlier test left active."""
    from django.utils import translation

    with translation.override("en"):
        yield
