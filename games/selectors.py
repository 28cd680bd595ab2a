"""Reads that build pages. The table is always rendered from one seat's view, never the full deal."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine.game import EVERYONE, CardName, Match, SeatName, SuitName, Text
from games.engine.game import Count as Amount
from games.engine.tricks.deal import ACTION_WORDS, REDEAL_YES, DealState, Trick, playing_order, winning_card
from games.engine.tricks.views import SeatView, view_for

from .cardnames import card_face, card_label, card_short, suit_name
from .engine import GAMES, IllegalPlay, TrickGame
from .engine.cards import INDEX
from .models import LEVEL_NAMES, PRESENCE_TIMEOUT, Connection, Deal, GameSession, Play, Seat
from .records import deal_state, match_of, players_needed


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    summary: str
    players: str


def game_title(rules: TrickGame) -> str:
    """The game's name as the viewer's language writes it: the name itself, with a local name in
    brackets where the language has one (translators add it)."""
    return _(rules.title)


def game_list() -> list[GameEntry]:
    """Every game the site offers, in the registry's order, worded for the lobby."""
    return [
        GameEntry(
            name,
            game_title(rules),
            _(rules.summary),
            _players(rules.min_players, rules.max_players),
        )
        for name, rules in GAMES.items()
        if rules.on_site
    ]


def _players(low: int, high: int) -> str:
    """How many play a game: "3 to 10 players", or "4 players" for a game of one number only."""
    if low == high:
        return ngettext("%(count)d player", "%(count)d players", low) % {"count": low}
    return _("%(low)d to %(high)d players") % {"low": low, "high": high}


@dataclass(frozen=True)
class OptionText:
    label: str
    help: str
    default_text: str


def option_texts(rules: TrickGame) -> list[OptionText]:
    """A game's table options worded for its rules page, with their defaults."""
    texts = []
    for option in rules.options_schema:
        if option.kind == "flag":
            default = _("on") if option.default else _("off")
        elif option.kind == "choice":
            default = _(dict(option.choices)[option.default])
        else:
            default = str(option.default)
        texts.append(OptionText(_(option.label), _(option.help), default))
    return texts


def game_entry(rules: TrickGame) -> GameEntry:
    return next(entry for entry in game_list() if entry.name == rules.name)


def game_or_first(name: str | None) -> TrickGame:
    """The game asked for, or the first one listed when the name is missing or unknown."""
    rules = GAMES.get(name or "")
    return rules if rules is not None and rules.on_site else next(game for game in GAMES.values() if game.on_site)


def say(text: Text | Amount, names: Sequence[str] = (), **extra: object) -> str:
    """A game's sentence in the viewer's language, its seats, cards and suits put in as words
    (``names``: the seats' names); ``extra`` fills what only the site knows (a deal's number).
    A number with its noun (``Count``) is said in the plural form the language gives that number."""
    if isinstance(text, Amount):
        return say_count(text)
    return _said(text, names, extra)


def _said(text: Text, names: Sequence[str], extra: dict) -> str:
    message = pgettext(text.context, text.message) if text.context else _(text.message)
    if not text.params and not extra:
        return message
    return message % ({key: _param(value, names) for key, value in text.params} | extra)


def _param(value: object, names: Sequence[str]) -> object:
    if isinstance(value, SeatName):
        return names[value.seat] if value.seat < len(names) else ""
    if isinstance(value, CardName):
        return card_short(value.card)
    if isinstance(value, SuitName):
        return suit_name(value.suit)
    if isinstance(value, Text):
        return _said(value, names, {})
    if isinstance(value, Amount):
        return say_count(value)
    return value


def say_count(count: Amount) -> str:
    return ngettext(count.singular, count.plural, count.count) % {"count": count.count}


LOBBY_PAGE = 20


@dataclass(frozen=True)
class LobbyList:
    """One page of one of the lobby's lists, newest first."""

    sessions: list[GameSession]
    page: Page


