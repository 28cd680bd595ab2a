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
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from accounts.models import User

from . import rights
from .cardnames import card_corner, card_face, card_label, card_short
from .engine import GAMES, find_game, get_game
from .engine.game import EVERYONE, Area, Game, Match, Shown, State, View
from .models import LEVEL_NAMES, PACES, PRESENCE_TIMEOUT, Block, Connection, Deal, Follow, GameSession, Play, Seat
from .stored import deal_state, match_of, players_needed, seat_choices, sides_of
from .words import say, say_count


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    summary: str
    players: str


def game_title(rules: Game) -> str:
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
            _players(seat_choices(rules)),
        )
        for name, rules in GAMES.items()
        if rules.on_site
    ]


def _players(choices: tuple[int, ...]) -> str:
    """How many play a game: "3 to 10 players", "4 players" for a game of one number only, or
    "2, 4 or 6 players" for a game of some numbers only."""
    low, high = choices[0], choices[-1]
    if low == high:
        return ngettext("%(count)d player", "%(count)d players", low) % {"count": low}
    if len(choices) < high - low + 1:
        return _("%(counts)s or %(last)d players") % {"counts": ", ".join(map(str, choices[:-1])), "last": high}
    return _("%(low)d to %(high)d players") % {"low": low, "high": high}


@dataclass(frozen=True)
class OptionText:
    label: str
    help: str
    default_text: str


def option_texts(rules: Game) -> list[OptionText]:
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


def game_entry(rules: Game) -> GameEntry:
    return next(entry for entry in game_list() if entry.name == rules.name)


def game_or_first(name: str | None) -> Game:
    """The game asked for, or the first one listed when the name is missing or unknown."""
    rules = find_game(name)
    return rules if rules is not None and rules.on_site else next(game for game in GAMES.values() if game.on_site)


LOBBY_PAGE = 20


@dataclass(frozen=True)
class LobbyList:
    """One page of one of the lobby's lists, newest first."""

    sessions: list[GameSession]
    page: Page


TURN_BASED_WAITING = timedelta(days=7)


def idle_waiting(before: datetime) -> QuerySet[GameSession]:
    """Waiting tables with no change since ``before`` and none of their people around since then
    (no page or poll, no live socket): they close on their own, and the lobby no longer lists them."""
    seated_here = Seat.objects.filter(session=OuterRef("session"), user=OuterRef("user"))
    seen = Seat.objects.filter(session=OuterRef("pk"), user__isnull=False, seen__gte=before)
    connected = Connection.objects.filter(Exists(seated_here), session=OuterRef("pk"), seen__gte=before)
    waiting = GameSession.objects.filter(status=GameSession.Status.WAITING, active__lt=before)
    # A turn-based table's players come by over days, not minutes: it waits a week for them.
    waiting = waiting.exclude(pace_seconds__gt=0, active__gte=before - TURN_BASED_WAITING)
    return waiting.exclude(Exists(seen)).exclude(Exists(connected))


def waiting_cutoff() -> datetime:
    return timezone.now() - timedelta(seconds=settings.FEMKORT_WAITING_EXPIRE_SECONDS)


def lobby_tables(
    *, waiting_page: object = 1, playing_page: object = 1, game: str | None = None
) -> dict[str, LobbyList]:
    """Tables waiting for players (most recent activity first), and sessions in play (most
    recently started first) with whom each is waiting for and since when; each list one page at
    a time, of one game's tables if ``game`` says."""
    annotated = GameSession.objects.select_related("host").annotate(
        taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__computer=""))
    )
    with_seats = annotated.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    idle = idle_waiting(waiting_cutoff()).values("pk")
    with_seats = with_seats.filter(unlisted=False)  # private tables are found by their link or code only
    if game is not None:
        with_seats = with_seats.filter(game=game)
    waiting_all = with_seats.filter(status=GameSession.Status.WAITING).exclude(pk__in=idle).order_by("-active", "-pk")
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
        session.seated = [seat for seat in session.seats.all() if not seat.is_empty]  # names link to profiles
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
    counters: int = 0  # chips or the like lying on it
    action: str = ""  # in the hand: what tapping it does, if not playing it (a discard)

    @property
    def face(self) -> str:
        return mark_safe(card_face(self.card))

    @property
    def corner(self) -> str:
        return mark_safe(card_corner(self.card))

    @property
    def suit(self) -> str:
        return self.card[1:]

    @property
    def said(self) -> str:
        """The play in words, for the table's announcements."""
        return _("%(name)s plays the %(card)s.") % {"name": self.seat_name, "card": self.label.lower()}


