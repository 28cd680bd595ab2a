"""Partner faux pas: the choices players hold against a computer partner, told by the reviews' search.

A decision counts when the seat to act has a partner playing the deal and two or more legal
actions. Each kind is judged as the reviews judge a card or a call (``deal_analysis``):

- **overtake**: a partner's card is winning the trick in progress, the seat plays a card that
  takes the trick from it, and another legal card that leaves the trick to the partner is worth
  at least as much with every card visible (the open-hand search of the true deal, ``Search``).
- **lead into a void**: the seat leads a suit a partner has shown out of in this deal (failed to
  follow it where the rules make that show a void) while another legal lead, of a suit the partner
  has not shown out of, is worth at least as much with every card visible.
- **call**: a decision that plays no card to a trick (a bid, an order, going alone, begging,
  standing, a discard in the draw) whose mean value in the seat's own worlds (as the reviews deal
  them: hidden cards dealt anew from the seat's view, each searched open-hand when it fits the
  budget, else played out with every seat playing as the medium player) is below the best
  action's by more than the game's ``call_margin``: the side gives up more than that, on what the
  seat could know. A call the first worlds flag is dealt ``CONFIRM_WORLDS`` more, and counts only
  if the mean over all of them still puts it past the margin: a flag is a finding, not luck.
- **signals**: none of the ten games' rules agree any signals between partners, so no discard
  can break one; there is nothing to count.

A position too large for the search (``TooLarge``) is not judged; the study says how many were.
A game's *bold calls* (Euchre: going alone) are counted apart with whether the open-hand search of
the true deal says each was worth it: the going-alone rate beside the share that paid.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from games.engine import get_game
from games.engine.cards import INDEX
from games.engine.game import Game, State

from . import seat_player
from .deal_analysis import MOVES_PER_PLAYOUT, OPEN_NODES, WORLDS, Search, TooLarge, played_out_by_rule, world_values

KINDS = ("overtake", "lead_into_void", "call")
# In call margins per world: a card that spares the partner goes first unless another is clearly better.
COURTESY = 1.0
CONFIRM_WORLDS = 32  # more worlds for a call the first WORLDS flag, before the flag counts
BOLD_NODES = 400_000  # the true deal searched from a bold call: a whole deal, as the duplicate's par


@dataclass(frozen=True)
class Verdict:
    kind: str = ""  # one of KINDS, or "" for none
    judged: bool = True  # False: the search could not answer within its budget


def partners_in_play(game: Game, state: State, seat: int, options: Any = None) -> tuple[int, ...]:
    """The seat's partners who play this deal (a lone maker's partner sits it out)."""
    players = getattr(state, "players", None) or state.view(seat).players
    playing = getattr(state, "seats", ()) or tuple(range(players))
    options = options if options is not None else getattr(state, "options", None)
    return tuple(other for other in game.partners(seat, players, options)[1:] if other in playing)


def _trick(state: State) -> Any:
    return getattr(state, "trick", None)


def overtakes_partner(state: State, seat: int, card: str, partners: tuple[int, ...]) -> bool | None:
    """``None`` when no partner is winning the trick in progress; else whether ``card`` takes it from them."""
    trick = _trick(state)
    if trick is None or not trick.cards:
        return None
    rules = state.rules
    if rules.trick_winner(state, trick) not in partners:
        return None
    return rules.trick_winner(state, replace(trick, cards=(*trick.cards, card))) == seat


def voids_shown(state: State, partners: tuple[int, ...]) -> set[str]:
    """Suits a partner has shown out of in this deal: a trick led in one they did not follow."""
    rules, trump = state.rules, state.trump
    shown: set[str] = set()
    tricks = [*state.tricks, *([_trick(state)] if _trick(state) is not None else [])]
    for trick in tricks:
        if not trick.cards:
            continue
        led = rules.suit_in_play(trick.cards[0], trump)
        for position, card in enumerate(trick.cards[1:], start=1):
            player = state.seat_after(trick.leader, position)
            if player in partners and rules.suit_in_play(card, trump) != led and rules.shows_void(card, led, trump):
                shown.add(led)
    return shown


def discourteous(state: State, seat: int, card: str, partners: tuple[int, ...]) -> bool:
    """Whether ``card`` overtakes a partner's winning card or leads a suit a partner has shown out
    of: the two faux pas' shapes, read from public facts only (a sampled world serves as well)."""
    if not partners or card not in INDEX or not hasattr(state, "trick"):
        return False
    if overtakes_partner(state, seat, card, partners):
        return True
    trick = _trick(state)
    return (trick is None or not trick.cards) and state.rules.suit_in_play(card, state.trump) in voids_shown(
        state, partners
    )


