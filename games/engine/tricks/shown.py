"""A trick deal as the game protocol's ``View``: the seats, the trick in the middle, the upcard,
the bids so far, the prompt and the choices, each worded by the game (the site only lays them out)."""

from __future__ import annotations

from dataclasses import replace

from ..game import (
    EVERYONE,
    Area,
    CardName,
    Choice,
    Count,
    IllegalPlay,
    SeatName,
    SeatShown,
    Shown,
    SuitName,
    Text,
    View,
    Viewer,
)
from ..options import gettext_noop, ngettext_noop
from .deal import ACTION_WORDS, REDEAL_NO, DealState, Trick, playing_order, winning_card
from .refusals import refusal_text
from .seat_view import HIDDEN_DISCARD, SeatView, view_for

TRICKS_TAKEN = ngettext_noop("%(count)d trick taken", "%(count)d tricks taken")
TRICKS = ngettext_noop("%(count)d trick", "%(count)d tricks")
SUIT_ORDER = "SHCD"  # a hand sorted by suit, colours alternating


def deal_view(state: DealState, viewer: Viewer, scores: tuple[int, ...] = ()) -> View:
    """What ``viewer`` may know of ``state`` (see ``views.view_for``, which decides what is hidden)."""
    seen = view_for(state, viewer, scores)
    mine = seen.seat is not None and bool(seen.hand or seen.seat in state.seats)
    won = {winning_card(seen.seats, trick) for trick in seen.tricks}
    rules = state.rules
    return View(
        game=state.game,
        viewer=viewer,
        players=state.players,
        dealer=state.dealer,
        to_act=state.to_act,
        seats=tuple(_seat(state, seen, seat, won) for seat in range(state.players)),
        hand=_sorted_hand(seen),
        playable=frozenset(seen.legal),
        choices=_choices(seen) if mine else (),
        areas=_areas(state, seen),
        log=_log(state, seen),
        facts=_facts(state, seen),
        notices=_notices(state),
        prompt=_prompt(seen),
        refusal=_refusal(state, seen) if mine else None,
        fresh=not state.tricks,
        others_may_act=state.action_count == 0 and bool(getattr(state.options, "redeal", False)),
        just_settled=state.trick is not None and not state.trick.cards and not state.poll_open,
        over=state.is_over,
        result=rules.deal_result(state) if state.is_over and not state.redealt else _redealt(state),
        detail=seen,
    )


def _seat(state: DealState, seen: SeatView, seat: int, won: set[str]) -> SeatShown:
    playing = seat in seen.seats
    rules = state.rules
    taken = sum(trick.winner == seat for trick in seen.tricks)
    return SeatShown(
        seat=seat,
        in_hand=seen.hand_sizes[seat] if playing else 0,
        playing=playing,
        face_up=tuple(card for owner, card in seen.face_up if owner == seat),
        played=tuple(Shown(card, seat, marked=card in won) for card in seen.played[seat]),
        tally=(Count(taken, *TRICKS_TAKEN),) if rules.counts_tricks else (),
    )


def _sorted_hand(seen: SeatView) -> tuple[str, ...]:
    """By suit, alternating colours, highest first; a card that counts as another suit (a left
    bower) sits with that suit."""
    rules, trump = seen.rules, seen.trump
    suit = {card: rules.suit_in_play(card, trump) for card in seen.hand}
    return tuple(sorted(seen.hand, key=lambda c: (SUIT_ORDER.index(suit[c]), -rules.card_power(c, suit[c], trump))))


def _choices(seen: SeatView) -> tuple[Choice, ...]:
    """The seat's actions other than cards: bids and calls worded by the game, and new cards."""
    rules = seen.rules
    choices = []
    for action in seen.actions:
        if action in seen.hand or action in seen.legal:
            continue
        if action in ACTION_WORDS:
            choices.append(_poll_choice(action, REDEAL_NO in seen.actions))
            continue
        label, meaning = rules.action_text(action, seen)
        marked, marks = rules.marked_card(action, seen), rules.marks(action, seen)
        choices.append(Choice(action, label, meaning, card=marked, marks=marks))
    return tuple(choices)


