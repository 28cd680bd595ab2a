"""The embedded default (SQLite) under its own computer players: a transaction takes the write
lock as it begins and waits for it, so a request and the live driver queue instead of one of
them failing with "database is locked" (a deferred transaction that read first cannot wait)."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connections, transaction

from femkort_site.env import database_from_url, sqlite_database
from tests.site.test_settings import manage


@pytest.fixture
def site_sqlite(tmp_path, django_db_blocker):
    """A connection configured exactly as the site configures SQLite, on a file of its own."""
    path = tmp_path / "site.sqlite3"
    configured = connections.configure_settings({"default": {}, "sqlite_as_the_site": sqlite_database(path)})
    connections.settings["sqlite_as_the_site"] = configured["sqlite_as_the_site"]
    with django_db_blocker.unblock():
        with connections["sqlite_as_the_site"].cursor() as cursor:
            cursor.execute("CREATE TABLE deals (number integer)")
        yield path, connections["sqlite_as_the_site"]
        connections["sqlite_as_the_site"].close()
    del connections["sqlite_as_the_site"]
    del connections.settings["sqlite_as_the_site"]


def test_a_transaction_that_only_read_so_far_already_holds_the_write_lock(site_sqlite):
    path, site = site_sqlite
    other = sqlite3.connect(path, timeout=0, isolation_level=None)  # another process, not waiting at all
    try:
        with transaction.atomic(using="sqlite_as_the_site"):
            site.cursor().execute("SELECT count(*) FROM deals").fetchone()
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")  # so nobody else starts writing under it
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO deals VALUES (1)")
        other.execute("COMMIT")
    finally:
        other.close()


def test_a_writer_waits_its_turn_for_the_lock(site_sqlite):
    _, site = site_sqlite
    assert site.cursor().execute("PRAGMA busy_timeout").fetchone()[0] == 20_000


def test_every_sqlite_the_site_opens_is_configured_so():
    assert database_from_url("sqlite:///tmp/x.sqlite3")["OPTIONS"] == sqlite_database("x")["OPTIONS"]
    show = "from django.db import connection as c; print(c.settings_dict['OPTIONS'])"
    assert manage("shell", "-c", show).stdout.strip().endswith("{'transaction_mode': 'IMMEDIATE', 'timeout': 20}")