def courteous_best(state: State, seat: int, scores: dict[str, float], tolerance: float) -> str:
    """The best-scored action, except that a card within ``tolerance`` of it that neither overtakes
    a winning partner nor leads into a partner's void goes first (the scores are estimates; a
    partner minds these two). Ties keep the order of ``scores``."""
    best = max(scores, key=lambda action: scores[action])
    partners = partners_in_play(state.rules, state, seat) if hasattr(state, "rules") else ()
    if not discourteous(state, seat, best, partners):
        return best
    near = [a for a in scores if scores[a] >= scores[best] - tolerance and not discourteous(state, seat, a, partners)]
    return max(near, key=lambda action: scores[action]) if near else best


def for_beginner(view: Any, action: str, rng: random.Random, level: str = "medium") -> str:
    """The action as a partner to a beginner takes it: never a bold call (the plain one instead),
    and never a card that overtakes a winning partner or leads into their shown void while another
    card does neither (then the level's own choice among those)."""
    rules = get_game(view.game)
    if action in rules.bold_calls:
        return next((other for other in legal_actions(view) if other not in rules.bold_calls), action)
    if action not in view.playable:
        return action
    world = rules.resample(view, rng)  # public facts are the same in every world the seat cannot tell apart
    seat = view.viewer
    partners = partners_in_play(rules, world, seat)
    if not discourteous(world, seat, action, partners):
        return action
    spared = [card for card in sorted(view.playable) if not discourteous(world, seat, card, partners)]
    if not spared:
        return action
    choice = seat_player(view.game, level, rng).choose(_narrowed(view, spared))
    return choice if choice in spared else spared[0]


def _narrowed(view: Any, cards: list[str]) -> Any:
    """``view`` with only ``cards`` of its hand playable (its game's own view too, where it has one)."""
    detail = view.detail
    if detail is not None and hasattr(detail, "legal"):
        legal = tuple(card for card in detail.legal if card in cards)
        actions = tuple(a for a in detail.actions if a in cards or a not in detail.legal)
        detail = replace(detail, legal=legal, actions=actions)
    return replace(view, playable=frozenset(cards), detail=detail)


def legal_actions(view: Any) -> list[str]:
    return [*sorted(view.playable), *(choice.action for choice in view.choices)]


def judge(game: Game, state: State, seat: int, played: str, options: Any, rng: random.Random) -> Verdict | None:
    """The faux pas of ``played`` at ``state`` (``None``: no partnership decision to judge)."""
    legal = sorted(state.legal_actions())
    partners = partners_in_play(game, state, seat, options)
    if len(legal) < 2 or not partners:
        return None
    view = state.view(seat)
    side = frozenset((seat, *partners))
    if played not in view.playable or not hasattr(state, "trick"):
        _shares, means = world_values(game, view, seat, side, legal, rng, WORLDS, medium_played_out)
        if max(means.values()) - means[played] <= game.call_margin:
            return Verdict()
        # A few worlds flag a sound call now and then by the luck of the deal: a flag counts only if
        # the mean over these and CONFIRM_WORLDS more, dealt afresh, still puts it past the margin.
        _shares, more = world_values(game, view, seat, side, legal, rng, CONFIRM_WORLDS, medium_played_out)
        pooled = {action: (means[action] * WORLDS + more[action] * CONFIRM_WORLDS) for action in legal}
        gap = (max(pooled.values()) - pooled[played]) / (WORLDS + CONFIRM_WORLDS)
        return Verdict("call" if gap > game.call_margin else "")
    trick = _trick(state)
    if overtakes_partner(state, seat, played, partners):
        others = [card for card in legal if overtakes_partner(state, seat, card, partners) is False]
        return _worse_than(state, seat, side, played, others, "overtake")
    if trick is None or not trick.cards:
        voids = voids_shown(state, partners)
        suit = state.rules.suit_in_play
        if suit(played, state.trump) in voids:
            others = [card for card in legal if suit(card, state.trump) not in voids]
            return _worse_than(state, seat, side, played, others, "lead_into_void")
    return Verdict()