def idle_waiting(before: datetime) -> QuerySet[GameSession]:
    """Waiting tables with no change since ``before`` and none of their people around since then
    (no page or poll, no live socket): they close on their own, and the lobby no longer lists them."""
    seated_here = Seat.objects.filter(session=OuterRef("session"), user=OuterRef("user"))
    seen = Seat.objects.filter(session=OuterRef("pk"), user__isnull=False, seen__gte=before)
    connected = Connection.objects.filter(Exists(seated_here), session=OuterRef("pk"), seen__gte=before)
    waiting = GameSession.objects.filter(status=GameSession.Status.WAITING, active__lt=before)
    return waiting.exclude(Exists(seen)).exclude(Exists(connected))


def waiting_cutoff() -> datetime:
    return timezone.now() - timedelta(seconds=settings.FEMKORT_WAITING_EXPIRE_SECONDS)


def lobby_tables(*, waiting_page: object = 1, playing_page: object = 1) -> dict[str, LobbyList]:
    """Tables waiting for players (newest first), and sessions in play (most recently started
    first) with whom each is waiting for and since when; each list one page at a time."""
    annotated = GameSession.objects.select_related("host").annotate(
        taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__computer=""))
    )
    with_seats = annotated.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    idle = idle_waiting(waiting_cutoff()).values("pk")
    waiting_all = with_seats.filter(status=GameSession.Status.WAITING).exclude(pk__in=idle).order_by("-created", "-pk")
    playing_all = with_seats.filter(status=GameSession.Status.PLAYING).order_by("-started", "-pk")
    pages = {
        "waiting": Paginator(waiting_all, LOBBY_PAGE).get_page(waiting_page),
        "playing": Paginator(playing_all, LOBBY_PAGE).get_page(playing_page),
    }
    waiting, playing = list(pages["waiting"]), list(pages["playing"])
    now = timezone.now()
    for session in [*playing, *waiting]:
        rules = game_or_first(session.game)
        session.rules_in_short = " · ".join(say(text) for text in rules.describe(rules.parse_options(session.options)))
        session.seated = [seat.name for seat in session.seats.all() if not seat.is_empty]
        session.age_seconds = int((now - session.created).total_seconds())
    for session in playing:
        seats = list(session.seats.all())
        seat = seats[session.to_act] if session.to_act is not None and session.to_act < len(seats) else None
        person = seat is not None and not seat.played_by
        session.waiting_for = seat.name if person else ""
        session.waiting_seconds = (
            int((now - session.turn_since).total_seconds()) if person and session.turn_since else 0
        )
        session.waiting_minutes = session.waiting_seconds // 60
    return {"waiting": LobbyList(waiting, pages["waiting"]), "playing": LobbyList(playing, pages["playing"])}


@dataclass(frozen=True)
class CardView:
    card: str
    label: str
    short: str
    red: bool
    legal: bool = False
    won: bool = False
    seat_name: str = ""
    seat: int | None = None  # who played it, where that matters (a trick's cards lie in front of their players)

    @property
    def face(self) -> str:
        return mark_safe(card_face(self.card))

    @property
    def said(self) -> str:
        """The play in words, for the table's announcements."""
        return _("%(name)s plays the %(card)s.") % {"name": self.seat_name, "card": self.label.lower()}


@dataclass(frozen=True)
class SeatPanel:
    """One seat as everyone sees it; hashable, so its rendering is shared until it changes."""

    position: int
    name: str
    computer: str
    scores: tuple[str, ...]  # worded: "2 wins", "7 chips", "3 tokens"
    is_dealer: bool
    to_act: bool
    is_me: bool
    empty: bool
    connected: bool
    hand_size: int
    played: tuple[CardView, ...] = ()
    stand_in: bool = False  # a computer plays for this seat's person
    kept_for: str = ""  # a waiting seat kept for this person (play again)
    tricks_taken: int | None = None  # this deal, where the game's score depends on it
    face_up: tuple[CardView, ...] = ()  # turned up in this seat's hand (the trump card)
    kept_for_me: bool = False
    left: bool = False
    deadline: int | None = None  # the turn clock's end, in milliseconds since the epoch
    short_name: str = ""  # "Cleo", where ``name`` says "Cleo (computer, medium)"
    level: str = ""  # a computer's level, worded
    team: int | None = None  # games of partnerships: which one (partners sit facing each other)
    partner: str = ""  # the partner's name
    sitting_out: bool = False  # this deal is played without this seat (a partner went alone)


