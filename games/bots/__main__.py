"""``python -m games.bots arena ...``: measure a computer player against a field; ``partners ...``: count
a level's partner faux pas (see docs/bots.md)."""

from __future__ import annotations

import argparse
import json
import sys

from games.engine import GAMES

from . import LEVELS
from .arena import run_arena
from .partners import partnership_tables, study


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots")
    commands = parser.add_subparsers(dest="command", required=True)
    arena = commands.add_parser("arena", help="hero against a field over many deals")
    playable = sorted(GAMES)  # the computers play every game, also those not yet on the site
    arena.add_argument("--game", choices=playable, default=next(iter(GAMES)))
    arena.add_argument("--profile", choices=("modern", "classic"), help="games with a profile option")
    arena.add_argument(
        "--trump", action="store_true", help="games with a trump option: the dealer's fifth card sets trump"
    )
    arena.add_argument("--players", type=int, default=4)
    arena.add_argument("--deals", type=int, default=2000)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--hero", default="strong", help=f"{', '.join(LEVELS)} or cmd:<shell command>")
    arena.add_argument("--field", default="medium", help=f"{', '.join(LEVELS)} or cmd:<shell command>")
    arena.add_argument("--timeout", type=float, default=5.0, help="seconds an external program may think")
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.add_argument(
        "--sessions", action="store_true", help="play whole sessions (at least --deals deals) and count them won"
    )
    arena.add_argument("--options", help="the table's options as JSON, e.g. '{\"stick_the_dealer\": true}'")
    partners = commands.add_parser("partners", help="partner faux pas per 1,000 partnership decisions")
    partners.add_argument("--game", choices=playable, help="one game (default: every partnership table)")
    partners.add_argument("--players", type=int, help="with --game: the table size")
    partners.add_argument("--options", help="with --game: the table's options as JSON")
    partners.add_argument("--level", choices=LEVELS, action="append", help="a level (default: every level)")
    partners.add_argument("--decisions", type=int, default=1000, help="partnership decisions per study")
    partners.add_argument("--seed", type=int, default=1)
    partners.add_argument("--json", action="store_true", help="print one JSON object per line")
    args = parser.parse_args(argv)
    if args.command == "partners":
        return _partners(parser, args)
    for spec in (args.hero, args.field):
        if not spec.startswith("cmd:") and spec not in LEVELS:
            parser.error(f"unknown player {spec!r}: use {', '.join(LEVELS)} or cmd:<shell command>")
    rules = GAMES[args.game]
    if args.players not in rules.seat_counts:
        parser.error(f"{args.game} is for {', '.join(map(str, sorted(rules.seat_counts)))} players")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    declared = {option.name: option for option in rules.options_schema}
    if (args.profile or args.trump) and not {"profile", "trump"} <= set(declared):
        parser.error(f"{args.game} has no --profile or --trump")
    options = {}
    if "profile" in declared:
        options = {"profile": args.profile or declared["profile"].default, "trump": args.trump}
    if args.options:
        try:
            options |= json.loads(args.options)
            rules.parse_options(options)
        except (ValueError, TypeError, AttributeError) as error:
            parser.error(f"--options: {error}")
    result = run_arena(
        game=args.game,
        players=args.players,
        deals=args.deals,
        seed=args.seed,
        hero=args.hero,
        field=args.field,
        options=options,
        timeout=args.timeout,
        sessions=args.sessions,
    )
    print(json.dumps(result.as_json()) if args.json else result.report())
    return 0


def _partners(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.game:
        options = {}
        try:
            options = json.loads(args.options) if args.options else {}
            GAMES[args.game].parse_options(options)
        except (ValueError, TypeError, AttributeError) as error:
            parser.error(f"--options: {error}")
        tables = [(args.game, args.players or min(GAMES[args.game].seat_counts), options)]
    else:
        tables = partnership_tables()
    for game, players, options in tables:
        if not GAMES[game].partners(0, players, GAMES[game].parse_options(options))[1:]:
            parser.error(f"{game} at {players} with {options} is not played in partnerships")
        for level in args.level or LEVELS:
            result = study(
                game=game, players=players, level=level, decisions=args.decisions, seed=args.seed, options=options
            )
            print(json.dumps(result.as_json()) if args.json else result.report() + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
