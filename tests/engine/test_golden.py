"""Golden transcripts: each game's seeded session (its first deals, every action, each outcome and
score) as kept in ``tests/engine/golden``. A change to the rules that touches those deals fails here
with the diff; if the change is meant, ``python -m games.engine golden --write`` writes them anew
and the diff goes into the commit for review."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import GAMES
from games.engine.__main__ import GOLDEN, golden_diff
from games.engine.__main__ import main as engine_main
from games.engine.transcript import transcript


def test_the_golden_transcripts_live_in_the_tests():
    assert Path(__file__).parent / "golden" == GOLDEN


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_plays_its_golden_session_as_kept(name):
    path = GOLDEN / f"{name}.txt"
    assert path.exists(), f"no transcript of {name}: python -m games.engine golden --write"
    kept, now = path.read_text(), transcript(GAMES[name])
    assert kept == now, "the rules play this game's golden session otherwise:\n" + "".join(golden_diff(kept, now, name))


def test_every_transcript_kept_is_of_a_game():
    """A game renamed leaves its old transcript behind: it must go (the new name's is written)."""
    assert {path.stem for path in GOLDEN.glob("*.txt")} == set(GAMES)


def test_the_command_says_what_differs_and_writes_them_anew(tmp_path, capsys):
    name = next(iter(GAMES))
    assert engine_main(["golden", "--dir", str(tmp_path), "--write"]) == 0
    capsys.readouterr()
    assert engine_main(["golden", "--dir", str(tmp_path)]) == 0
    assert f"{name}: same" in capsys.readouterr().out.splitlines()
    kept = tmp_path / f"{name}.txt"
    kept.write_text(kept.read_text().replace("seat 0:", "seat 9:", 1))
    (tmp_path / "no-such-game.txt").write_text("")
    assert engine_main(["golden", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{name}: differs" in out
    assert "-  seat 9:" in out
    assert "+  seat 0:" in out
    assert "no-such-game.txt: no game of that name" in out