@dataclass(frozen=True)
class TableSnapshot:
    """A table at one sequence number, read in one consistent transaction.

    It holds the whole deal, hidden hands included, so it never leaves the server: pages
    and frames see it only through ``table_view`` for one viewer. A sequence number names
    exactly one state, so a snapshot can be shared by every viewer until the next change.
    """

    session: GameSession
    seats: tuple[Seat, ...]
    deal: Deal | None
    state: DealState | None
    previous: tuple[Deal, DealState] | None  # the last finished deal, while its result is on show
    online: frozenset[int]  # users with a live connection when it was read
    rematch_seats: tuple[tuple[int, int | None, int | None], ...] = ()  # play again: (position, user, invited)
    # What every viewer sees alike, worked out once per presence and language (see ``_public``).
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def seq(self) -> int:
        return self.session.seq

    def computer_to_act(self) -> Seat | None:
        """The seat a computer plays now; none while nobody plays their own seat (see ``turn_check``)."""
        if self.session.status != GameSession.Status.PLAYING or self.state is None or self.state.to_act is None:
            return None
        if self.session.unattended_since is not None:
            return None
        seat = self.seats[self.state.to_act]
        return seat if seat.played_by else None


@dataclass(frozen=True)
class TableHeader:
    """What the rules make public about the whole table, worded for the header."""

    game: str
    game_title: str
    facts: tuple[str, ...]  # the options in short
    trump: str = ""  # the trump suit's name, when there is one
    pot: int | None = None
    extra_deal: str = ""  # a tie-break deal, announced
    poll: str = ""  # a request for new cards, and how it stands
    contract: tuple[str, ...] = ()  # what the auction settled, or where it stands
    standing: tuple[str, ...] = ()  # the partnerships' scores
    upcard: CardView | None = None  # the card turned up beside the hands, while trump is being made
    bidding: tuple[str, ...] = ()  # this deal's bids and calls so far, in words, in order


@dataclass(frozen=True)
class ActionChoice:
    """A button for a bid or call: what it says, and what it means."""

    action: str
    label: str
    meaning: str = ""


@dataclass
class TableView:
    session: GameSession
    my_seat: int | None
    is_host: bool
    seats: list[SeatPanel]
    hand: tuple[CardView, ...]
    trick: list[CardView]
    trick_taken: str  # "Cleo takes the trick.", while the taken trick is still on show
    prompt: str
    deal_number: int | None
    last_deal: str
    last_trick: list[CardView]
    my_turn: bool
    signed_in: bool
    can_start: bool
    can_join: bool
    finished_summary: str
    actions: tuple[str, ...] = ()  # besides cards: what the viewer may do now (ask for, agree to, refuse new cards)
    needed: int = 2  # seats to fill before the session can start
    choices: tuple[ActionChoice, ...] = ()  # the viewer's bids or calls, when it is their turn in an auction
    can_leave: bool = False
    can_reclaim: bool = False
    can_rematch: bool = False
    rematch_id: int | None = None
    invited: bool = False  # a seat at the rematch table is kept for this viewer
    header: TableHeader | None = None
    refusal: str = ""  # why a card of the hand that may not be played now is refused, said when one is tried
    server_now: int = 0  # milliseconds since the epoch, so the page's countdown ignores the viewer's clock

    @property
    def choices_explained(self) -> bool:
        """Whether any bid or call on offer says what it means (the bar explains them on demand)."""
        return any(choice.meaning for choice in self.choices)