@dataclass(frozen=True)
class AreaView:
    """A public place on the table as the page draws it (see ``games.engine.game.Area``)."""

    kind: str
    name: str
    label: str
    cards: tuple[CardView, ...] = ()
    count: int = 0
    note: str = ""  # "Cleo takes the trick."
    done: bool = False
    beside: bool = False
    previous: bool = False  # the last deal's, on show until this deal gets going

    @property
    def template(self) -> str:
        return f"games/areas/_{self.kind}.html"


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
    stand_in: str = ""  # the level of the computer playing for this seat's person, said on the seat
    kept_for: str = ""  # a waiting seat kept for this person (play again)
    tally: tuple[str, ...] = ()  # this deal's counts, where the game's score depends on them ("2 tricks taken")
    face_up: tuple[CardView, ...] = ()  # turned up in this seat's hand (the trump card)
    kept_for_me: bool = False
    left: bool = False
    deadline: int | None = None  # the turn clock's end, in milliseconds since the epoch
    short_name: str = ""  # "Cleo", where ``name`` says "Cleo (computer, medium)"
    level: str = ""  # a computer's level, worded
    team: int | None = None  # games of partnerships: which one (partners sit facing each other)
    partner: str = ""  # the partner's name
    sitting_out: bool = False  # this deal is played without this seat (a partner went alone)
    is_host: bool = False  # the table's host sits here
    username: str = ""  # a person's, for the link to their profile


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
    state: State | None
    previous: tuple[Deal, State] | None  # the last finished deal, while its result is on show
    online: frozenset[int]  # users with a live connection when it was read
    rematch_seats: tuple[tuple[int, int | None, int | None], ...] = ()  # play again: (position, user, invited)
    # A waiting table's invitations by name (name, answer) and the names its host may invite:
    # read with the rest, so a page or a frame built from the snapshot asks the database nothing.
    invitations: tuple[tuple[str, str], ...] = ()
    invite_names: tuple[str, ...] = ()
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
    trump: str = ""  # "Trump: hearts", when there is one
    pot: int | None = None
    extra_deal: str = ""  # a tie-break deal, announced
    notices: tuple[str, ...] = ()  # what the table waits on (a request for new cards, and how it stands)
    contract: tuple[str, ...] = ()  # what the deal settled so far (the auction's contract)
    standing: tuple[str, ...] = ()  # the partnerships' scores
    beside: tuple[AreaView, ...] = ()  # areas drawn beside the header (the upcard, while trump is being made)
    bidding: tuple[str, ...] = ()  # this deal's public record so far (bids and calls), in words, in order
    commitment: str = ""  # the shuffle of the deal in play (or on show), committed to before it was dealt
    next_commitment: str = ""  # the next deal's, on show before it is dealt

    @property
    def upcard(self) -> CardView | None:
        area = next((area for area in self.beside if area.name == "upcard"), None)
        return area.cards[0] if area and area.cards else None


MANY_CHOICES = 16  # more than this, and the choices that are not primary go in a list


@dataclass(frozen=True)
class ActionChoice:
    """A button for an action other than a card: what it says, and what it means."""

    action: str
    label: str
    meaning: str = ""
    primary: bool = False


