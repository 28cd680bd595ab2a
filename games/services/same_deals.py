"""The same deals again: a finished table played once more with the very cards it was dealt, deal by
deal, so friends can compare what each of them made of the same hands (``selectors`` of
``games.comparison`` score the two tables side by side).

Each deal of the new table is shuffled from the first table's revealed seed and contributions, and
dealt by the same dealer: the same cards reach the same seats. Seats rotated moves each player one
seat on, so that everyone holds another seat's cards (and partnerships swap sides). The new table
ends with the first table's deals, or sooner if its own session ends first.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine.fair import FairShuffle
from games.models import Deal, GameSession

from .errors import TableError
from .fair import Shuffle
from .locks import locked_session
from .waiting import table_changed

KEPT = ("stream", "identity", "commitment", "seed", "contributions")


def _replayable(session_id: int) -> Deal | None:
    return (
        Deal.objects.filter(session_id=session_id, finished__isnull=False).exclude(fair={}).order_by("number").first()
    )


@transaction.atomic
def same_deals_open(*, session_id: int, user: User, rotated: bool) -> GameSession:
    """A new table dealing ``session_id``'s deals again, opened by one of its players: the same game,
    options, pace and computers, every other person's seat kept for them (rotated one seat on if
    ``rotated``), like playing again."""
    from .tables import table_like

    origin = locked_session(session_id)
    if origin.status != GameSession.Status.FINISHED:
        raise TableError(_("Only a finished session can be dealt again."), code="not_finished")
    if origin.event_id is not None:
        raise TableError(_("An event's deals are compared on its own results page."), code="event")
    seats = list(origin.seats.all())
    if not any(seat.user_id == user.pk for seat in seats):
        raise TableError(_("Only the table's players can deal its cards again."), code="not_seated")
    if _replayable(origin.pk) is None:
        raise TableError(
            _("This table's deals cannot be dealt again: they were dealt before the site kept their seeds."),
            code="no_seeds",
        )
    again = table_like(origin, user, rotated=rotated, same_deals_as=origin)
    again.next_commitment = next_commitment(again, 1)
    again.save(update_fields=["next_commitment"])
    table_changed(origin)
    return again


def same_deal_shuffle(session: GameSession, number: int) -> tuple[Shuffle, int, bool]:
    """Deal ``number`` of the first table: its stream, its dealer, and whether it began its session
    (its first dealer came from the stream)."""
    origin = Deal.objects.filter(session_id=session.same_deals_as_id, number=number).exclude(fair={}).first()
    if origin is None:
        raise TableError(_("The first table has no such deal to deal again."), code="no_deal")
    fair = {key: origin.fair[key] for key in KEPT} | {"same_as": origin.pk}
    stream = FairShuffle(bytes.fromhex(origin.fair["seed"]), origin.fair["contributions"])
    return Shuffle(stream, fair), origin.dealer, bool(origin.fair.get("first"))


def next_commitment(session: GameSession, number: int) -> str:
    deal = Deal.objects.filter(session_id=session.same_deals_as_id, number=number).exclude(fair={}).first()
    return deal.fair.get("commitment", "") if deal is not None else ""


def last_deal(session: GameSession, number: int) -> bool:
    """The first table has no deal after ``number`` to deal again."""
    return not Deal.objects.filter(session_id=session.same_deals_as_id, number=number + 1).exclude(fair={}).exists()
