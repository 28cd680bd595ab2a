"""The table as HTML for one viewer, sharing with other viewers everything that is the same for them.

A table is pieces: the body (header, seats, felt: the same for everyone at a sequence number
once the session runs, each part rendered once until it changes), the hand and the prompt (one
per seat, or per prompt), the viewer's controls, and a thin wrapper saying whose page it is.
Shared pieces are rendered once per table, change, language and presence, in each process,
however many sockets show them. Each region of the page (``templates/jinja2/games/regions/`` and
the hand) is one element with an id between markers; during play a socket is sent only the regions
that changed since the table it last sent (``table_frame``), built from the pieces alone.

The pieces are Jinja2 templates (``templates/jinja2/``, Django's Jinja2 backend): they are
rendered at every move, and cost about a third of what Django's templates did.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from functools import lru_cache

from django.conf import settings
from django.template import engines
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from markupsafe import escape

from .models import GameSession
from .selectors import TableView

KEEP_PIECES = 8000  # about 12 pieces live per busy table (seats, hands, felt, header)
_lock = threading.Lock()
_pieces: OrderedDict[Hashable, str] = OrderedDict()


def forget_all() -> None:
    with _lock:
        _pieces.clear()


def render(name: str, context: dict, request=None) -> str:
    """``name`` of ``templates/jinja2/`` rendered (``request`` adds ``csrf_input`` for the forms)."""
    return _template(name).render(context, request)


def _template(name: str):
    # Jinja2 checks a template's file for changes only with DEBUG (``auto_reload``): kept otherwise.
    return engines["jinja2"].get_template(name) if settings.DEBUG else _kept_template(name)


@lru_cache(maxsize=64)
def _kept_template(name: str):
    return engines["jinja2"].get_template(name)


def table_html(table: TableView, *, error: str = "", request=None) -> SafeString:
    """The ``#table`` element as ``table``'s viewer sees it (``request`` adds CSRF tokens to the forms)."""
    return _whole(table, error, _table_pieces(table, error, request))


def areas_html(areas) -> SafeString:
    """Areas of a table drawn as the table draws them, for another page (a replay's)."""
    return mark_safe("".join(render(area.template, {"area": area}) for area in areas))


def table_frame(table: TableView, shown: dict[str, str] | None) -> tuple[str, dict[str, str]]:
    """What a page that shows ``shown`` needs to show ``table``: only the regions that changed, each
    swapped in by its id (the state last), and the dock's note emptied (``NOTE``); or the whole
    table when nothing is shown yet or anything outside the regions differs (a hand appears, a
    seat sits out, the deal ends). Returns the frame and what it leaves shown (the regions, and
    under ``""`` the rest of the table).

    A frame of regions is built from the shared pieces without rendering the table around them: per
    socket, only its own prompt, hand, controls and state."""
    pieces = _table_pieces(table, "", None)
    regions = _regions(pieces)
    if shown is None or regions.keys() != shown.keys() or regions[""] != shown[""]:
        return _whole(table, "", pieces), regions
    changed = (text for name, text in regions.items() if name and (name == NOTE or shown[name] != text))
    return "".join(changed), regions


# The table's regions: each one element, with an id, between markers in the templates.
REGION = re.compile(r"<!--r:([\w-]+)-->.*?<!--/r-->", re.S)
# The note over the prompt says why a card or call was refused. The page writes into it too (table.js,
# for a card tapped that may not be played now), so nobody here knows what it shows: every frame of
# regions empties it, and the prompt under it shows again, saying what to do now.
NOTE = "hand-note"


def regions_of(html: str) -> dict[str, str]:
    """The table's regions by name, in page order (the state last), each with its markers."""
    return {match.group(1): match.group(0) for match in REGION.finditer(html)}


def _table_pieces(table: TableView, error: str, request) -> dict[str, str]:
    """The table's pieces: the body (seats, felt, header) and the viewer's own regions."""
    context = {"table": table, "error": error}

    def render_body(request=None) -> str:  # its pieces only when the body is rendered: most sockets find it made
        pieces = {"seat_rows": _seat_rows(table), "head": _head(table), "felt": _felt(table)}
        return render("games/_table_body.html", context | pieces, request)

    if request is not None:  # forms carry this visitor's CSRF token: nothing to share
        body = render_body(request)
        hand = render("games/_hand.html", context, request)
        controls = render("games/regions/_seat_controls.html", context, request)
    else:
        body = _shared(("body", *_key(table), _body_variant(table)), None, {}, render_body)
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
                table.marking,
            ),
            "games/_hand.html",
            context,
        )
        controls = _shared(
            ("controls", get_language(), table.session.pk, *_controls_variant(table)),
            "games/regions/_seat_controls.html",
            context,
        )
    docked = bool(table.prompt or table.hand)
    prompt = (
        _shared(
            ("prompt", get_language(), table.prompt, table.my_turn and table.session.seq),
            "games/regions/_prompt.html",
            context,
        )
        if docked
        else ""
    )
    return {
        "body": body,
        "prompt": prompt,
        "hand": hand if docked else "",
        "controls": controls,
        "state": _state(table),
    }