@dataclass(frozen=True)
class HandMarking:
    """Cards of the hand marked by tapping them (checkboxes), then taken with one button: the
    marked cards' actions first, then ``action`` (discard these, then draw as many)."""

    cards: frozenset[str]  # the cards that may be marked
    action: str  # the button's action
    label: str  # its words whatever is marked (a page without JavaScript)
    counted: tuple[str, ...]  # its words with 0, 1, 2 … cards marked (table.js shows the one that fits)

    @property
    def most(self) -> int:
        """How many cards may be marked at most."""
        return len(self.counted) - 1


@dataclass
class TableView:
    session: GameSession
    my_seat: int | None
    is_host: bool
    seats: list[SeatPanel]
    hand: tuple[CardView, ...]
    areas: tuple[AreaView, ...]  # in the middle of the table: this deal's, or the last deal's while it is on show
    prompt: str
    deal_number: int | None
    last_deal: str
    my_turn: bool
    signed_in: bool
    can_start: bool
    can_join: bool
    finished_summary: str
    actions: tuple[ActionChoice, ...] = ()  # beside the hand: asking for, agreeing to, refusing new cards
    needed: int = 2  # seats to fill before the session can start
    choices: tuple[ActionChoice, ...] = ()  # the viewer's bids or calls, when it is their turn in an auction
    can_leave: bool = False
    can_reclaim: bool = False
    can_rematch: bool = False
    rematch_id: int | None = None
    invited: bool = False  # a seat at the rematch table is kept for this viewer
    pace_choices: tuple[tuple[int, str], ...] = ()  # the other paces this person may ask the table for
    pace_asked: str = ""  # a change of pace asked and not yet agreed by everyone, as the table says it
    may_answer_pace: bool = False
    # This viewer's computer partner plays as partner to a beginner (True) or as usual (False); None:
    # they have no computer partner to ask.
    beginner_partners: bool | None = None
    beginner_partners_said: str = ""  # what a computer partner then does, in the game's terms
    header: TableHeader | None = None
    refusal: str = ""  # why a card of the hand that may not be played now is refused, said when one is tried
    server_now: int = 0  # milliseconds since the epoch, so the page's countdown ignores the viewer's clock
    removed: bool = False  # the host removed this viewer from their seat (they are told so)
    invite_names: tuple[str, ...] = ()  # the host's friends and recent opponents, offered in the name box
    invitations_sent: tuple[tuple[str, str], ...] = ()  # the host's invitations by name to this table: (name, answer)
    marking: HandMarking | None = None  # cards of the hand to mark, then one button (the draw)

    @property
    def choices_listed(self) -> tuple[ActionChoice, ...]:
        """Choices too many for buttons (a spread of chips), offered in a list; the primary ones stay buttons."""
        if len(self.choices) <= MANY_CHOICES:
            return ()
        return tuple(choice for choice in self.choices if not choice.primary)

    @property
    def choice_buttons(self) -> tuple[ActionChoice, ...]:
        if len(self.choices) <= MANY_CHOICES:
            return self.choices
        return tuple(choice for choice in self.choices if choice.primary)

    @property
    def choices_explained(self) -> bool:
        """Whether any bid or call on offer says what it means (the bar explains them on demand)."""
        return any(choice.meaning for choice in self.choices)

    @property
    def trick(self) -> AreaView | None:
        """This deal's trick in the middle, if one is on show."""
        return next((area for area in self.areas if area.kind == "trick" and not area.previous), None)


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
        if state is not None and (state.is_over or state.view(None).fresh):
            finished = (
                deal if state.is_over else session.deals.filter(finished__isnull=False).order_by("-number").first()
            )
            previous = (finished, state if finished is deal else deal_state(finished)) if finished else None
        rematch_seats = ()
        if session.rematch_id is not None:
            again = Seat.objects.filter(session_id=session.rematch_id, session__status=GameSession.Status.WAITING)
            rematch_seats = tuple(again.values_list("position", "user_id", "invited_id"))
        invitations: tuple[tuple[str, str], ...] = ()
        names: tuple[str, ...] = ()
        if session.status == GameSession.Status.WAITING:
            rows = session.invitations.select_related("invitee").order_by("created", "pk")
            invitations = tuple((row.invitee.name, str(row.get_answer_display())) for row in rows)
            names = tuple(invite_names(session.host_id))
        return TableSnapshot(
            session, seats, deal, state, previous, online_users(session_id), rematch_seats, invitations, names
        )


