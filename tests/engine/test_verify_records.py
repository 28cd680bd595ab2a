"""What ``verify`` refuses besides a card out of place: contributions moved between seats, a seed
that gives part of itself to the identity, and a session's export that gives one deal twice."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest

from games.engine import GAMES
from games.engine.__main__ import main as engine_main
from games.engine.fair import FairShuffle, commitment
from games.engine.records import RecordError
from games.engine.verify import verify
from tools.bench_verify import exported

FEMKORT = GAMES["femkort"]


def cli_verify(monkeypatch, capsys, export: object) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(export)))
    code = engine_main(["verify"])
    return code, capsys.readouterr().out


def test_contributions_merged_across_seats_are_refused(monkeypatch, capsys):
    record = exported(FEMKORT, random.Random(1), 1, contributions=["c0ffee", "0badf00d", "17"])
    assert verify(record) == []
    given = record["fair"]["contributions"]
    for merged in (
        [given[0] + "\n" + given[1], given[2]],  # two seats' values given as one: the same stream before
        [given[0], given[1] + "\n" + given[2]],
    ):
        forged = copy.deepcopy(record)
        forged["fair"]["contributions"] = merged
        problems = verify(forged)
        assert any(problem.startswith("the contributions") for problem in problems), problems
        code, out = cli_verify(monkeypatch, capsys, forged)
        assert code == 1
        assert "NOT verified" in out
    with pytest.raises(ValueError, match="hexadecimal"):
        FairShuffle(bytes(32), ["c0ffee\n0badf00d", "17"])


def test_contributions_are_one_per_seat_in_the_form_a_seat_gives():
    record = exported(FEMKORT, random.Random(2), 2, contributions=["ab", "", "cd"])
    assert verify(record) == []
    for contributions in (["ab", ""], ["ab", "", "cd", ""], ["AB", "", "cd"], ["ab", "", "c d"], ["a" * 65, "", ""]):
        forged = copy.deepcopy(record)
        forged["fair"]["contributions"] = contributions
        assert any(problem.startswith("the contributions") for problem in verify(forged)), contributions


def test_a_seed_that_lends_its_first_bytes_to_the_identity_is_refused():
    """``commitment`` hashes identity, a line break and the seed: a shorter seed whose first bytes
    went into the identity matches the commitment shown for the whole seed, and deals other cards."""
    seed = b"7\n" + bytes(range(30))
    identity = "table 9 deal 1"
    shifted, moved = seed[2:], identity + "\n7"
    assert commitment(shifted, moved) == commitment(seed, identity)
    forged = exported(FEMKORT, random.Random(3), 3, seed=shifted, identity=moved, contributions=["", "", ""])
    assert forged["fair"]["commitment"] == commitment(seed, identity)
    with pytest.raises(RecordError, match="64 hexadecimal digits"):
        verify(forged)


def test_a_session_export_giving_a_deal_twice_is_refused(monkeypatch, capsys):
    rng = random.Random(4)
    first, second = (exported(FEMKORT, rng, number) for number in (1, 2))
    code, out = cli_verify(monkeypatch, capsys, [first, second])
    assert code == 0
    code, out = cli_verify(monkeypatch, capsys, [first, second, first])
    assert code == 1
    lines = out.splitlines()
    assert lines[:2] == ["table 1 deal 1: verified", "table 2 deal 1: verified"]
    assert lines[2] == "table 1 deal 1: NOT verified"
    assert "the same deal as deal 1 of the list" in lines[3]
    renamed = copy.deepcopy(second)  # the same seed under another name: not another deal either
    renamed["fair"]["identity"] = "table 3 deal 1"
    code, out = cli_verify(monkeypatch, capsys, [second, renamed])
    assert code == 1
    assert "the same deal as deal 1 of the list" in out


def test_an_export_made_before_letzter_stich_was_renamed_still_verifies_and_replays(monkeypatch, capsys):
    record = exported(GAMES["letzter_stich"], random.Random(4), 1)
    record["game"] = "letzter-stich"  # its name until the rename (migration 0028)
    assert verify(record) == []
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    assert engine_main(["replay"]) == 0
    capsys.readouterr()
    record["game"] = "letzter stich"
    with pytest.raises(RecordError, match="game must be one of"):
        verify(record)