def medium_played_out(game: Game, state: State, seat: int, rng: random.Random) -> float:
    """``seat``'s value once every seat has played the deal out as the medium player would: a call's
    worth depends on how the deal is then played, and random play says little of that. A game's
    rule of thumb is what its medium player plays: where there is one, the reviews' play-out."""
    if game.has_rule_of_thumb:
        return played_out_by_rule(game, state, seat, rng)
    players = [seat_player(game.name, "medium", rng) for _ in range(getattr(state, "players", 0) or 10)]
    for _ in range(MOVES_PER_PLAYOUT):
        if state.is_over:
            return state.outcome().values[seat]
        mover = state.to_act
        state = state.apply(players[mover].choose(state.view(mover)), seat=mover)
    return 0.0


def _worse_than(state: State, seat: int, side: frozenset[int], played: str, others: list[str], kind: str) -> Verdict:
    """A faux pas of ``kind`` when one of ``others`` does at least as well open-hand as ``played``."""
    if not others:
        return Verdict()
    try:
        values = Search(seat, side, OPEN_NODES).values(state, [played, *others])
    except TooLarge:
        return Verdict(judged=False)
    return Verdict(kind if max(values[card] for card in others) >= values[played] else "")


def bold_worth(state: State, seat: int, side: frozenset[int], bold: str, plain: str) -> bool | None:
    """Whether, with every card visible, the bold call does at least as well as the plain one."""
    try:
        values = Search(seat, side, BOLD_NODES).values(state, [bold, plain])
    except TooLarge:
        return None
    return values[bold] >= values[plain]


@cache
def partnership_tables() -> list[tuple[str, int, dict[str, Any]]]:
    """Every game and table size whose seats play in partnerships, by default or with one switch
    (a yes/no option) turned: the tables the faux-pas study plays, one per way of pairing seats."""
    from games.engine import GAMES

    tables: list[tuple[str, int, dict[str, Any]]] = []
    for name, rules in GAMES.items():
        switches = [option.name for option in rules.options_schema if option.kind == "flag"]
        for players in sorted(rules.seat_counts):
            seen = set()
            for options in [{}, *({switch: not _default(rules, switch)} for switch in switches)]:
                parsed = rules.parse_options(options)
                if rules.table_problem(players, parsed) is not None:
                    continue
                sides = rules.sides(players, parsed)
                if rules.partners(0, players, parsed)[1:] and sides not in seen:
                    seen.add(sides)
                    tables.append((name, players, options))
    return tables


def partnership_switch(rules: Game) -> str | None:
    """How a table of ``rules`` comes to have partners: "" by default, else the yes/no option that
    pairs the seats; ``None`` when its seats never play in partnerships."""
    tables = [options for name, _, options in partnership_tables() if name == rules.name]
    if not tables:
        return None
    return "" if any(not options for options in tables) else next(iter(tables[0]))


def _default(rules: Game, name: str) -> Any:
    return next(option.default for option in rules.options_schema if option.name == name)