def table_snapshot_after(known: TableSnapshot) -> TableSnapshot | None:
    """The table a few actions on from ``known`` within the same deal, read in one statement.

    Another process made the change: rather than read the whole table again, read only the
    session's number and the deal's actions after those already known (one statement sees one
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
    actions = [(row[7], row[6]) for row in rows if row[6] is not None]
    if status != GameSession.Status.PLAYING or not actions or seq != known.seq + len(actions):
        return None
    state = known.state
    for seat, action in actions:
        state = state.apply(action, seat=seat)
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


def invite_names(user_id: int, limit: int = 30) -> list[str]:
    """Whom the host may want to invite: friends first, then recent opponents (for the name box's list)."""
    friends = list(Follow.objects.filter(user_id=user_id).values_list("followed__username", flat=True)[:limit])
    met = (
        Seat.objects.filter(session__seats__user_id=user_id, user__isnull=False)
        .exclude(user_id=user_id)
        .order_by("-session__created")
        .values_list("user__username", flat=True)[: limit * 4]
    )
    blocked = set(Block.objects.filter(user_id=user_id).values_list("blocked__username", flat=True))
    names = [name for name in dict.fromkeys([*friends, *met]) if name not in blocked]
    return names[:limit]


@dataclass(frozen=True)
class FriendOnline:
    name: str
    username: str
    table: GameSession | None  # the open table they are at, if the viewer may know of it


def friends_online(user: User) -> list[FriendOnline]:
    """The players ``user`` follows who have a page open now, and at which open table. Nobody who
    blocked ``user`` (or whom they blocked) is listed, and a private table is named only to those
    seated at it."""
    alive = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)
    friends = (
        Follow.objects.filter(user=user)
        .exclude(followed__blocks__blocked=user)
        .exclude(followed_id__in=Block.objects.filter(user=user).values("blocked_id"))
        .values("followed_id")
    )
    rows = list(
        Connection.objects.filter(user_id__in=friends, seen__gte=alive)
        .select_related("user", "session")
        .order_by("user__username", "-opened")
    )
    if not rows:
        return []
    mine = set(Seat.objects.filter(user=user, left=False).values_list("session_id", flat=True)[:200])
    found: dict[int, FriendOnline] = {}
    for row in rows:
        table = row.session
        open_to_me = table is not None and table.status in (GameSession.Status.WAITING, GameSession.Status.PLAYING)
        if open_to_me and table.unlisted and table.pk not in mine:
            open_to_me = False
        known = found.get(row.user_id)
        if known is None or (known.table is None and open_to_me):
            found[row.user_id] = FriendOnline(row.user.name, row.user.username, table if open_to_me else None)
    return list(found.values())


def online_users(session_id: int) -> frozenset[int]:
    """Users with a websocket open at this table (rows left by a dead process age out)."""
    alive = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)
    rows = Connection.objects.filter(session_id=session_id, seen__gte=alive, user__isnull=False)
    return frozenset(rows.values_list("user_id", flat=True))


