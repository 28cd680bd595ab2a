"""Command line: ``python -m games.engine perft|replay|verify|bench|golden`` (documented in docs/engine.md)."""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
import time
from pathlib import Path

from . import FEMKORT, GAMES, InvalidDeal, NotationError
from .cards import parse_suit
from .records import IllegalRecordPlay, RecordError, replay
from .transcript import transcript
from .tricks.deal import DealState
from .tricks.perft import perft, perft_actions
from .verify import verify_each

BENCH_DEALS = 200
BENCH_DEPTH = 12
GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "engine" / "golden"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("perft", help="count legal card sequences of a given length")
    p.add_argument("--game", choices=sorted(GAMES), required=True)
    p.add_argument("--profile", choices=("modern", "classic"))
    p.add_argument("--trump", choices=tuple("SHDC"))
    p.add_argument("--leader", type=int, help="who leads the first trick (games that start with a lead)")
    p.add_argument("--dealer", type=int, help="who dealt (games that start with bids: every action counts)")
    p.add_argument("--upcard", help="the card turned up by the deal (Euchre)")
    p.add_argument("--widow", help="the widow's cards, as dealt (Michigan)")
    p.add_argument("--stock", help="the undealt cards, top first, where the deal draws from them (Seven Up)")
    p.add_argument("--scores", help="each side's score before the deal, e.g. 0,6 (games whose rules read it)")
    p.add_argument("--options", default="{}", help="the table options as JSON, e.g. '{\"wellington_blucher\": true}'")
    p.add_argument(
        "--setup", default="{}", help="more of the deal as dealt, as JSON: any key the game's setup has (with --dealer)"
    )
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--hands", required=True, help='cards from seat 0, e.g. "AS,KS,QS,JS,TS/2H,3H,4H,5H,6H/..."')
    commands.add_parser("replay", help="replay a JSON deal record from stdin")
    commands.add_parser("verify", help="check a finished deal's export (or a session's) against its revealed seed")
    b = commands.add_parser("bench", help="perft speed on a fixed set of deals")
    b.add_argument("--deals", type=int, default=BENCH_DEALS)
    g = commands.add_parser("golden", help="compare each game's golden transcript with the rules as they are")
    g.add_argument("--write", action="store_true", help="write the transcripts anew instead")
    g.add_argument("--dir", type=Path, default=GOLDEN, help="where they are kept (tests/engine/golden)")
    args = parser.parse_args(argv)
    if args.command == "perft":
        return _perft(args)
    if args.command == "replay":
        return _replay()
    if args.command == "verify":
        return _verify()
    if args.command == "golden":
        return _golden(args.dir, write=args.write)
    return _bench(args.deals)


