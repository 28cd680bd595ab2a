"""A control character (NUL above all) in a URL path answers 404 before any view or query sees it."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/players/a%00b/",
        "/players/%00/",
        "/players/a%0Ab/",
        "/players/a%1Fb/",
        "/players/a%7Fb/",
        "/sessions/1%00/",
        "/deals/1%00/replay/",
        "/accounts/reset/a%00/b/",
        "/%00",
    ],
)
def test_control_characters_in_a_path_answer_404(client, players, path, django_assert_num_queries):
    """On PostgreSQL a NUL reaching a query is an error (500); SQLite merely finds nothing: no query at all."""
    client.force_login(players[0])
    with django_assert_num_queries(0):
        assert client.get(path).status_code == 404


def test_ordinary_player_pages_still_answer(client, players):
    assert client.get("/players/anna/").status_code == 200
    assert client.get("/players/nobody/").status_code == 404