def table_view(snapshot: TableSnapshot, user: User | None, online: frozenset[int] | None = None) -> TableView:
    """The table as ``user`` may see it (a spectator if not seated): only what the game's view
    for that viewer holds, laid out; what they may do, by ``games.rights``."""
    session, seats = snapshot.session, snapshot.seats
    online = snapshot.online if online is None else online
    user_id = user.pk if user is not None and user.is_authenticated else None
    # A seat left for good is no longer the leaver's: from then on they see what a spectator sees.
    me = next((s.position for s in seats if user_id is not None and s.user_id == user_id and not s.left), None)
    mine = seats[me] if me is not None else None
    panels, areas, last_deal, finished, header = _public(snapshot, online, me, user_id)
    turn = _turn(snapshot, mine)
    is_host = user_id is not None and user_id == session.host_id
    hosting = is_host and session.status == GameSession.Status.WAITING
    asks_partner = rights.may_set_beginner_partners(session, seats, mine)
    return TableView(
        session=session,
        my_seat=me,
        is_host=is_host,
        seats=panels,
        hand=turn.hand,
        areas=areas,
        prompt=turn.prompt,
        deal_number=snapshot.deal.number if snapshot.deal else None,
        last_deal=last_deal,
        my_turn=turn.my_turn,
        signed_in=user_id is not None,
        can_start=rights.may_start(session, seats, user_id, online),
        needed=players_needed(session.game),
        can_join=rights.may_join(session, seats, user_id),
        removed=bool(user_id in session.removed and me is None and session.status == GameSession.Status.WAITING),
        invite_names=snapshot.invite_names if hosting else (),
        invitations_sent=snapshot.invitations if hosting else (),
        finished_summary=finished,
        actions=turn.actions,
        choices=turn.choices,
        marking=turn.marking,
        can_leave=rights.may_leave(session, mine),
        can_reclaim=rights.may_reclaim(session, mine),
        can_rematch=rights.may_rematch(session, user_id) and session.rematch_id is None,
        rematch_id=session.rematch_id,
        invited=any(invited == user_id and taker is None for _, taker, invited in snapshot.rematch_seats),
        pace_choices=_pace_choices(session) if rights.may_ask_pace(session, mine) else (),
        pace_asked=_pace_asked(session, seats),
        may_answer_pace=rights.may_answer_pace(session, mine),
        beginner_partners=mine.beginner_partner if asks_partner else None,
        beginner_partners_said=_beginner_partner_said(session) if asks_partner else "",
        server_now=int(timezone.now().timestamp() * 1000),
        header=header,
        refusal=turn.refusal,
    )


def _beginner_partner_said(session: GameSession) -> str:
    if get_game(session.game).bold_calls:
        return _(
            "Your computer partner never goes alone, never takes your trick and never leads a suit you are out of."
        )
    return _("Your computer partner never takes your trick and never leads a suit you are out of.")


def _pace_choices(session: GameSession) -> tuple[tuple[int, str], ...]:
    return tuple((pace, str(label)) for pace, label in PACES if pace != session.pace_seconds)


def _pace_asked(session: GameSession, seats: Sequence[Seat]) -> str:
    asked = session.pace_asked
    if not asked or session.status != GameSession.Status.PLAYING:
        return ""
    asker = next((seat.short_name for seat in seats if seat.user_id == asked.get("by")), "")
    pace = str(dict(PACES).get(asked["pace"], ""))
    return _("%(name)s asks to play on: %(pace)s. %(agreed)d of %(voters)d agree; everyone must.") % {
        "name": asker,
        "pace": pace,
        "agreed": len(asked["yes"]),
        "voters": len(rights.pace_voters(seats)),
    }


@dataclass(frozen=True)
class _Turn:
    """What the viewer's own seat may do now: empty for a spectator, a seat a computer stands in
    for, or a session not in play."""

    prompt: str = ""
    hand: tuple[CardView, ...] = ()
    my_turn: bool = False
    actions: tuple[ActionChoice, ...] = ()
    choices: tuple[ActionChoice, ...] = ()
    marking: HandMarking | None = None
    refusal: str = ""


def _turn(snapshot: TableSnapshot, mine: Seat | None) -> _Turn:
    state, seats = snapshot.state, snapshot.seats
    full_names = [seat.name for seat in seats]
    acting = mine is not None and not mine.stand_in  # a computer plays a stood-in seat's cards
    view = state.view(mine.position) if state is not None and mine is not None else None
    in_play = snapshot.session.status == GameSession.Status.PLAYING
    prompted = view if acting else (state.view(None) if state is not None else None)
    # An abandoned session keeps its last deal's state, but nobody is waited for any more.
    prompt = say(prompted.prompt, full_names) if in_play and prompted is not None and prompted.prompt else ""
    if view is None or not acting or not in_play:
        return _Turn(prompt=prompt, hand=_hand(view, {}))
    names = [seat.short_name for seat in seats]
    choices = _choices(view, names)
    return _Turn(
        prompt=prompt,
        hand=_hand(view, _taps(view) if view.my_turn else {}),
        my_turn=view.my_turn,
        actions=tuple(choice for choice, with_hand in choices if with_hand),
        choices=tuple(choice for choice, with_hand in choices if not with_hand) if view.my_turn else (),
        marking=_marking(view, names) if view.my_turn else None,
        refusal=say(view.refusal, names) if view.refusal else "",
    )


