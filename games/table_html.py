"""The table as HTML for one viewer, sharing with other viewers everything that is the same for them.

A table is three pieces: the seats, tricks and results (the same for everyone at a sequence
number once the session runs), the hand with its prompt (one per seat), and a thin wrapper
saying whose page it is. Shared pieces are rendered once per table, sequence number,
language and presence, in each process, however many sockets show them. During play a socket
is sent only the regions that changed since the table it last sent (``changed_frame``).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from .models import GameSession
from .selectors import TableView

KEEP_PIECES = 4000
_lock = threading.Lock()
_pieces: OrderedDict[Hashable, str] = OrderedDict()


def forget_all() -> None:
    with _lock:
        _pieces.clear()


def table_html(table: TableView, *, error: str = "", request=None) -> str:
    """The ``#table`` element as ``table``'s viewer sees it (``request`` adds CSRF tokens to the forms)."""
    context = {"table": table, "error": error, "seat_rows": _seat_rows(table)}
    if request is not None:  # forms carry this visitor's CSRF token: nothing to share
        body = render_to_string("games/_table_body.html", context, request)
        hand = render_to_string("games/_hand.html", context, request)
    else:
        body = _shared(("body", *_key(table), _body_variant(table)), "games/_table_body.html", context)
        hand = _shared(
            (
                "hand",
                get_language(),
                table.session.pk,
                table.hand,
                table.my_turn,
                table.actions,
                table.choices,
                table.refusal,
            ),
            "games/_hand.html",
            context,
        )
    return render_to_string("games/_table.html", context | {"body": mark_safe(body), "hand": mark_safe(hand)})


# The table's regions: each one element, with an id, between markers in the templates.
REGION = re.compile(r"<!--r:([\w-]+)-->.*?<!--/r-->", re.S)


def regions_of(html: str) -> dict[str, str]:
    """The table's regions by name, in page order (the state last), each with its markers."""
    return {match.group(1): match.group(0) for match in REGION.finditer(html)}


def changed_frame(html: str, shown: dict[str, str] | None) -> tuple[str, dict[str, str]]:
    """What a page that shows ``shown`` needs to show the table ``html``: only the regions that changed,
    each swapped in by its id (the state last), or the whole table when nothing is shown yet or
    anything outside the regions differs (a hand appears, a seat sits out, the deal ends). Returns the
    frame and what it leaves shown (the regions, and under ``""`` the rest of the table)."""
    regions = regions_of(html)
    opened = html.index(">", html.index('<div id="table"')) + 1  # #table's own attributes: table.js copies them
    regions[""] = REGION.sub("", html[opened:])
    if shown is None or regions.keys() != shown.keys() or regions[""] != shown[""]:
        return html, regions
    return "".join(text for name, text in regions.items() if name and shown[name] != text), regions


def _seat_rows(table: TableView) -> list[str]:
    """Once play starts, each seat looks the same to everyone: rendered once until that seat changes."""
    if table.session.status == GameSession.Status.WAITING:
        return []
    language = get_language()
    return [mark_safe(_shared(("seat", language, seat), "games/_seat.html", {"seat": seat})) for seat in table.seats]


def presence_html(table: TableView) -> str:
    """Only the seats' online markers, swapped in place (``hx-swap-oob``) when someone comes or goes."""
    return _shared(
        ("presence", *_key(table)),
        None,
        {},
        lambda: "".join(
            render_to_string("games/_presence.html", {"seat": seat, "oob": True})
            for seat in table.seats
            if not seat.computer and not seat.empty
        ),
    )


def message_html(message: str) -> str:
    return render_to_string("games/_message.html", {"message": message})


def _key(table: TableView) -> tuple:
    online = frozenset(seat.position for seat in table.seats if seat.connected)
    return (table.session.pk, table.session.seq, get_language(), online)


def _body_variant(table: TableView) -> tuple:
    """Who is looking changes the seats' buttons only while the table waits for players."""
    if table.session.status != GameSession.Status.WAITING:
        return ()
    return (table.my_seat, table.is_host, table.signed_in, table.can_join, tuple(s.kept_for_me for s in table.seats))


def _shared(key: Hashable, template: str | None, context: dict, render: Callable[[], str] | None = None) -> str:
    with _lock:
        html = _pieces.get(key)
        if html is not None:
            _pieces.move_to_end(key)
            return html
    html = render() if render else render_to_string(template, context)
    with _lock:
        _pieces[key] = html
        while len(_pieces) > KEEP_PIECES:
            _pieces.popitem(last=False)
    return html
