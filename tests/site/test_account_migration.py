"""Migrating a database that already holds clashing display names and emails must not fail."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0002_user_display_name")]
AFTER = [("accounts", "0004_display_name_and_email_unique")]


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_clashes_are_settled_before_the_constraints_are_added():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    OldUser = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    for username, display_name, email in [
        ("anna", "Queen", "anna@example.com"),
        ("bo", " queen ", "ANNA@example.com"),  # same name and email as anna, who came first
        ("cleo", "Anna", "cleo@example.com"),  # anna's username
        ("dag", "astrid", ""),  # a computer's name
        ("gus", "GUS  the   Great", ""),  # untidy spacing
        ("hal", "Hal (computer, easy)", "hal@example.com"),
        ("ivy", "IVY", "ivy@example.com"),  # her own username: fine
    ]:
        OldUser.objects.create(username=username, display_name=display_name, email=email)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    User = executor.loader.project_state(AFTER).apps.get_model("accounts", "User")
    found = {user.username: (user.display_name, user.email) for user in User.objects.all()}
    assert found == {
        "anna": ("Queen", "anna@example.com"),
        "bo": ("", ""),
        "cleo": ("", "cleo@example.com"),
        "dag": ("", ""),
        "gus": ("GUS the Great", ""),
        "hal": ("", "hal@example.com"),
        "ivy": ("IVY", "ivy@example.com"),
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_skeletons_are_filled_and_lookalike_or_blank_display_names_cleared():
    from accounts.names import skeleton

    before = [("accounts", "0007_throttle")]
    after = [("accounts", "0008_name_skeletons")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    OldUser = executor.loader.project_state(before).apps.get_model("accounts", "User")
    for username, display_name in [
        ("p1", ""),
        ("anna", "Cleo (\u0441omputer, medium)"),  # a Cyrillic es: a computer's seat
        ("bo", "\u04401"),  # a Cyrillic er: p1's username
        ("cy", "\u3164"),  # a Hangul filler: nothing to see
        ("dee", "Queen"),
        ("eve", "Qu\u0435\u0435n"),  # Cyrillic ie: dee came first
        ("fay", "Al\u200dice"),  # a joiner between Latin letters joins nothing
        ("gus", "\u0440us"),  # his own username in other letters: fine
    ]:
        OldUser.objects.create(username=username, display_name=display_name)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    User = executor.loader.project_state(after).apps.get_model("accounts", "User")
    found = {user.username: user.display_name for user in User.objects.all()}
    assert found == {
        "p1": "",
        "anna": "",
        "bo": "",
        "cy": "",
        "dee": "Queen",
        "eve": "",
        "fay": "Alice",
        "gus": "\u0440us",
    }
    for user in User.objects.all():
        assert user.username_skeleton == skeleton(user.username)
        assert user.display_name_skeleton == (skeleton(user.display_name) if user.display_name else "")