@dataclass
class PartnerStudy:
    game: str
    players: int
    options: dict[str, Any]
    level: str
    sessions: int = 0
    deals: int = 0
    decisions: int = 0  # partnership decisions (two or more legal actions, a partner in play)
    unjudged: int = 0
    faux_pas: Counter = field(default_factory=Counter)
    bold_offered: int = 0
    bold_taken: int = 0
    bold_worth: int = 0  # of those taken, worth it with every card visible
    bold_unjudged: int = 0
    bold_worth_offered: int = 0  # of all offered, where it would have been worth it
    examples: dict[str, str] = field(default_factory=dict)

    def per_thousand(self, count: int) -> float:
        return 1000 * count / max(self.decisions - self.unjudged, 1)

    def as_json(self) -> dict[str, Any]:
        total = sum(self.faux_pas.values())
        data = {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "level": self.level,
            "sessions": self.sessions,
            "deals": self.deals,
            "decisions": self.decisions,
            "unjudged": self.unjudged,
            "faux_pas": {kind: self.faux_pas[kind] for kind in KINDS},
            "per_1000": round(self.per_thousand(total), 2),
            "per_1000_by_kind": {kind: round(self.per_thousand(self.faux_pas[kind]), 2) for kind in KINDS},
            "examples": self.examples,
        }
        if self.bold_offered:
            data["bold"] = {
                "offered": self.bold_offered,
                "taken": self.bold_taken,
                "rate": round(self.bold_taken / self.bold_offered, 4),
                "taken_worth_it": self.bold_worth,
                "taken_unjudged": self.bold_unjudged,
                "worth_it_when_offered": round(self.bold_worth_offered / self.bold_offered, 4),
            }
        return data

    def report(self) -> str:
        data = self.as_json()
        kinds = ", ".join(f"{kind} {data['faux_pas'][kind]}" for kind in KINDS)
        lines = [
            f"{self.game}, {self.players} players {json.dumps(self.options)}: all seats {self.level};"
            f" {self.sessions} sessions, {self.deals} deals",
            f"partnership decisions: {self.decisions} ({self.unjudged} too large to judge)",
            f"faux pas: {kinds}: {data['per_1000']:.2f} per 1,000 judged decisions",
        ]
        if "bold" in data:
            bold = data["bold"]
            lines.append(
                f"bold calls (going alone): taken {bold['taken']} of {bold['offered']} offered ({bold['rate']:.1%});"
                f" worth it with every card visible: {bold['taken_worth_it']} of those taken"
                f" ({bold['taken_unjudged']} too large); worth it in {bold['worth_it_when_offered']:.1%} of all offered"
            )
        return "\n".join(lines)


def study(
    *, game: str, players: int, level: str, decisions: int, seed: int, options: dict[str, Any] | None = None
) -> PartnerStudy:
    """Whole seeded sessions with every seat at ``level``, until ``decisions`` partnership decisions were
    seen; each judged as above. Seeded: the same arguments give the same figures."""
    rules = get_game(game)
    parsed = rules.parse_options(options or {})
    result = PartnerStudy(game=game, players=players, options=options or {}, level=level)
    seats = [seat_player(game, level, random.Random(f"{seed}:{level}:{seat}")) for seat in range(players)]
    judge_rng = random.Random(f"{seed}:judge")
    while result.decisions < decisions:
        match = rules.new_match(players=players, options=parsed, rng=random.Random(f"{seed}:session:{result.sessions}"))
        deal = 0
        while not match.finished and result.decisions < decisions:
            state = match.deal(random.Random(f"{seed}:session:{result.sessions}:{deal}"))
            while not state.is_over:
                seat = state.to_act
                action = seats[seat].choose(state.view(seat))
                _count(result, rules, state, seat, action, parsed, judge_rng)
                state = state.apply(action, seat=seat)
            match = match.settle(state)
            deal += 1
        result.sessions += 1
        result.deals += deal
    return result


def _count(result: PartnerStudy, rules: Game, state: State, seat: int, action: str, options: Any, rng: random.Random):
    verdict = judge(rules, state, seat, action, options, rng)
    if verdict is None:
        return
    result.decisions += 1
    if not verdict.judged:
        result.unjudged += 1
    elif verdict.kind:
        result.faux_pas[verdict.kind] += 1
        result.examples.setdefault(verdict.kind, f"deal {result.deals}, seat {seat}: {action}")
    legal = state.legal_actions()
    bold = [call for call in legal if call in rules.bold_calls]
    if not bold:
        return
    plain = next(call for call in legal if call not in rules.bold_calls)
    side = frozenset((seat, *partners_in_play(rules, state, seat, options)))
    worth = bold_worth(state, seat, side, bold[0], plain)
    result.bold_offered += 1
    result.bold_worth_offered += bool(worth)
    if action in rules.bold_calls:
        result.bold_taken += 1
        result.bold_worth += bool(worth)
        result.bold_unjudged += worth is None