def _poll_choice(action: str, answering: bool) -> Choice:
    if action == REDEAL_NO:
        return Choice(action, Text(gettext_noop("Refuse new cards")), with_hand=True)
    if answering:
        return Choice(action, Text(gettext_noop("Agree to new cards")), with_hand=True, primary=True)
    return Choice(action, Text(gettext_noop("Ask for new cards")), with_hand=True)


def _trick_cards(seen: SeatView, trick: Trick, *, mark_winner: bool = False) -> tuple[Shown, ...]:
    return tuple(
        Shown(card, seat, marked=mark_winner and seat == trick.winner)
        for seat, card in zip(playing_order(seen.seats, trick.leader), trick.cards, strict=False)
    )


def _areas(state: DealState, seen: SeatView) -> tuple[Area, ...]:
    """The upcard beside the header while it lies face up; in the middle the trick being played,
    or the one just taken until the next card is led (so everyone sees who took it), or once
    the deal is over its last trick."""
    areas = list(state.rules.table_areas(state, seen))
    if seen.upcard is not None and state.rules.upcard_on_show(seen):
        areas.append(
            Area("row", "upcard", Text(gettext_noop("Upcard:")), cards=(Shown(seen.upcard),), beside=True),
        )
    if seen.trick is not None and (seen.trick.cards or not seen.tricks):
        areas.append(Area("trick", "trick", Text(gettext_noop("Current trick")), cards=_trick_cards(seen, seen.trick)))
    elif seen.tricks:
        taken = seen.tricks[-1]
        areas.append(
            Area(
                "trick",
                "trick",
                Text(gettext_noop("Trick just taken")),
                cards=_trick_cards(seen, taken, mark_winner=True),
                note=Text(gettext_noop("%(name)s takes the trick."), (("name", SeatName(taken.winner)),)),
                done=True,
            )
        )
    return tuple(areas)


def _log(state: DealState, seen: SeatView) -> tuple[Text, ...]:
    """The bids and calls so far, as the table announced them (another seat's discard unnamed, or
    left out where the game says it in a later line)."""
    if not seen.calls:
        return ()
    rules = state.rules
    said = ((rules.call_said(seen, index), seat) for index, seat in enumerate(state.callers[: len(seen.calls)]))
    return tuple(_with_name(text, seat) for text, seat in said if text is not None)


def _with_name(text: Text, seat: int) -> Text:
    return Text(text.message, (*text.params, ("name", SeatName(seat))), text.context)


def _facts(state: DealState, seen: SeatView) -> tuple[tuple[str, Text], ...]:
    facts: list[tuple[str, Text]] = []
    if seen.trump:
        facts.append(("trump", _trump(seen.trump)))
    if not state.is_over and (seen.calls or seen.upcard):
        facts += [("contract", text) for text in state.rules.contract_facts(seen)]
    return tuple(facts)


def _trump(suit: str) -> Text:
    return Text(gettext_noop("Trump: %(suit)s"), (("suit", SuitName(suit)),))


def _notices(state: DealState) -> tuple[Text, ...]:
    """Someone asked for new cards: who, and who must answer (or who refused), until the first card."""
    poll = state.poll
    if poll is None or state.plays:
        return ()
    if poll.outcome is None:
        return (
            Text(
                gettext_noop("%(asker)s asks for new cards; waiting for %(voter)s to answer."),
                (("asker", SeatName(poll.asker)), ("voter", SeatName(poll.voter))),
            ),
        )
    if poll.outcome != "declined":
        return ()
    start = poll.seats.index(poll.asker)
    refuser = next(seat for seat in [*poll.seats[start + 1 :], *poll.seats[:start]] if seat not in poll.agreed)
    return (
        Text(
            gettext_noop("%(asker)s asked for new cards; %(refuser)s refused: play goes on."),
            (("asker", SeatName(poll.asker)), ("refuser", SeatName(refuser))),
        ),
    )