def _choices(view: View, names: list[str]) -> tuple[tuple[ActionChoice, bool], ...]:
    """The viewer's actions other than cards, each worded with what it means, and whether it
    goes beside the hand; those taken by tapping or marking cards of the hand are the hand's."""
    marking = _marking(view, names)
    taps = _taps(view)
    return tuple(
        (
            ActionChoice(
                choice.action,
                say(choice.label, names),
                say(choice.meaning, names) if choice.meaning else "",
                choice.primary,
            ),
            choice.with_hand,
        )
        for choice in view.choices
        if (marking is None or (choice.card not in marking.cards and choice.action != marking.action))
        and choice.action not in taps.values()
    )


def _taps(view: View) -> dict[str, str]:
    """Cards of the hand that take a choice when tapped, as a card is played (a discard of one card
    at a time): card to action. Cards marked for a choice that takes them all are not tapped."""
    if any(choice.marks is not None for choice in view.choices):
        return {}
    return {choice.card: choice.action for choice in view.choices if choice.card in view.hand}


def _marking(view: View, names: list[str]) -> HandMarking | None:
    """The cards the viewer may mark in the hand and the one button that takes them, if any."""
    cards = frozenset(choice.card for choice in view.choices if choice.card is not None and choice.card in view.hand)
    done = next((choice for choice in view.choices if choice.marks is not None), None)
    if not cards or done is None:
        return None
    marks = done.marks
    return HandMarking(cards, done.action, say(marks.label, names), tuple(say(text, names) for text in marks.counted))


def _public(snapshot: TableSnapshot, online: frozenset[int], me: int | None, viewer: int | None) -> tuple:
    """Seats, the middle of the table, last deal and result: the same for every viewer once the session runs."""
    key = (online, get_language())
    if snapshot.state is not None and key in snapshot.memo:
        return snapshot.memo[key]
    view = snapshot.state.view(None) if snapshot.state else None
    rules = GAMES[snapshot.session.game]
    match = match_of(snapshot.session, snapshot.seats) if snapshot.session.match else None
    names = [s.short_name for s in snapshot.seats]
    options = rules.parse_options(snapshot.session.options)
    last_deal, recap = _last_deal(snapshot, view, names)
    public = (
        [
            _panel(
                seat,
                me,
                view,
                seat.user_id in online,
                _clock(snapshot.session),
                viewer,
                rules,
                match,
                snapshot.state,
                names,
                options,
                snapshot.session.host_id,
                in_play=snapshot.session.status == GameSession.Status.PLAYING,
            )
            for seat in snapshot.seats
        ],
        recap if view is None or view.over else (_middle(view, names) or recap),
        last_deal,
        session_result(snapshot.session, snapshot.seats),
        _header(snapshot, rules, match, view, names),
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
    view: View | None,
    connected: bool,
    deadline: int | None,
    viewer: int | None,
    rules: Game,
    match: Match | None,
    deal: State | None,
    names: list[str],
    options: object,
    host_id: int | None = None,
    *,
    in_play: bool,
) -> SeatPanel:
    shown = view.seats[seat.position] if view and seat.position < len(view.seats) else None
    to_act = bool(in_play and view and view.to_act == seat.position)  # an abandoned deal waits for nobody
    partners = [names[p] for p in rules.partners(seat.position, len(names), options)[1:]]
    sides = rules.sides(len(names), options)
    team = next(i for i, side in enumerate(sides) if seat.position in side) if partners else None
    return SeatPanel(
        position=seat.position,
        name=seat.name,
        short_name=seat.short_name,
        level=str(LEVEL_NAMES.get(seat.computer, seat.computer)) if seat.computer else "",
        computer=seat.computer,
        scores=tuple(say_count(count) for count in rules.seat_scores(match, seat.position, deal)) if match else (),
        tally=tuple(say_count(count) for count in shown.tally) if shown else (),
        face_up=tuple(card_view(card) for card in shown.face_up) if shown else (),
        is_dealer=bool(view and view.dealer == seat.position),
        to_act=to_act,
        is_me=seat.position == me and view is None,  # only a waiting table's seats depend on who looks
        empty=seat.is_empty,
        connected=connected and not seat.left,  # a page left open is not a player at the table
        hand_size=shown.in_hand if shown and shown.playing else 0,
        played=tuple(_card(placed, names) for placed in shown.played) if shown else (),
        stand_in=str(LEVEL_NAMES.get(seat.stand_in, seat.stand_in)) if seat.user_id and seat.stand_in else "",
        left=seat.left,
        deadline=deadline if to_act else None,
        kept_for=seat.invited.name if seat.invited_id and seat.is_empty else "",
        kept_for_me=bool(viewer and seat.invited_id == viewer),
        is_host=bool(seat.user_id and seat.user_id == host_id),
        username=seat.user.username if seat.user_id and not seat.computer else "",
        team=team,
        partner=", ".join(partners),
        sitting_out=bool(shown and not shown.playing),
    )


