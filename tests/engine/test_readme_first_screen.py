"""The README's first screen says what the site plays and how to run it on another port."""

from pathlib import Path

from games.engine import GAMES

FIRST_SCREEN = "\n".join(Path(__file__).resolve().parents[2].joinpath("README.md").read_text().splitlines()[:15])


def test_the_first_screen_names_every_game():
    missing = [game.title for game in GAMES.values() if game.on_site and game.title not in FIRST_SCREEN]
    assert missing == []


def test_the_first_screen_says_how_to_pick_the_port():
    assert "make run PORT=" in FIRST_SCREEN