def table_snapshot(session_id: int) -> TableSnapshot | None:
    """Read a table in one transaction that sees one moment, so the cards shown always match its ``seq``."""
    outermost = not connection.in_atomic_block  # inside a transaction already, that one decides what is seen
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        session = GameSession.objects.select_related("host").filter(pk=session_id).first()
        if session is None:
            return None
        seats = tuple(session.seats.select_related("user", "invited"))
        deal = session.deals.order_by("-number").first() if session.status != GameSession.Status.WAITING else None
        state = deal_state(deal) if deal else None
        previous = None
        if state is not None and (state.is_over or not state.tricks):
            finished = (
                deal if state.is_over else session.deals.filter(finished__isnull=False).order_by("-number").first()
            )
            previous = (finished, state if finished is deal else deal_state(finished)) if finished else None
        rematch_seats = ()
        if session.rematch_id is not None:
            again = Seat.objects.filter(session_id=session.rematch_id, session__status=GameSession.Status.WAITING)
            rematch_seats = tuple(again.values_list("position", "user_id", "invited_id"))
        return TableSnapshot(session, seats, deal, state, previous, online_users(session_id), rematch_seats)


def table_snapshot_after(known: TableSnapshot) -> TableSnapshot | None:
    """The table a few cards on from ``known`` within the same deal, read in one statement.

    Another process made the change: rather than read the whole table again, read only the
    session's number and the deal's plays after those already known (one statement sees one
    moment). ``None`` when anything else changed too (a deal ended, the session moved on
    otherwise): then the whole table is read.
    """
    if known.state is None or known.deal is None or known.session.status != GameSession.Status.PLAYING:
        return None
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.seq, s.status, s.due, s.to_act, s.turn_since, s.deadline, p.action, p.seat "
            f"FROM {quote(GameSession._meta.db_table)} s "
            f"LEFT JOIN {quote(Play._meta.db_table)} p ON p.deal_id = %s AND p.seq > %s "
            "WHERE s.id = %s ORDER BY p.seq",
            [known.deal.pk, known.state.action_count, known.session.pk],
        )
        rows = cursor.fetchall()
    if not rows:
        return None
    seq, status, due, to_act, turn_since, deadline = rows[0][:6]
    cards = [(row[7], row[6]) for row in rows if row[6] is not None]
    if status != GameSession.Status.PLAYING or not cards or seq != known.seq + len(cards):
        return None
    state = known.state
    for seat, action in cards:
        state = state.apply(action, seat=seat if action == REDEAL_YES else None)
    if state.is_over:
        return None
    session = copy.copy(known.session)
    session.seq, session.due, session.to_act = seq, _as_datetime(due), to_act
    session.turn_since, session.deadline = _as_datetime(turn_since), _as_datetime(deadline)
    return replace(known, session=session, state=state)


def _as_datetime(value: datetime | str | None) -> datetime | None:
    """A raw column as Django would give it (SQLite returns text)."""
    if value is None:
        return None
    parsed = value if isinstance(value, datetime) else parse_datetime(value)
    return parsed if parsed is None or timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


def online_users(session_id: int) -> frozenset[int]:
    """Users with a websocket open at this table (rows left by a dead process age out)."""
    alive = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)
    rows = Connection.objects.filter(session_id=session_id, seen__gte=alive, user__isnull=False)
    return frozenset(rows.values_list("user_id", flat=True))