def _prompt(seen: SeatView) -> Text | None:
    """What the viewer does now, or whom the table waits for; with the trump suit, once there is one."""
    if seen.to_act is None:
        return None
    if seen.my_turn and seen.trick is None:
        return seen.rules.auction_prompt(seen)
    waiting = Text(gettext_noop("Waiting for %(name)s."), (("name", SeatName(seen.to_act)),))
    prompt = (seen.rules.duty_said(seen) or _duty(seen)) if seen.my_turn else waiting
    if seen.trump:
        return Text(gettext_noop("%(prompt)s Trump: %(suit)s."), (("prompt", prompt), ("suit", SuitName(seen.trump))))
    return prompt


def _duty(seen: SeatView) -> Text:
    duty, detail = seen.duty
    if duty == "lead":
        return Text(gettext_noop("Your lead: play any card."))
    if duty == "overtake":
        return Text(gettext_noop("Your turn: you must overtake %(card)s."), (("card", CardName(detail)),))
    if duty == "follow":
        return Text(gettext_noop("Your turn: follow %(suit)s."), (("suit", SuitName(detail)),))
    return Text(gettext_noop("Your turn: you have no %(suit)s, play any card."), (("suit", SuitName(detail)),))


def _refusal(state: DealState, seen: SeatView) -> Text | None:
    """Why the first card of the hand that may not be played now would be refused."""
    legal = set(seen.legal) if seen.my_turn else set()
    refused = next((card for card in seen.hand if card not in legal), None)
    if refused is None:
        return None
    try:
        state.apply(refused, seat=seen.seat)
    except IllegalPlay as error:
        return error.text or refusal_text(error)
    return None


def _redealt(state: DealState) -> Text | None:
    if not state.redealt:
        return None
    again = gettext_noop("Everyone agreed to new cards: %(name)s deals again.")
    return Text(again, (("name", SeatName(state.dealer)),))


def replay_views(start: DealState, actions) -> tuple[View, ...]:
    """The finished deal step by step as everyone may see it afterwards: every hand face up but
    what nobody saw (a discard the dealer never played, the hand of a seat that sat out), and
    the upcard and every seat's tricks all deal long."""
    final = start
    for seat, action in actions:
        final = final.apply(action, seat=seat)
    seen = view_for(final, EVERYONE)  # HiddenCards unless the deal is over
    hidden = HIDDEN_DISCARD in seen.calls
    states = [start]
    for seat, action in actions:
        shown = HIDDEN_DISCARD if hidden and action.startswith(HIDDEN_DISCARD + ":") else action
        states.append(states[-1].apply(shown, seat=seat))
    return tuple(_afterwards(state, seen) for state in states)


def _afterwards(state: DealState, final: SeatView) -> View:
    """The spectator's view of ``state``, with what everyone may see once the deal is over: each
    hand that played, every seat's tricks, the upcard all deal long; no prompt, no choices."""
    spectator = deal_view(state, None)
    tricks = spectator.detail
    # The bids and calls as everyone may read them afterwards (a discard named where the game shows it).
    log = _log(state, replace(tricks, calls=final.calls[: len(state.calls)]))
    seen = replace(spectator, viewer=EVERYONE, prompt=None, notices=(), log=log, detail=None)
    seats = tuple(
        replace(
            shown,
            playing=shown.seat in final.seats,
            cards=tuple(state.hand(shown.seat)) if shown.seat in final.seats else (),
            tally=(Count(sum(trick.winner == shown.seat for trick in tricks.tricks), *TRICKS),),
        )
        for shown in seen.seats
    )
    upcard = Area("row", "upcard", Text(gettext_noop("Upcard:")), cards=(Shown(state.upcard),), beside=True)
    middle = tuple(area for area in seen.areas if area.name != "upcard")
    return replace(
        seen,
        seats=seats,
        areas=(upcard, *middle) if state.upcard else middle,
        facts=tuple((kind, text) for kind, text in seen.facts if kind == "trump"),
    )
