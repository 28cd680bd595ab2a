"""Browser tests: Playwright drives the system's Chromium (Debian's package) against a real
daphne on 127.0.0.1, in production mode, on a database of its own.

Without Chromium they skip with the command that installs it; under CI they fail instead
(``.ci/run`` installs it, so CI never skips them).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from playwright.sync_api import expect

from tests.servers import daphne, manage, production_env

from .pages import WAIT_MS, Player

# An expectation waits for its event as long as a page action may (Playwright's default is 5 s):
# CI runs beside other work, and a slow moment must not read as a missing element.
expect.set_options(timeout=WAIT_MS)

CHROMIUM = os.environ.get("FEMKORT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = {"width": 360, "height": 740}
TALL_PHONE = {"width": 390, "height": 844}  # the phone the pictures in docs/screenshots are taken on
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def chromium() -> str:
    if not CHROMIUM:
        message = "browser tests need Chromium: `sudo apt install chromium`, or set FEMKORT_CHROMIUM to its path"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="module")
def browser(chromium, site):
    """Chromium for one module. Playwright's sync API keeps an event loop running in this
    thread while it is open, which Django's ORM and the async tests refuse: it must be
    closed before other modules run (and opened after ``site`` set up its database)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Chromium's sandbox needs user namespaces, which a root or container session lacks.
        args = ["--no-sandbox"] if os.geteuid() == 0 or os.environ.get("CI") else []
        browser = playwright.chromium.launch(executable_path=chromium, args=args)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def site(chromium, tmp_path_factory, django_db_setup, django_db_blocker) -> Iterator[str]:
    """The site as docs/deployment.md runs it, with quick computers and a short
    pause after each trick (long enough to see, short enough for whole sessions), and the chat
    limit's window an hour long, so a slow machine still types six lines inside it."""
    workdir = tmp_path_factory.mktemp("browser-site")
    with django_db_blocker.unblock():
        url = own_database(workdir, "browser")
    env = production_env(
        workdir / "static",
        DATABASE_URL=url,
        FEMKORT_COMPUTER_PAUSE="0.05",
        FEMKORT_TRICK_PAUSE_SECONDS="0.4",
        FEMKORT_REDEAL_WINDOW_SECONDS="0",
        FEMKORT_CHAT_RATE="5/3600",  # the limit holds however slowly the machine types
        # Reviews are computed when a test asks (``reviews_computed``), not beside every test's play:
        # the server's own background reviews are tested in tests/site/test_reviews.py.
        FEMKORT_TASK_WORKERS="0",
        FEMKORT_TOURNAMENT_WORKERS="0",  # the tournaments' tests start servers with their own
    )
    manage("migrate", "--noinput", env=env)
    manage("collectstatic", "--noinput", env=env)
    _SITE_ENV.update(env)
    with daphne(env) as base:
        yield base
    with django_db_blocker.unblock():
        drop_database(url)


_SITE_ENV: dict[str, str] = {}


@contextmanager
def site_beside(workdir: Path, name: str, django_db_blocker, **extra: str) -> Iterator[str]:
    """Another server as ``site`` runs, with settings of its own (``extra``) and a database of its
    own, for tests that need a setting the other modules must not have, or a lobby nobody else uses."""
    with django_db_blocker.unblock():
        url = own_database(workdir, name)
    env = _SITE_ENV | {"DATABASE_URL": url, **extra}
    manage("migrate", "--noinput", env=env)
    try:
        with daphne(env) as base:
            yield base
    finally:
        with django_db_blocker.unblock():
            drop_database(url)


@pytest.fixture
def reviews_computed(site):
    """Compute one session's queued reviews now, with ``manage.py reviews_run`` beside the server."""

    def compute(session_id: int) -> None:
        manage("reviews_run", "--session", str(session_id), env=_SITE_ENV)

    return compute


def own_database(workdir: Path, suffix: str) -> str:
    """A fresh database for a server: the browser's players and tables are the server's alone. Its
    name is the test database's (``site`` asks for ``django_db_setup``), so that each pytest-xdist
    worker has its own: named after the real database, two workers would drop each other's."""
    if connection.vendor != "postgresql":
        return f"sqlite:///{workdir}/{suffix}.sqlite3"
    url = urlsplit(os.environ["DATABASE_URL"])
    assert connection.settings_dict["NAME"].startswith("test_"), "the test database is not set up yet"
    name = f"{connection.settings_dict['NAME']}_{suffix}"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(url._replace(path="/" + name))


def drop_database(url: str) -> None:
    if url.startswith("postgres"):
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path[1:]}" WITH (FORCE)')


@pytest.fixture
def player(site, browser) -> Iterator:
    """A new player, signed up, in a phone-sized window; ``player.another()`` makes more."""
    made: list[Player] = []

    def make(viewport: dict = PHONE, locale: str = "en-GB") -> Player:
        context = browser.new_context(viewport=viewport, base_url=site, locale=locale)
        made.append(Player.sign_up(context, f"p{os.getpid()}x{_count()}"))
        return made[-1]

    yield make
    for someone in made:
        someone.page.context.close()


_made = 0


def _count() -> int:
    global _made
    _made += 1
    return _made


def pytest_collection_modifyitems(items) -> None:
    """Every browser test drives Chromium against a server of its own: slow."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.slow)


README_PHONE = {"width": 390, "height": 844}  # the README's pictures of a phone
SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save the README's pictures there


def picture(page, name: str) -> None:
    """The page on a phone, for the README (only when ``FEMKORT_SCREENSHOTS`` names a folder)."""
    if SHOTS:
        page.set_viewport_size(README_PHONE)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)
        page.set_viewport_size(DESKTOP)


def rows_of(url: str, sql: str, *args: object) -> list[tuple]:
    """What a server's own database says (the test reads it, as an operator would)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db, db.cursor() as cursor:
        cursor.execute(sql, args)
        return cursor.fetchall()


def until(check, page, *, seconds: float = 120) -> None:
    """Wait for ``check`` to hold, looking again every 0.3 s, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it did not happen in time"
        page.wait_for_timeout(300)
