"""A finished deal's review page (read side): each stored decision in the viewer's words, and how
far the session's reviews have come while they are being computed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.db.models import Count, Q

from .cardnames import RED_SUITS, card_label, card_short
from .engine.game import View
from .models import Deal, DealReview, GameSession, Seat
from .stored import deal_start
from .words import names_said, say


@dataclass(frozen=True)
class Said:
    """An action as the page names it: a card's face and name, or a bid's words."""

    short: str
    label: str
    card: bool
    red: bool = False


@dataclass(frozen=True)
class DecisionRow:
    step: int  # the replay's step just before it
    seat: str
    played: Said
    strong: Said
    strong_share: int  # percent of the seat's own worlds in which the strong choice is among the best
    played_share: int
    agrees: bool  # the strong player would have chosen the same
    mark: str
    open_best: Said | None = None  # with every card visible (cards only, when solved)
    open_best_winners: str = ""
    open_played_winners: str = ""
    open_played_count: int = 1  # how many win after the chosen card (a verb agrees with them)
    open_same_winners: bool = False  # the best card and the chosen one let the same seats win the deal
    open_agrees: bool = False  # the chosen card is one of the best with every card visible
    open_solved: bool = False


@dataclass(frozen=True)
class ReviewPage:
    deal: Deal
    status: str  # "waiting" (the session is not over), "queued", "done", "failed"
    done: int = 0  # the session's deals reviewed so far
    total: int = 0
    rows: list[DecisionRow] = field(default_factory=list)
    marked: int = 0


def review_page(deal: Deal) -> ReviewPage:
    session = deal.session
    if session.status != GameSession.Status.FINISHED:
        return ReviewPage(deal, "waiting")
    review = DealReview.objects.filter(deal=deal).first()
    counts = DealReview.objects.filter(deal__session=session).aggregate(
        total=Count("pk"), done=Count("pk", filter=~Q(status=DealReview.Status.QUEUED))
    )
    if review is None or review.status != DealReview.Status.DONE:
        status = "failed" if review is not None and review.status == DealReview.Status.FAILED else "queued"
        return ReviewPage(deal, status, counts["done"], counts["total"])
    return ReviewPage(deal, "done", counts["done"], counts["total"], _rows(deal, review.decisions), review.marked)


def _rows(deal: Deal, decisions: list[dict]) -> list[DecisionRow]:
    seats = list(deal.session.seats.select_related("user").order_by("position"))
    names = [seat.name for seat in seats]
    actions = list(deal.plays.values_list("seat", "action"))
    state = deal_start(deal)
    rows = []
    at = 0
    for decision in decisions:
        while at < decision["index"]:
            state = state.apply(actions[at][1], seat=actions[at][0])
            at += 1
        said = _namer(state.view(decision["seat"]), names)
        shares = decision["shares"]
        row = DecisionRow(
            step=decision["index"],
            seat=names[decision["seat"]],
            played=said(decision["played"]),
            strong=said(decision["strong"]),
            strong_share=round(100 * shares.get(decision["strong"], 0)),
            played_share=round(100 * shares.get(decision["played"], 0)),
            agrees=decision["strong"] == decision["played"],
            mark=decision["mark"],
        )
        solved = decision.get("open")
        if solved:
            best = solved["best"][0]
            best_winners = solved["winners"].get(best, [])
            played_winners = solved["winners"].get(decision["played"], [])
            row = replace(
                row,
                open_solved=True,
                open_best=said(best),
                open_agrees=decision["played"] in solved["best"],
                open_best_winners=names_said([names[seat] for seat in best_winners]),
                open_played_winners=names_said([names[seat] for seat in played_winners]),
                open_played_count=max(1, len(played_winners)),
                open_same_winners=sorted(best_winners) == sorted(played_winners),
            )
        rows.append(row)
    return rows


def _namer(view: View, names: list[str]) -> Callable[[str], Said]:
    """How the page names an action of this decision: a card by its face, anything else by its button's words."""
    words = {choice.action: say(choice.label, names) for choice in view.choices}

    def said(action: str) -> Said:
        if action in view.playable:
            return Said(card_short(action), card_label(action), True, action[1] in RED_SUITS)
        return Said(words.get(action, action), words.get(action, action), False)

    return said


def marked_by_session(session_ids: list[int], user_id: int) -> dict[int, int | None]:
    """For a player's sessions: how many of their decisions the reviews marked (None while reviews
    are still being computed or the session has none)."""
    reviewed = dict(
        DealReview.objects.filter(deal__session_id__in=session_ids)
        .values_list("deal__session_id")
        .annotate(left=Count("pk", filter=Q(status=DealReview.Status.QUEUED)))
        .values_list("deal__session_id", "left")
    )
    marks = dict(
        Seat.objects.filter(session_id__in=session_ids, user_id=user_id).values_list("session_id", "review_marks")
    )
    return {sid: marks.get(sid) if sid in reviewed and reviewed[sid] == 0 else None for sid in session_ids}