def _perft(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    if args.dealer is not None:
        return _perft_actions(args)
    try:
        if args.leader is None:
            raise InvalidDeal("give --leader (or --dealer, to count every action from the deal's start)")
        if args.depth < 0:
            raise InvalidDeal("depth must be 0 or more")
        if (args.profile or args.trump) and "profile" not in {option.name for option in game.options_schema}:
            raise InvalidDeal(f"{args.game} has no --profile or --trump")
        options = game.parse_options({"profile": args.profile} if args.profile else {})
        hands = [[card for card in hand.split(",") if card.strip()] for hand in args.hands.split("/")]
        seats = [seat for seat, hand in enumerate(hands) if hand]
        if args.leader not in seats:
            raise InvalidDeal(f"leader {args.leader} is not a seat holding cards")
        dealer = seats[seats.index(args.leader) - 1]
        trump = parse_suit(args.trump) if args.trump else None
        state = game.start_hands(dealt=hands, dealer=dealer, options=options, trump=trump)
    except (InvalidDeal, NotationError) as error:
        print(f"perft: {error}", file=sys.stderr)
        return 2
    print(perft(state, args.depth))
    return 0


def _perft_actions(args: argparse.Namespace) -> int:
    """Every action counts (bids, passes, cards): sequences of exactly ``--depth`` from the deal's start."""
    game = GAMES[args.game]
    try:
        if args.depth < 0:
            raise InvalidDeal("depth must be 0 or more")
        raw, more = _json_object(args.options, "--options"), _json_object(args.setup, "--setup")
        hands = [[card for card in hand.split(",") if card.strip()] for hand in args.hands.split("/")]
        setup = more | {"dealer": args.dealer, "hands": hands, "options": raw}
        if args.upcard:
            setup["upcard"] = args.upcard
        if args.widow is not None:
            setup["widow"] = [card.strip() for card in args.widow.split(",") if card.strip()]
        if args.stock:
            setup["stock"] = [card.strip() for card in args.stock.split(",") if card.strip()]
        if args.scores:
            try:
                setup["scores"] = [int(score.strip()) for score in args.scores.split(",")]
            except ValueError:
                raise InvalidDeal("--scores must be whole numbers, one per side, e.g. 0,6") from None
        state = game.start(setup)
    except (InvalidDeal, NotationError) as error:
        print(f"perft: {error}", file=sys.stderr)
        return 2
    print(perft_actions(state, args.depth))
    return 0


def _json_object(text: str, flag: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidDeal(f"{flag} is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise InvalidDeal(f"{flag} must be a JSON object")
    return value


def _replay() -> int:
    record = None
    try:
        record = json.loads(sys.stdin.read())
        result = replay(record)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"replay: input is not JSON: {error}", file=sys.stderr)
        return 2
    except RecordError as error:
        print(f"replay: {error}", file=sys.stderr)
        return 2
    except IllegalRecordPlay as illegal:
        print(json.dumps(_illegal(record, illegal)))
        return 1
    print(json.dumps(result))
    return 0


def _verify() -> int:
    """Each deal of the export (one deal's record, or a session's list of them): "verified", or what differs."""
    try:
        exported = json.loads(sys.stdin.read())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"verify: input is not JSON: {error}", file=sys.stderr)
        return 2
    records = exported if isinstance(exported, list) else [exported]
    failed = 0
    for number, (record, problems) in enumerate(zip(records, verify_each(records), strict=True), 1):
        fair = record.get("fair") if isinstance(record, dict) else None
        name = fair.get("identity") if isinstance(fair, dict) and isinstance(fair.get("identity"), str) else None
        name = name or f"deal {number}"
        if isinstance(problems, RecordError):
            print(f"{name}: cannot verify: {problems}")
            failed = max(failed, 2)
            continue
        if problems:
            print(f"{name}: NOT verified")
            for problem in problems:
                print(f"  {problem}")
            failed = max(failed, 1)
        else:
            print(f"{name}: verified")
    return failed


def _golden(directory: Path, *, write: bool) -> int:
    """Each game's transcript against its file: "same", or the diff; ``write``: the files made anew."""
    differ = 0
    for name, game in GAMES.items():
        path = directory / f"{name}.txt"
        now = transcript(game)
        kept = path.read_text() if path.exists() else ""
        if write:
            directory.mkdir(parents=True, exist_ok=True)
            path.write_text(now)
            print(f"{name}: {'unchanged' if kept == now else 'written'}")
        elif kept == now:
            print(f"{name}: same")
        else:
            differ = 1
            print(f"{name}: differs" if kept else f"{name}: no transcript kept ({path})")
            sys.stdout.writelines(golden_diff(kept, now, name))
    for stale in sorted(set(directory.glob("*.txt")) - {directory / f"{name}.txt" for name in GAMES}):
        print(f"{stale.name}: no game of that name (remove it)")
        differ = 1
    return differ


def golden_diff(kept: str, now: str, name: str) -> list[str]:
    """What changed, as a unified diff from the kept transcript to the rules' one."""
    return list(difflib.unified_diff(kept.splitlines(True), now.splitlines(True), f"kept/{name}", f"now/{name}"))


def _illegal(record: dict, illegal: IllegalRecordPlay) -> dict:
    """A record of ``actions`` names the refused action with the seat to act and all it could
    have done; an older record of ``plays`` keeps the card-only form."""
    error = illegal.error
    if "actions" not in record:
        return {
            "error": "illegal_play",
            "index": illegal.index,
            "seat": error.seat,
            "card": error.card,
            "legal": error.legal,
            "rule": error.rule,
            "message": error.message,
        }
    state = illegal.state
    return {
        "error": "illegal_action",
        "index": illegal.index,
        "seat": state.to_act,
        "action": record["actions"][illegal.index],
        "legal": sorted(state.legal_actions()) if state.to_act is not None else [],
        "rule": error.rule,
        "message": error.message,
    }


def bench_deals(count: int, players: int = 4) -> list[DealState]:
    """The fixed benchmark deals: seeded, so every run measures the same positions."""
    options = FEMKORT.parse_options(None)
    return [
        FEMKORT.deal(players=players, dealer=seed % players, options=options, rng=random.Random(seed))
        for seed in range(count)
    ]


def _bench(count: int) -> int:
    deals = bench_deals(count)
    started = time.perf_counter()
    leaves = sum(perft(deal, BENCH_DEPTH) for deal in deals)
    seconds = time.perf_counter() - started
    print(f"femkort, 4 players, modern, depth {BENCH_DEPTH}, {count} seeded deals: {leaves} leaves")
    print(f"perft only: {seconds:.3f} s, {leaves / seconds:,.0f} leaves/s")
    since_start = _seconds_since_process_start()
    if since_start is not None:
        print(f"process start included: {since_start:.3f} s, {leaves / since_start:,.0f} leaves/s")
    started = time.perf_counter()
    uncached = sum(perft(deal, BENCH_DEPTH, cache=False) for deal in deals[: max(1, count // 10)])
    seconds = time.perf_counter() - started
    print(f"without the trick-boundary cache, first {max(1, count // 10)} deals: {uncached / seconds:,.0f} leaves/s")
    return 0


def _seconds_since_process_start() -> float | None:
    """Wall time since this process began (Linux /proc; 10 ms resolution)."""
    try:
        import os

        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            now = float(uptime.read().split()[0])
        return now - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


if __name__ == "__main__":
    sys.exit(main())