def _clock(session: GameSession) -> int | None:
    """The running turn clock's end, in milliseconds since the epoch (what the page counts down to)."""
    return int(session.deadline.timestamp() * 1000) if session.deadline else None


def _header(
    snapshot: TableSnapshot, rules: Game, match: Match | None, view: View | None, names: list[str]
) -> TableHeader:
    playing = snapshot.session.status == GameSession.Status.PLAYING
    extra = rules.extra_deal(match) if match is not None and playing else None
    tiebreak = ""
    if extra:
        seated = ", ".join(snapshot.seats[seat].name for seat in extra)
        tiebreak = _("Tie-break: %(names)s play one more deal for the session.") % {"names": seated}
    facts = view.facts if view else ()
    live = view is not None and playing
    return TableHeader(
        game=rules.name,
        game_title=game_title(rules),
        facts=tuple(say(text) for text in rules.describe(rules.parse_options(snapshot.session.options))),
        trump=" ".join(say(text, names) for kind, text in facts if kind == "trump"),
        pot=rules.pot(match, snapshot.state) if match is not None and snapshot.state is not None else None,
        extra_deal=tiebreak,
        notices=tuple(say(text, [seat.name for seat in snapshot.seats]) for text in view.notices) if view else (),
        standing=tuple(say(text, names) for text in rules.match_facts(match)) if match is not None else (),
        contract=tuple(say(text, names) for kind, text in facts if kind != "trump") if live else (),
        beside=tuple(area for area in _areas(view, names) if area.beside) if live else (),
        bidding=tuple(say(text, names) for text in view.log) if live else (),
        commitment=snapshot.deal.fair.get("commitment", "") if snapshot.deal is not None and playing else "",
        next_commitment=snapshot.session.next_commitment,
    )


def card_view(
    card: str,
    *,
    legal: bool = False,
    won: bool = False,
    seat_name: str = "",
    seat: int | None = None,
    counters: int = 0,
) -> CardView:
    if not card:  # face down
        return CardView("", _("a card face down"), "", False, seat_name=seat_name, seat=seat, counters=counters)
    return CardView(card, card_label(card), card_short(card), card[1] in "HD", legal, won, seat_name, seat, counters)


def _card(placed: Shown, names: Sequence[str]) -> CardView:
    seat_name = names[placed.seat] if placed.seat is not None and placed.seat < len(names) else ""
    return card_view(
        placed.card or "", won=placed.marked, seat_name=seat_name, seat=placed.seat, counters=placed.counters
    )