def _state(table: TableView) -> str:
    """What changes with every move: the sequence number the forms send, and what table.js copies
    onto ``#table`` after a frame of regions. Rendered for every socket at every move, so a format,
    not a template: a third of the cost (the message is trusted, as ``_()`` in the templates)."""
    session, seq, turn = table.session, table.session.seq, table.my_turn
    commit = session.next_commitment if table.my_seat is not None else ""
    commit = f' data-next-commit="{escape(commit)}"' if commit else ""
    title = f"{gettext('Your turn')} · {escape(session)}" if turn else escape(session)
    forms = (("play-form", table.hand), ("choices-form", table.choices), ("choices-list", table.choices_listed))
    return (
        f'<!--r:table-state--><div id="table-state" hidden data-seq="{seq}" data-now="{table.server_now}"'
        f'{" data-my-turn" if turn else ""}{commit} data-title="{title} · Femkort Online">'
        + "".join(f'<input type="hidden" name="seq" value="{seq}" form="{form}">' for form, shown in forms if shown)
        + "</div><!--/r-->"
    )


def _whole(table: TableView, error: str, pieces: dict[str, str]) -> SafeString:
    safe = {name: mark_safe(html) for name, html in pieces.items()}
    return mark_safe(
        render("games/_table.html", {"table": table, "error": error, "docked": bool(pieces["hand"])} | safe)
    )


def _regions(pieces: dict[str, str]) -> dict[str, str]:
    body, skeleton = _body_regions(pieces["body"])
    regions = dict(body)
    regions.update(regions_of(pieces["prompt"]))
    if pieces["hand"]:  # the dock: the note between the prompt and the hand
        regions[NOTE] = _empty_note()
    for name in ("hand", "controls", "state"):
        regions.update(regions_of(pieces[name]))
    regions[""] = f"{skeleton}\n{bool(pieces['hand'])}"  # besides the body's, the rest only depends on the dock
    return regions


@lru_cache(maxsize=256)
def _body_regions(body: str) -> tuple[tuple[tuple[str, str], ...], str]:
    """The body's regions and what is left around them: once per body, however many sockets share it."""
    return tuple(regions_of(body).items()), REGION.sub("", body)


@lru_cache(maxsize=1)
def _empty_note() -> str:
    return render("games/regions/_note.html", {"error": ""})


def _controls_variant(table: TableView) -> tuple:
    return (
        table.session.host_id,
        table.can_reclaim,
        table.can_leave,
        table.invited,
        table.rematch_id,
        table.can_rematch,
        table.pace_choices,
        table.pace_asked,
        table.may_answer_pace,
        table.beginner_partners,
    )


def _seat_rows(table: TableView) -> list[str]:
    """Once play starts, each seat looks the same to everyone: rendered once until that seat changes,
    in two pieces (its turn and facts change with every turn, its cards played once a trick)."""
    if table.session.status == GameSession.Status.WAITING:
        return []
    language = get_language()
    rows = []
    for seat in table.seats:
        top = _shared(("seat-top", language, replace(seat, played=())), "games/regions/_seat.html", {"seat": seat})
        key = ("seat-played", language, seat.position, seat.name, seat.played)
        played = _shared(key, "games/regions/_played.html", {"seat": seat})
        context = {"seat": seat, "top": mark_safe(top), "played": mark_safe(played)}
        rows.append(mark_safe(_shared(("seat", language, seat), "games/_seat.html", context)))
    return rows


def _head(table: TableView) -> str:
    """The header: what the table is, the deal, the options, trump and the bidding; it changes seldom."""
    session = table.session
    key = (session.pk, session.status, session.turn_seconds, session.pace_seconds, table.deal_number, table.header)
    key += (table.finished_summary, table.last_deal)
    return mark_safe(_shared(("head", get_language(), *key), "games/regions/_head.html", {"table": table}))


def _felt(table: TableView) -> str:
    return mark_safe(
        _shared(("felt", get_language(), table.deal_number, table.areas), "games/regions/_felt.html", {"table": table})
    )


def presence_html(table: TableView) -> str:
    """Only the seats' online markers, swapped in place (``hx-swap-oob``) when someone comes or goes."""
    return _shared(
        ("presence", *_key(table)),
        None,
        {},
        lambda: "".join(
            render("games/_presence.html", {"seat": seat, "oob": True})
            for seat in table.seats
            if not seat.computer and not seat.empty
        ),
    )


def message_html(message: str) -> SafeString:
    """The message line; the empty one that every view carries is the same for everyone."""
    return mark_safe(render("games/_message.html", {"message": message})) if message else _no_message()


@lru_cache(maxsize=1)
def _no_message() -> SafeString:
    return mark_safe(render("games/_message.html", {"message": ""}))


def _key(table: TableView) -> tuple:
    online = frozenset(seat.position for seat in table.seats if seat.connected)
    return (table.session.pk, table.session.seq, get_language(), online)


def _body_variant(table: TableView) -> tuple:
    """Who is looking changes the seats' buttons only while the table waits for players."""
    if table.session.status != GameSession.Status.WAITING:
        return ()
    seats = tuple(s.kept_for_me for s in table.seats)
    return (table.my_seat, table.is_host, table.signed_in, table.can_join, table.can_start, table.removed, seats)


def _shared(key: Hashable, template: str | None, context: dict, render: Callable[[], str] | None = None) -> str:
    with _lock:
        html = _pieces.get(key)
        if html is not None:
            _pieces.move_to_end(key)
            return html
    html = render() if render else _template(template).render(context)
    with _lock:
        _pieces[key] = html
        while len(_pieces) > KEEP_PIECES:
            _pieces.popitem(last=False)
    return html
