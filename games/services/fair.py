"""Provably fair deals on the site: the next deal's seed is drawn and committed to before it is
dealt, seated players add their contributions, and the deal is the engine's ``FairShuffle`` of both.

The seed lives in its own row (``SeedDraw``) so that a contribution locks only that row, never the
table's: a contribution can never hold up a move, and one that arrives as the deal is dealt is
either in the shuffle or refused, never lost in between.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import throttle
from accounts.models import User
from games.engine.fair import MAX_CONTRIBUTION, FairShuffle, commitment, new_seed
from games.models import GameSession, Seat, SeedDraw

from .errors import NotSeated, TableError

CONTRIBUTION = re.compile(rf"[0-9a-f]{{1,{MAX_CONTRIBUTION}}}")


def deal_identity(session_id: int, number: int) -> str:
    """What a commitment names besides the seed: which deal of which table it is for."""
    return f"table {session_id} deal {number}"


def seed_draw(session: GameSession, number: int) -> None:
    """Draw deal ``number``'s seed now, before anything of it is shown, and put its commitment on
    the table (the caller saves ``session``)."""
    seed = new_seed()
    promise = commitment(seed, deal_identity(session.pk, number))
    SeedDraw.objects.update_or_create(
        session=session, defaults={"number": number, "seed": seed.hex(), "commitment": promise, "contributions": {}}
    )
    session.next_commitment = promise


def seed_drop(session: GameSession) -> None:
    """The session is over: no next deal, so no seed waits for it (and none is ever shown)."""
    SeedDraw.objects.filter(session=session).delete()
    session.next_commitment = ""


@dataclass(frozen=True)
class Shuffle:
    """The stream a deal is dealt from, and what its record says of how (``Deal.fair``)."""

    stream: FairShuffle
    fair: dict


def shuffle_take(session: GameSession, number: int, seats: Sequence[Seat]) -> Shuffle:
    """Deal ``number``'s stream: the seed committed to for it with every seated person's contribution
    (in seat order; a computer or an empty contribution adds nothing). A table that has no seed
    waiting for this deal (made before deals were verified) draws one now."""
    draw = SeedDraw.objects.select_for_update().filter(session=session).first()
    if draw is None or draw.number != number:
        seed_draw(session, number)
        draw = SeedDraw.objects.select_for_update().get(session=session)
    given = draw.contributions
    contributions = [given.get(str(seat.user_id), "") if seat.user_id and not seat.computer else "" for seat in seats]
    seed = bytes.fromhex(draw.seed)
    draw.delete()
    fair = {
        "stream": "fair-shuffle-v1",
        "identity": deal_identity(session.pk, number),
        "commitment": draw.commitment,
        "seed": draw.seed,
        "contributions": contributions,
    }
    return Shuffle(FairShuffle(seed, contributions), fair)


@transaction.atomic
def contribution_add(*, session_id: int, user: User, commitment: str, value: str) -> bool:
    """Add ``user``'s randomness to the shuffle of the deal committed to as ``commitment``.

    Whether it is in: ``False`` when that deal has been dealt already (the page asks again
    for the next one). A contribution replaces the same person's earlier one for that deal.
    """
    if not isinstance(value, str) or not CONTRIBUTION.fullmatch(value):
        raise TableError(
            _("A contribution to the shuffle is up to %(count)d hexadecimal digits.") % {"count": MAX_CONTRIBUTION},
            code="contribution",
        )
    draw = SeedDraw.objects.select_for_update().filter(session_id=session_id).first()
    if draw is None or draw.commitment != commitment:
        return False
    seat = Seat.objects.filter(session_id=session_id, user=user).first()
    if seat is None or seat.left:
        raise NotSeated(_("Only a seated player adds to the shuffle."))
    draw.contributions = {**draw.contributions, str(user.pk): value}
    draw.save(update_fields=["contributions"])
    return True


def verify_count(*, client: str | None) -> bool:
    """Count one check on the verify page for ``client`` (its address; IPv6: its /64): whether it
    may be made, at most ``FEMKORT_VERIFY_RATE`` (count/seconds) across every server process.
    A check refused here counts for nothing and must do nothing."""
    count, seconds = settings.FEMKORT_VERIFY_RATE
    return throttle.hit({throttle.client_key("verify", client): (count, "client")}, window=seconds) is None
