"""The open bot protocol and the arena: external programs play, faults are counted, figures add up."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from games.bots.arena import ArenaResult, run_arena

ROOT = Path(__file__).resolve().parents[2]


def bot(tmp_path: Path, name: str, answer: str, *, on_bye: str = "") -> str:
    """A tiny external bot: ``answer`` is a Python expression over the turn message ``m``."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys, time
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "bye":
                    {on_bye or "pass"}
                    break
                print({answer}, flush=True)
            """
        )
    )
    return f"cmd:{sys.executable} {script}"


def test_an_external_bot_plays_a_match_and_hears_goodbye(tmp_path):
    marker = tmp_path / "bye.txt"
    hero = bot(
        tmp_path, "first", 'json.dumps({"card": m["legal"][0]})', on_bye=f"open({str(marker)!r}, 'w').write('bye')"
    )
    result = run_arena(game="femkort", players=4, deals=8, seed=3, hero=hero, field="easy")
    assert result.faults == 0
    assert len(result.decision_seconds) == 8 * 5
    assert marker.read_text() == "bye"


def test_an_external_bot_bids_and_plays_nap_from_its_actions(tmp_path):
    hero = bot(tmp_path, "bidder", 'json.dumps({"action": m["actions"][-1]})')
    result = run_arena(game="nap", players=4, deals=8, seed=3, hero=hero, field="easy")
    assert result.faults == 0
    assert result.decision_seconds


def test_the_turn_message_follows_the_protocol(tmp_path):
    log = tmp_path / "turns.jsonl"
    hero = bot(
        tmp_path,
        "logger",
        f'(open({str(log)!r}, "a").write(line), json.dumps({{"card": m["legal"][-1]}}))[1]',
    )
    run_arena(game="letzter_stich", players=3, deals=1, seed=1, hero=hero, field="medium")
    turns = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(turns) == 8
    first = turns[0]
    assert set(first) == {
        "type",
        "game",
        "options",
        "players",
        "seat",
        "dealer",
        "hand",
        "legal",
        "tricks",
        "trick",
        "scores",
        "actions",
        "calls",
        "upcard",
        "seats",
        "areas",
    }
    assert first["type"] == "turn"
    counts = [seat["in_hand"] for seat in first["seats"]]  # the view's seats: counts, never cards
    assert counts[first["seat"]] == len(first["hand"]) == 8
    assert set(counts) <= {7, 8}
    assert {area["kind"] for area in turns[1]["areas"]} <= {"trick"}
    assert first["game"] == "letzter_stich"
    assert first["players"] == 3
    assert len(first["hand"]) == 8
    assert set(first["legal"]) <= set(first["hand"])
    assert first["scores"] == [0, 0, 0]
    assert all(len(t["cards"]) == 3 and t["winner"] in (0, 1, 2) for t in turns[-1]["tricks"])
    assert len(turns[-1]["tricks"]) == 7


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        ("illegal", 'json.dumps({"card": "ZZ"})'),
        ("not_legal", 'json.dumps({"card": next(c for c in ["AS", "2H"] if c not in m["legal"])})'),
        ("garbage", '"this is not json"'),
        ("slow", '(time.sleep(1), json.dumps({"card": m["legal"][0]}))[1]'),
    ],
)
def test_faults_are_played_for_and_counted(tmp_path, name, answer):
    hero = bot(tmp_path, name, answer)
    result = run_arena(game="femkort", players=3, deals=1, seed=2, hero=hero, field="easy", timeout=0.3)
    assert result.faults == len(result.decision_seconds) == 5


def test_a_bot_that_dies_faults_every_later_decision(tmp_path):
    hero = bot(tmp_path, "quitter", "(sys.exit(0))")
    result = run_arena(game="femkort", players=3, deals=2, seed=2, hero=hero, field="easy", timeout=0.3)
    assert result.faults == 10


def test_arena_arithmetic_on_a_rigged_result():
    result = ArenaResult(
        game="femkort",
        hero="strong",
        field="medium",
        players=4,
        deals=100,
        score=30,
        decision_seconds=[i / 1000 for i in range(1, 101)],
    )
    data = result.as_json()
    assert data["hero_win_rate"] == 0.3
    assert data["fair_share"] == 0.25
    assert data["multiple"] == 1.2
    assert data["ci95"] == [round(0.3 - 1.96 * (0.21 / 100) ** 0.5, 4), round(0.3 + 1.96 * (0.21 / 100) ** 0.5, 4)]
    assert data["decision_ms"] == {"p50": 50.5, "p95": 95.0, "max": 100.0}
    stich = ArenaResult(game="letzter_stich", hero="a", field="b", players=3, deals=10, score=2).as_json()
    assert stich["hero_tokens_lost_per_deal"] == 0.2
    assert "hero_win_rate" not in stich


def test_arena_command_line_prints_json_and_is_repeatable():
    command = [sys.executable, "-m", "games.bots", "arena", "--players", "3", "--deals", "30"]
    command += ["--seed", "5", "--hero", "medium", "--field", "easy", "--json"]
    runs = [json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout)]
    runs.append(json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout))
    for run in runs:
        run.pop("decision_ms")
    assert runs[0] == runs[1]
    assert runs[0]["deals"] == 30
    assert 0 <= runs[0]["hero_win_rate"] <= 1


def test_arena_refuses_unknown_players():
    done = subprocess.run(
        [sys.executable, "-m", "games.bots", "arena", "--hero", "genius"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "unknown player" in done.stderr


def test_the_documented_example_bot_plays_without_faults():
    hero = f"cmd:{sys.executable} {ROOT / 'tools' / 'example_bot.py'}"
    result = run_arena(game="femkort", players=4, deals=4, seed=9, hero=hero, field="medium")
    assert result.faults == 0
    bots_doc = (ROOT / "docs" / "bots.md").read_text()
    assert (ROOT / "tools" / "example_bot.py").read_text().strip() in bots_doc