def area_view(area: Area, names: Sequence[str], *, previous: bool = False) -> AreaView:
    return AreaView(
        kind=area.kind,
        name=area.name,
        label=say(area.label, names),
        cards=tuple(_card(placed, names) for placed in area.cards),
        count=area.count,
        note=say(area.note, names) if area.note and not previous else "",
        done=area.done,
        beside=area.beside,
        previous=previous,
    )


def _areas(view: View | None, names: Sequence[str], *, previous: bool = False) -> tuple[AreaView, ...]:
    if view is None:
        return ()
    return tuple(area_view(area, names, previous=previous) for area in view.areas if area.cards or area.count)


def _middle(view: View | None, names: Sequence[str]) -> tuple[AreaView, ...]:
    return tuple(area for area in _areas(view, names) if not area.beside)


def _hand(view: View | None, taps: dict[str, str]) -> tuple[CardView, ...]:
    """The viewer's cards: those it may play now, or tap to take an action (``taps``), stand up."""
    if not view:
        return ()
    return tuple(
        replace(card_view(card, legal=card in view.playable or card in taps), action=taps.get(card, ""))
        for card in view.hand
    )


def _last_deal(snapshot: TableSnapshot, view: View | None, names: list[str]) -> tuple[str, tuple[AreaView, ...]]:
    """Until this deal gets going: what the last deal meant, and how its table was left (its last
    trick), all public now."""
    if snapshot.previous is None or (view and not view.fresh and not view.over):
        return "", ()
    finished, state = snapshot.previous
    seen = state.view(EVERYONE)  # the deal is over: how it ended is everyone's to see
    if seen.result is None:
        return "", ()
    message = say(seen.result, names, number=finished.number)
    middle = tuple(area for area in _areas(seen, names, previous=True) if not area.beside)
    return message, middle


def session_result(session: GameSession, seats: Sequence[Seat]) -> str:
    """How the session ended, in a sentence (empty while it runs)."""
    if session.status == GameSession.Status.ABANDONED:
        return _("This session was abandoned.")
    if session.status == GameSession.Status.CLOSED:
        return _("This table was closed before it started.")
    if session.status != GameSession.Status.FINISHED:
        return ""
    if session.event_id is not None:
        return _("These deals are scored by matchpoints against everyone who played them.")
    if session.winner_id is None:
        winners = match_of(session, seats).winners if session.match else ()
        if len(winners) == 1:
            return _("%(name)s's seat, played to the end by a computer, came first: nobody wins the session.") % {
                "name": seats[winners[0]].name
            }
        if len(winners) < 2:
            return _("The session ended in a draw.")
        names = [seats[seat].name for seat in winners]
        if tuple(sorted(winners)) in sides_of(session, len(seats)):
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


def players_blocked(user: User) -> QuerySet[Block]:
    """The blocks ``user`` made, by name: listed in their settings with Unblock."""
    return Block.objects.filter(user=user).select_related("blocked").order_by("blocked__username")


def computer_view(snapshot: TableSnapshot) -> tuple[str, View, bool] | None:
    """What the computer to act may see, its level and whether it plays as partner to a beginner;
    ``None`` if a person is to act."""
    seat = snapshot.computer_to_act()
    if seat is None:
        return None
    scores = match_of(snapshot.session, snapshot.seats).scores
    gentle = rights.partners_a_beginner(snapshot.session, snapshot.seats, seat)
    return seat.played_by, snapshot.state.view(seat.position, scores), gentle


def overdue_tables(before: datetime) -> list[tuple[int, int, datetime]]:
    """Tables where the server should have acted by ``before`` (a computer's turn, a person's
    clock or absence): (session, seq, due). Run by every server process every second: each side of
    the ``or`` has its partial index (``session_due``, ``session_unturned``), so it reads no table
    (``manage.py bench_turns`` prints its plan)."""
    overdue = GameSession.objects.filter(Q(due__lte=before) | Q(to_act__isnull=True), status=GameSession.Status.PLAYING)
    return list(overdue.order_by("due").values_list("pk", "seq", "due")[:200])