def table_view(snapshot: TableSnapshot, user: User | None, online: frozenset[int] | None = None) -> TableView:
    """The table as ``user`` may see it (a spectator if not seated): other hands only as card counts."""
    session, seats, state = snapshot.session, snapshot.seats, snapshot.state
    online = snapshot.online if online is None else online
    signed_in = bool(user and user.is_authenticated)
    # A seat left for good is no longer the leaver's: from then on they see what a spectator sees.
    me = next((s.position for s in seats if signed_in and s.user_id == user.pk and not s.left), None)
    view = view_for(state, me) if state and me is not None else None
    panels, (trick, trick_taken), (last_deal, last_trick), finished, header = _public(
        snapshot, online, me, user.pk if signed_in else None
    )
    filled = sum(not seat.is_empty for seat in seats)
    is_host = signed_in and user.pk == session.host_id
    waiting = session.status == GameSession.Status.WAITING
    playing = session.status == GameSession.Status.PLAYING
    mine = seats[me] if me is not None else None
    stood_in = bool(mine and mine.stand_in)  # a computer plays these cards: they are not the viewer's to play
    rules = GAMES[session.game]
    names = [seat.short_name for seat in seats]
    acting = bool(view and playing and not stood_in)
    return TableView(
        session=session,
        my_seat=me,
        is_host=is_host,
        seats=panels,
        hand=_hand(view),
        trick=trick,
        trick_taken=trick_taken,
        prompt=_prompt(None if stood_in else view or (view_for(state, None) if state else None), seats, header, rules),
        deal_number=snapshot.deal.number if snapshot.deal else None,
        last_deal=last_deal,
        last_trick=last_trick,
        my_turn=bool(view and view.my_turn and playing and not stood_in),
        signed_in=signed_in,
        can_start=waiting and is_host and filled >= players_needed(session.game),
        needed=players_needed(session.game),
        can_join=waiting and signed_in and me is None and filled < len(seats),
        finished_summary=finished,
        actions=tuple(a for a in view.actions if a in ACTION_WORDS) if acting else (),
        choices=_choices(rules, view, names) if acting and view.my_turn else (),
        can_leave=bool(playing and mine and not mine.left),
        can_reclaim=bool(playing and mine and mine.stand_in and not mine.left),
        can_rematch=session.status == GameSession.Status.FINISHED and is_host and session.rematch_id is None,
        rematch_id=session.rematch_id,
        invited=signed_in and any(invited == user.pk and taker is None for _, taker, invited in snapshot.rematch_seats),
        server_now=int(timezone.now().timestamp() * 1000),
        header=header,
        refusal=_refusal(state, view) if acting else "",
    )


def _refusal(state: DealState, view: SeatView) -> str:
    """Why the server would refuse a card of the viewer's hand that may not be played now, in
    the words it would use (the engine names the rule; the site words it once, in
    ``services.errors``): the page says it next to the hand when such a card is tried."""
    from .services.errors import IllegalCard  # (the services read tables through this module)

    legal = set(view.legal) if view.my_turn else set()
    refused = next((card for card in view.hand if card not in legal), None)
    if refused is None:
        return ""
    try:
        state.apply(refused, seat=view.seat)
    except IllegalPlay as error:
        return IllegalCard(error).message
    return ""


def _choices(rules: TrickGame, view: SeatView, names: list[str]) -> tuple[ActionChoice, ...]:
    """The bids or calls the viewer may make now, each worded with what it means."""
    choices = []
    for action in view.actions:
        if action in ACTION_WORDS or action in INDEX:
            continue
        label, meaning = rules.action_text(action, view)
        choices.append(ActionChoice(action, say(label, names), say(meaning, names) if meaning else ""))
    return tuple(choices)


def _public(snapshot: TableSnapshot, online: frozenset[int], me: int | None, viewer: int | None) -> tuple:
    """Seats, trick, last deal and result: the same for every viewer once the session runs."""
    key = (online, get_language())
    if snapshot.state is not None and key in snapshot.memo:
        return snapshot.memo[key]
    view = view_for(snapshot.state, None) if snapshot.state else None
    won = {winning_card(view.seats, trick) for trick in view.tricks} if view else set()
    rules = GAMES[snapshot.session.game]
    match = match_of(snapshot.session, snapshot.seats) if snapshot.session.match else None
    public = (
        [
            _panel(
                seat,
                me,
                view,
                won,
                seat.user_id in online,
                _clock(snapshot.session),
                viewer,
                rules,
                match,
                snapshot.state,
                [s.short_name for s in snapshot.seats],
            )
            for seat in snapshot.seats
        ],
        _trick(view, snapshot.seats),
        _last_deal(snapshot, view),
        session_result(snapshot.session, snapshot.seats),
        _header(snapshot, rules, match, view),
    )
    if snapshot.state is not None:
        snapshot.memo[key] = public
    return public


