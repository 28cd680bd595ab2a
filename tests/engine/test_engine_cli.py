"""``python -m games.engine``: the exact interface other tools depend on."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = {
    "game": "femkort",
    "options": {"profile": "modern", "trump": None},
    "dealer": 2,
    "hands": [["8H", "2C", "3C", "4C", "5C"], ["QH", "3H", "2D", "3D", "4D"], ["AS", "KS", "QS", "JS", "TS"]],
    "plays": ["8H", "QH", "AS", "3H", "KS", "2C", "2D", "QS", "3C", "3D", "JS", "4C", "4D", "TS", "5C"],
}


def engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_perft_prints_the_count_as_its_last_line():
    hands = "AS,KS,QS,JS,TS/2H,3H,4H,5H,6H/2C,3C,4C,5C,6C/2D,3D,4D,5D,6D"
    done = engine("perft", "--game", "femkort", "--leader", "0", "--depth", "8", "--hands", hands)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == str(5**4 * 4**4)


def test_perft_profile_and_trump_flags():
    hands = "2H,4H,5H,6H,7H/2S,3S,2C,3C,4C/3H,TH,2D,3D,4D"
    base = ["perft", "--game", "femkort", "--leader", "0", "--depth", "3", "--hands", hands]
    assert engine(*base).stdout.split()[-1] == "30"
    assert engine(*base, "--profile", "classic").stdout.split()[-1] == "50"
    assert engine(*base, "--trump", "S").stdout.split()[-1] == "38"


def test_perft_letzter_stich():
    hands = "9S,TS,JS,QS,KS,AS,9H,TH/JH,QH,KH,AH,9D,TD,JD,QD/KD,AD,9C,TC,JC,QC,KC,AC"
    done = engine("perft", "--game", "letzter_stich", "--leader", "0", "--depth", "2", "--hands", hands)
    assert done.stdout.split()[-1] == "56"


def test_perft_bad_hands_exit_2_with_a_message():
    done = engine("perft", "--game", "femkort", "--leader", "0", "--depth", "2", "--hands", "AS,KS/ZZ")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip()


def test_replay_a_complete_deal():
    done = engine("replay", stdin=json.dumps(RECORD))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] == 1
    assert result["tricks"][0] == {"leader": 0, "cards": ["8H", "QH", "AS"], "winner": 1}
    assert len(result["tricks"]) == 5


def test_replay_of_an_unfinished_deal_has_no_winner():
    done = engine("replay", stdin=json.dumps({**RECORD, "plays": RECORD["plays"][:4]}))
    result = json.loads(done.stdout)
    assert "winner" not in result
    assert result["tricks"][1] == {"leader": 1, "cards": ["3H"], "winner": None}


def test_replay_illegal_play_exits_1_naming_the_rule():
    done = engine("replay", stdin=json.dumps({**RECORD, "plays": ["8H", "3H"]}))
    assert done.returncode == 1
    error = json.loads(done.stdout)
    assert error["error"] == "illegal_play"
    assert error["index"] == 1
    assert error["seat"] == 1
    assert error["card"] == "3H"
    assert error["legal"] == ["QH"]
    assert "overtake" in error["message"]


def test_replay_letzter_stich_settles_tokens():
    record = {
        "game": "letzter_stich",
        "options": {},
        "dealer": 0,
        "hands": [
            ["QS", "JS", "TS", "QH", "JH", "TH", "QD", "JD"],
            ["AS", "KS", "AH", "KH", "AD", "KD", "AC", "KC"],
            ["9S", "8S", "7S", "9H", "8H", "7H", "TD", "9D"],
            ["8D", "7D", "QC", "JC", "TC", "9C", "8C", "7C"],
        ],
        "plays": [],
        "tokens": [5, 5, 4, 5],
        "pot": 1,
    }
    plays = []
    lead_order = ["AS", "KS", "AH", "KH", "AD", "KD", "AC", "KC"]
    hands = [list(h) for h in record["hands"]]
    for lead in lead_order:
        trick = [lead]
        hands[1].remove(lead)
        for seat in (2, 3, 0):
            same = [c for c in hands[seat] if c[1] == lead[1]]
            card = (same or hands[seat])[0]
            hands[seat].remove(card)
            trick.append(card)
        plays += trick
    done = engine("replay", stdin=json.dumps({**record, "plays": plays}))
    result = json.loads(done.stdout)
    assert result["winner"] == 1
    assert result["tokens"] == [5, 6, 4, 5]
    assert result["pot"] == 0


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[]",
        json.dumps({**RECORD, "game": "bridge"}),
        json.dumps({**RECORD, "hands": "AS"}),
        json.dumps({**RECORD, "plays": ["XX"]}),
        json.dumps({**RECORD, "dealer": "two"}),
        json.dumps({**RECORD, "options": {"profile": "medieval"}}),
    ],
)
def test_replay_malformed_input_exits_2_without_a_traceback(stdin):
    done = engine("replay", stdin=stdin)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_bench_prints_leaves_per_second():
    done = engine("bench", "--deals", "3")
    assert done.returncode == 0
    assert "leaves/s" in done.stdout


def test_engine_imports_without_django():
    code = "import sys, games.engine, games.engine.records, games.engine.tricks.perft"
    code += "; assert 'django' not in sys.modules"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_replay_reads_actions_as_well_as_the_older_plays():
    with_plays = engine("replay", stdin=json.dumps(RECORD))
    actions = {key: value for key, value in RECORD.items() if key != "plays"} | {"actions": RECORD["plays"]}
    with_actions = engine("replay", stdin=json.dumps(actions))
    assert with_actions.returncode == 0, with_actions.stderr
    assert json.loads(with_actions.stdout) == json.loads(with_plays.stdout)
    both = engine("replay", stdin=json.dumps(RECORD | {"actions": RECORD["plays"]}))
    assert both.returncode == 2
    assert "not both" in both.stdout + both.stderr


def test_an_action_word_a_card_game_does_not_know_is_an_illegal_play():
    record = {key: value for key, value in RECORD.items() if key != "plays"} | {"actions": ["pass"]}
    done = engine("replay", stdin=json.dumps(record))
    assert done.returncode == 1
    assert json.loads(done.stdout)["rule"] == "not_in_hand"


def test_perft_takes_any_setup_key_as_json():
    """A game's setup keys need no flags of their own: ``--setup`` carries them (here Euchre's upcard)."""
    hands = ["--hands", "JH,JD,AH,KH,QH/7S,8S,9S,TS,QS/7C,8C,9C,TC,QC/7D,8D,9D,TD,QD", "--depth", "3"]
    base = ["perft", "--game", "euchre", "--dealer", "3", *hands]
    assert engine(*base, "--setup", '{"upcard": "TH"}').stdout.split()[-1] == "20"
    assert engine(*base, "--upcard", "TH").stdout.split()[-1] == "20"
    refused = engine(*base, "--setup", "[1]")
    assert refused.returncode == 2
    assert "--setup must be a JSON object" in refused.stderr