def table_view_for(session: GameSession, user: User | None) -> TableView:
    snapshot = table_snapshot(session.pk)
    return table_view(snapshot, user)


def _panel(
    seat: Seat,
    me: int | None,
    view: SeatView | None,
    won: set[str],
    connected: bool,
    deadline: int | None,
    viewer: int | None,
    rules: TrickGame,
    match: Match | None,
    deal: DealState | None,
    names: list[str],
) -> SeatPanel:
    played = tuple(card_view(c, won=c in won) for c in view.played[seat.position]) if view else ()
    partners = [names[p] for p in rules.partners(seat.position, len(names))[1:]]
    team = next(i for i, team in enumerate(rules.teams(len(names))) if seat.position in team) if partners else None
    taken = sum(trick.winner == seat.position for trick in view.tricks) if view and rules.counts_tricks else None
    return SeatPanel(
        position=seat.position,
        name=seat.name,
        short_name=seat.short_name,
        level=str(LEVEL_NAMES.get(seat.computer, seat.computer)) if seat.computer else "",
        computer=seat.computer,
        scores=tuple(say_count(count) for count in rules.seat_scores(match, seat.position, deal)) if match else (),
        tricks_taken=taken,
        face_up=tuple(card_view(card) for owner, card in view.face_up if owner == seat.position) if view else (),
        is_dealer=bool(view and view.dealer == seat.position),
        to_act=bool(view and view.to_act == seat.position),
        is_me=seat.position == me and view is None,  # only a waiting table's seats depend on who looks
        empty=seat.is_empty,
        connected=connected and not seat.left,  # a page left open is not a player at the table
        hand_size=view.hand_sizes[seat.position] if view and seat.position in view.seats else 0,
        played=played,
        stand_in=bool(seat.user_id and seat.stand_in),
        left=seat.left,
        deadline=deadline if view and view.to_act == seat.position else None,
        kept_for=seat.invited.name if seat.invited_id and seat.is_empty else "",
        kept_for_me=bool(viewer and seat.invited_id == viewer),
        team=team,
        partner=", ".join(partners),
        sitting_out=bool(view and seat.position not in view.seats),
    )


def _clock(session: GameSession) -> int | None:
    """The running turn clock's end, in milliseconds since the epoch (what the page counts down to)."""
    return int(session.deadline.timestamp() * 1000) if session.deadline else None


def _header(snapshot: TableSnapshot, rules: TrickGame, match: Match | None, view: SeatView | None) -> TableHeader:
    playing = snapshot.session.status == GameSession.Status.PLAYING
    extra = rules.extra_deal(match) if match is not None and playing else None
    tiebreak = ""
    if extra:
        names = ", ".join(snapshot.seats[seat].name for seat in extra)
        tiebreak = _("Tie-break: %(names)s play one more deal for the session.") % {"names": names}
    return TableHeader(
        game=rules.name,
        game_title=game_title(rules),
        facts=tuple(say(text) for text in rules.describe(rules.parse_options(snapshot.session.options))),
        trump=suit_name(view.trump) if view and view.trump else "",
        pot=rules.pot(match, snapshot.state) if match is not None and snapshot.state is not None else None,
        extra_deal=tiebreak,
        poll=_poll(snapshot.state, [seat.name for seat in snapshot.seats]),
        **_auction(snapshot, rules, match, view),
    )


def _auction(snapshot: TableSnapshot, rules: TrickGame, match: Match | None, view: SeatView | None) -> dict:
    """The header's words for a game with bidding or partnerships: the bids so far, what they
    settled, the upcard while trump is being made, and the partnerships' scores."""
    names = [seat.short_name for seat in snapshot.seats]
    standing = tuple(say(text, names) for text in rules.match_facts(match)) if match is not None else ()
    if view is None or snapshot.session.status != GameSession.Status.PLAYING:
        return {"standing": standing}
    callers = snapshot.state.callers
    return {
        "standing": standing,
        "contract": tuple(say(text, names) for text in rules.contract_facts(view)) if view.calls or view.upcard else (),
        "upcard": card_view(view.upcard) if rules.upcard_on_show(view) else None,
        "bidding": tuple(
            say(rules.call_said(view, index), names, name=names[seat]) for index, seat in enumerate(callers)
        ),
    }


def _poll(state: DealState | None, names: list[str]) -> str:
    """Someone asked for new cards: who, and who must answer (or who refused), until the first card."""
    poll = state.poll if state is not None else None
    if poll is None or state.plays:
        return ""
    asker = names[poll.asker]
    if poll.outcome is None:
        return _("%(asker)s asks for new cards; waiting for %(voter)s to answer.") % {
            "asker": asker,
            "voter": names[poll.voter],
        }
    start = poll.seats.index(poll.asker)
    refuser = next(seat for seat in [*poll.seats[start + 1 :], *poll.seats[:start]] if seat not in poll.agreed)
    return _("%(asker)s asked for new cards; %(refuser)s refused: play goes on.") % {
        "asker": asker,
        "refuser": names[refuser],
    }


def card_view(
    card: str, *, legal: bool = False, won: bool = False, seat_name: str = "", seat: int | None = None
) -> CardView:
    return CardView(card, card_label(card), card_short(card), card[1] in "HD", legal, won, seat_name, seat)


def trick_view(
    seats: Sequence[int], trick: Trick, names: Sequence[str], *, mark_winner: bool = False
) -> list[CardView]:
    """A trick's cards in playing order, each with its player's name (and the winner marked)."""
    return [
        card_view(card, won=mark_winner and seat == trick.winner, seat_name=names[seat], seat=seat)
        for seat, card in zip(playing_order(seats, trick.leader), trick.cards, strict=False)
    ]


def _hand(view: SeatView | None) -> tuple[CardView, ...]:
    if not view:
        return ()
    return tuple(card_view(card, legal=card in view.legal) for card in _sorted_hand(view.hand, view))


def _sorted_hand(cards: tuple[str, ...], view: SeatView) -> list[str]:
    """By suit, alternating colours, highest first; a card that counts as another suit (a left
    bower) sits with that suit."""
    order = "SHCD"
    rules, trump = view.rules, view.trump
    suit = {card: rules.suit_in_play(card, trump) for card in cards}
    return sorted(cards, key=lambda c: (order.index(suit[c]), -rules.card_power(c, suit[c], trump)))


def _trick(view: SeatView | None, seats: list[Seat]) -> tuple[list[CardView], str]:
    """The trick in the middle, and once it is complete, who took it: a taken trick stays on
    show until the next card is led, so everyone can see it."""
    if not view or not view.trick:
        return [], ""
    names = [seat.short_name for seat in seats]
    if view.trick.cards or not view.tricks:
        return trick_view(view.seats, view.trick, names), ""
    taken = view.tricks[-1]
    message = _("%(name)s takes the trick.") % {"name": names[taken.winner]}
    return trick_view(view.seats, taken, names, mark_winner=True), message


def _prompt(
    view: SeatView | None, seats: list[Seat], header: TableHeader | None = None, rules: TrickGame | None = None
) -> str:
    if view is not None and view.my_turn and view.trick is None and rules is not None:
        return say(rules.auction_prompt(view), [seat.short_name for seat in seats])
    prompt = _prompt_for(view, seats)
    if prompt and header is not None and header.trump:
        prompt = _("%(prompt)s Trump: %(suit)s.") % {"prompt": prompt, "suit": header.trump}
    return prompt


def _prompt_for(view: SeatView | None, seats: list[Seat]) -> str:
    if not view or view.to_act is None:
        return ""
    if not view.my_turn:
        return _("Waiting for %(name)s.") % {"name": seats[view.to_act].name}
    duty, detail = view.duty
    if duty == "lead":
        return _("Your lead: play any card.")
    if duty == "overtake":
        return _("Your turn: you must overtake %(card)s.") % {"card": card_short(detail)}
    if duty == "follow":
        return _("Your turn: follow %(suit)s.") % {"suit": suit_name(detail)}
    return _("Your turn: you have no %(suit)s, play any card.") % {"suit": suit_name(detail)}


def _last_deal(snapshot: TableSnapshot, view: SeatView | None) -> tuple[str, list[CardView]]:
    """Through the next deal's first trick: who won the last deal, and its last trick (all public now)."""
    if snapshot.previous is None or (view and view.tricks and view.winner is None):
        return "", []
    finished, state = snapshot.previous
    names = [seat.short_name for seat in snapshot.seats]
    if state.redealt:
        return _("Everyone agreed to new cards: %(name)s deals again.") % {"name": names[state.dealer]}, []
    message = say(GAMES[snapshot.session.game].deal_result(state), names, number=finished.number)
    seen = view_for(state, EVERYONE)  # the deal is over: its last trick is everyone's to see
    if not seen.tricks:
        return message, []
    return message, trick_view(seen.seats, seen.tricks[-1], names, mark_winner=True)


def session_result(session: GameSession, seats: Sequence[Seat]) -> str:
    """How the session ended, in a sentence (empty while it runs)."""
    if session.status == GameSession.Status.ABANDONED:
        return _("This session was abandoned.")
    if session.status != GameSession.Status.FINISHED:
        return ""
    if session.winner_id is None:
        winners = match_of(session, seats).winners if session.match else ()
        if len(winners) == 1:
            return _("%(name)s's seat, played to the end by a computer, came first: nobody wins the session.") % {
                "name": seats[winners[0]].name
            }
        if len(winners) < 2:
            return _("The session ended in a draw.")
        names = [seats[seat].name for seat in winners]
        if tuple(sorted(winners)) in GAMES[session.game].teams(len(seats)):
            won = [seats[seat].name for seat in winners if seats[seat].won]
            if len(won) == 1:  # the partner left: the one who stayed wins
                return _("%(name)s wins the session.") % {"name": won[0]}
            return _("%(names)s and %(last)s win the session as partners.") % {
                "names": ", ".join(names[:-1]),
                "last": names[-1],
            }
        return _("%(names)s and %(last)s share the win.") % {"names": ", ".join(names[:-1]), "last": names[-1]}
    winner = next(seat for seat in seats if seat.pk == session.winner_id)
    return _("%(name)s wins the session.") % {"name": winner.name}


def sessions_of(user: User) -> QuerySet[GameSession]:
    """The sessions a player has a seat in, newest first."""
    return GameSession.objects.filter(seats__user=user).select_related("host", "winner__user").order_by("-created")[:20]


def computer_view(snapshot: TableSnapshot) -> tuple[str, SeatView] | None:
    """What the computer to act may see (and its level), or ``None`` if a person is to act."""
    seat = snapshot.computer_to_act()
    if seat is None:
        return None
    scores = match_of(snapshot.session, snapshot.seats).scores
    return seat.played_by, view_for(snapshot.state, seat.position, scores)


def overdue_tables(before: datetime) -> list[tuple[int, int, datetime]]:
    """Tables where the server should have acted by ``before`` (a computer's turn, a person's
    clock or absence): (session, seq, due)."""
    overdue = GameSession.objects.filter(Q(due__lte=before) | Q(to_act__isnull=True), status=GameSession.Status.PLAYING)
    return list(overdue.order_by("due").values_list("pk", "seq", "due")[:200])
