"""Sessions (a table and its match), seats, deals and every card played.

A deal's current state is never stored: it is the engine's replay of the dealt
hands plus the plays, so there is no second copy that could drift.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import GAMES

LEVEL_NAMES = {"easy": _("easy"), "medium": _("medium"), "strong": _("strong")}
TURN_CLOCKS = [(0, _("no clock")), (15, _("15 s")), (30, _("30 s")), (60, _("60 s"))]
# A turn-based table's time per move (seconds); 0 is a live table, played by everyone at once.
PACES = [
    (0, _("live")),
    (3600, _("1 hour per move")),
    (8 * 3600, _("8 hours per move")),
    (24 * 3600, _("1 day per move")),
    (3 * 24 * 3600, _("3 days per move")),
]
COMPUTER_NAMES = ("Astrid", "Birger", "Cleo", "Dag", "Elsa", "Frej", "Greta", "Hugo", "Ingrid", "Jens")


def game_choices() -> list[tuple[str, str]]:
    """The games, from the engine's one registry (adding a game needs no migration)."""
    return [(name, _(game.title)) for name, game in GAMES.items()]


def first_game() -> str:
    return next(iter(GAMES))


class GameSession(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")
        CLOSED = "closed", _("closed")  # before it started: it never enters anyone's history

    game = models.CharField(max_length=20, choices=game_choices, default=first_game)
    locked = models.BooleanField(default=False, help_text=_("The host let nobody else take a seat."))
    removed = models.JSONField(
        default=list, blank=True, help_text=_("People the host removed from a seat (told so on the table).")
    )
    unlisted = models.BooleanField(
        default=False, help_text=_("Private: not in the lobby's lists; joined by its link or its code.")
    )
    code = models.CharField(
        max_length=8, unique=True, null=True, blank=True, help_text=_("What players type in the lobby to find it.")
    )
    options = models.JSONField(default=dict, help_text=_("Table options as the engine reads them."))
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_sessions")
    seq = models.PositiveIntegerField(default=0, help_text=_("Counts every change; moves name the one they saw."))
    match = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("The game's own record of the session so far (scores, chips, tokens, pot, next dealer)."),
    )
    winner = models.ForeignKey("Seat", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    with_computers = models.BooleanField(default=False, help_text=_("Set at the start: any computer player seated."))
    due = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the server looks at this table next: a computer's turn, a turn clock, an absent player."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        default=0, choices=TURN_CLOCKS, help_text=_("Seconds a person has for each action; 0 for no clock.")
    )
    pace_seconds = models.PositiveIntegerField(
        default=0,
        choices=PACES,
        help_text=_("Turn-based: the time each person has for a move; 0 for a live table (its turn clock)."),
    )
    pace_asked = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("A change of pace asked for in play: the pace and who agreed (every seated person must)."),
    )
    to_act = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("The seat whose turn it is."))
    turn_since = models.DateTimeField(null=True, blank=True, help_text=_("When that turn began."))
    deadline = models.DateTimeField(null=True, blank=True, help_text=_("When a person's turn clock runs out."))
    unattended_since = models.DateTimeField(
        null=True, blank=True, help_text=_("Since when no seat has been played by its own person.")
    )
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of", help_text=_("Play again.")
    )
    same_deals_as = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="same_deals_again",
        help_text=_("Dealt the same cards as this finished table, deal by deal, to compare."),
    )
    event = models.ForeignKey(
        "DuplicateEvent",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sessions",
        help_text=_("One player's table at a duplicate event (a daily deal is one): it plays the event's deals."),
    )
    tournament = models.ForeignKey(
        "Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sessions",
        help_text=_("A table of a tournament: seated by its pairing, its result scored there."),
    )
    tournament_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("A Swiss tournament's round this table plays.")
    )
    chat_on = models.BooleanField(default=True, help_text=_("The host may turn the table's chat off."))
    next_commitment = models.CharField(
        max_length=64,
        blank=True,
        help_text=_("The commitment to the next deal's secret seed, shown before it is dealt."),
    )
    created = models.DateTimeField(auto_now_add=True)
    active = models.DateTimeField(
        default=timezone.now, help_text=_("The last change; a waiting table idle for long closes on its own.")
    )
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "-created"]),
            models.Index(fields=["game", "status", "with_computers", "finished"]),
            models.Index(fields=["due"], condition=Q(due__isnull=False), name="session_due"),
            # With ``session_due``, the sweep's one query reads indexes only (``selectors.overdue_tables``):
            # sessions in play that do not say whose turn it is (started before turns were recorded).
            models.Index(fields=["id"], condition=Q(to_act__isnull=True, status="playing"), name="session_unturned"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=2, seat_count__lte=10), name="session_seats_2_to_10"),
        ]

    def __str__(self) -> str:
        # Every live frame names the table twice: a registry lookup, not Django's walk over the choices.
        game = GAMES.get(self.game)
        return f"{_(game.title) if game else self.game} #{self.pk}"

    @property
    def turn_based(self) -> bool:
        return self.pace_seconds > 0


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "", _("human")
        EASY = "easy", _("computer (easy)")
        MEDIUM = "medium", _("computer (medium)")
        STRONG = "strong", _("computer (strong)")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    computer = models.CharField(max_length=10, choices=Kind.choices, default=Kind.HUMAN, blank=True)
    rating_after = models.FloatField(null=True, blank=True, help_text=_("Conservative rating once the session ended."))
    stand_in = models.CharField(
        max_length=10, blank=True, help_text=_("Level of the computer playing for this seat's person, if one does.")
    )
    left = models.BooleanField(default=False, help_text=_("The person left the running session for good."))
    beginner_partner = models.BooleanField(
        default=False,
        help_text=_(
            "This person's computer partners play as partner to a beginner: no going alone, never taking a "
            "trick the person is winning, never leading a suit the person has shown out of."
        ),
    )
    missed = models.PositiveSmallIntegerField(
        default=0, help_text=_("Turn-based: deadlines this seat's person missed in a row (a computer moved for them).")
    )
    won = models.BooleanField(
        default=False, help_text=_("This seat won the session (alone, or with its partner in a partnership game).")
    )
    seen = models.DateTimeField(null=True, blank=True, help_text=_("The person's last sign of life at this table."))
    review_marks = models.PositiveIntegerField(
        default=0, help_text=_("Decisions of this seat the finished deals' reviews marked as mistakes or inaccuracies.")
    )
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text=_("Kept for this person (play again)."),
    )

    class Meta:
        ordering = ["session_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="seat_one_per_position"),
            models.UniqueConstraint(
                fields=["session", "user"], condition=Q(user__isnull=False), name="seat_user_once_per_session"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(computer=""), name="seat_human_or_computer_not_both"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} seat {self.position}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.computer

    @property
    def played_by(self) -> str:
        """The computer level that decides this seat's moves ("" when a person does)."""
        return self.computer or self.stand_in

    @property
    def short_name(self) -> str:
        """The name alone, as the table says it ("Cleo takes the trick"); no person may take a computer's name."""
        if self.computer and not self.user_id:
            return COMPUTER_NAMES[self.position % len(COMPUTER_NAMES)]
        return self.name

    @property
    def name(self) -> str:
        if self.user_id:
            return self.user.name
        if self.computer:
            return _("%(name)s (computer, %(level)s)") % {
                "name": COMPUTER_NAMES[self.position % len(COMPUTER_NAMES)],
                "level": LEVEL_NAMES.get(self.computer, self.computer),
            }
        return str(_("empty seat"))


class Deal(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    setup = models.JSONField(
        help_text=_(
            "The deal as its game dealt it, in the game's own terms: every card dealt (hands, stock, "
            "upcard), the options it was played under and what it needed of the session before it."
        )
    )
    fair = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "How the deal was shuffled (seed, commitment, contributions, the session before it), "
            "shown only once the deal is over; empty for a deal dealt before deals could be verified."
        ),
    )
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="deal_number_once_per_session")]

    def __str__(self) -> str:
        return f"{self.session} deal {self.number}"


class SeedDraw(models.Model):
    """The next deal's secret seed, drawn and committed to before it is dealt, and the seated
    players' contributions to its shuffle gathered until then (one pending draw per table)."""

    session = models.OneToOneField(GameSession, on_delete=models.CASCADE, related_name="seed_draw")
    number = models.PositiveIntegerField(help_text=_("The deal it is for."))
    seed = models.CharField(max_length=64, help_text=_("Secret until that deal is over."))
    commitment = models.CharField(max_length=64)
    contributions = models.JSONField(default=dict, blank=True, help_text=_("Each player's contribution, by user id."))
    drawn = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.session} deal {self.number} seed"


class DealReview(models.Model):
    """A finished deal's review (``games.bots.deal_analysis``), computed once in the background after its
    session ended: queued with its task (``games.tasks.review_deal``), then stored for good."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        DONE = "done", _("done")
        FAILED = "failed", _("could not be computed")

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    claimed = models.DateTimeField(null=True, blank=True, help_text=_("When a process took it up."))
    attempts = models.PositiveSmallIntegerField(default=0)
    decisions = models.JSONField(default=list, blank=True)
    marked = models.PositiveSmallIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True, help_text=_("How long computing it took."))
    queued = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "queued"], name="review_queue")]

    def __str__(self) -> str:
        return f"review of {self.deal}"


class Play(models.Model):
    """One action in a deal, in order: a card played (its notation), or a word (a bid, a call, a vote)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="plays")
    seq = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=20, help_text=_("A card (QH) or an action word (pass, bid:3, redeal:yes)."))
    played = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deal_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["deal", "seq"], name="play_seq_once_per_deal")]

    def __str__(self) -> str:
        return f"{self.action} by seat {self.seat}"


PRESENCE_BEAT = 30
PRESENCE_TIMEOUT = 90


class ServerBeat(models.Model):
    """The last moment any server process was running its sweep.

    A gap longer than a few sweeps means no process was serving (a restart): turn clocks
    are pushed back by that gap, so nobody loses a turn to the downtime.
    """

    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"server alive at {self.at:%Y-%m-%d %H:%M:%S}"


class Connection(models.Model):
    """An open websocket: to a table (a seat shows as connected while its player has one), or, with
    no table, a signed-in player's notices socket on any other page (they count as online).

    Kept in the database, not in a process, so every server process sees the same presence.
    The consumer refreshes ``seen`` every ``PRESENCE_BEAT`` seconds; a row not seen for
    ``PRESENCE_TIMEOUT`` belongs to a process that died and no longer counts.
    """

    session = models.ForeignKey(
        GameSession, null=True, blank=True, on_delete=models.CASCADE, related_name="connections"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    channel_name = models.CharField(max_length=200, unique=True)
    ip = models.GenericIPAddressField(null=True, blank=True, help_text=_("Where the socket came from (limits)."))
    opened = models.DateTimeField(auto_now_add=True)
    seen = models.DateTimeField(auto_now=True, help_text=_("Refreshed while the socket is open."))

    def __str__(self) -> str:
        return f"{self.user or 'anonymous'} at {self.session or 'another page'}"


class SocketOpening(models.Model):
    """A websocket opened by a player (or, not signed in, from an address), kept for a minute:
    how often one may open sockets is counted across every server process."""

    key = models.CharField(max_length=64, help_text=_("user:<id>, or ip:<address> for a visitor not signed in."))
    opened = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["key", "opened"])]

    def __str__(self) -> str:
        return f"{self.key} at {self.opened:%H:%M:%S}"


class Standing(models.Model):
    """A player's record in one game and one kind of company, kept current in the transaction
    that finishes each session, so leaderboards and profiles never aggregate history.

    ``against`` separates sessions among people only from sessions with any computer player,
    so nobody can climb the main board by beating easy computers. Computer levels have
    standings of their own (``user`` empty, ``computer`` set).
    """

    class Against(models.TextChoices):
        PEOPLE = "people", _("people only")
        COMPUTERS = "computers", _("with computer players")

    game = models.CharField(max_length=20, choices=game_choices)
    against = models.CharField(max_length=10, choices=Against.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="standings"
    )
    computer = models.CharField(max_length=10, blank=True)
    sessions_played = models.PositiveIntegerField(default=0)
    sessions_won = models.PositiveIntegerField(default=0)
    deals_won = models.PositiveIntegerField(default=0)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    rating = models.FloatField(default=0.0, help_text=_("Conservative rating: mu - 3 sigma."))
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "against", "user"], condition=Q(user__isnull=False), name="standing_once_per_user"
            ),
            models.UniqueConstraint(
                fields=["game", "against", "computer"], condition=~Q(computer=""), name="standing_once_per_level"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, computer="") | Q(user__isnull=True) & ~Q(computer=""),
                name="standing_person_or_level",
            ),
        ]
        indexes = [
            models.Index(fields=["game", "against", "-sessions_won"]),
            models.Index(fields=["game", "against", "-rating"]),
        ]

    PROVISIONAL_SIGMA = 5.0  # openskill's uncertainty starts at 8.3 and shrinks with every session

    def __str__(self) -> str:
        who = self.user.name if self.user_id else f"computer ({self.computer})"
        return f"{who}: {self.game}, {self.against}"

    @property
    def win_rate(self) -> float:
        return self.sessions_won / self.sessions_played if self.sessions_played else 0.0

    @property
    def provisional(self) -> bool:
        """Too few sessions for the rating to say much: shown as "provisional", not as a low number."""
        return self.sigma > self.PROVISIONAL_SIGMA

    @property
    def spread(self) -> float:
        """How far the skill may be from its estimate either way (three sigma)."""
        return 3 * self.sigma


class PeriodStanding(models.Model):
    """Sessions played and won in one calendar month or ISO week, kept like ``Standing``
    so that "this month" and "this week" boards read a few rows, not a month of seats.
    """

    class Period(models.TextChoices):
        MONTH = "month", _("month")
        WEEK = "week", _("week")

    game = models.CharField(max_length=20, choices=game_choices)
    against = models.CharField(max_length=10, choices=Standing.Against.choices)
    period = models.CharField(max_length=5, choices=Period.choices)
    starts = models.DateField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="period_standings"
    )
    computer = models.CharField(max_length=10, blank=True)
    sessions_played = models.PositiveIntegerField(default=0)
    sessions_won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "against", "period", "starts", "user"],
                condition=Q(user__isnull=False),
                name="period_standing_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["game", "against", "period", "starts", "computer"],
                condition=~Q(computer=""),
                name="period_standing_once_per_level",
            ),
        ]
        indexes = [models.Index(fields=["game", "against", "period", "starts", "-sessions_won"])]

    def __str__(self) -> str:
        who = self.user.name if self.user_id else f"computer ({self.computer})"
        return f"{who}: {self.game}, {self.period} from {self.starts}"


class ChatMessage(models.Model):
    """A line of a table's chat: only what its author wrote (the server adds nothing about the game)."""

    MAX_LENGTH = 300

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]
        indexes = [models.Index(fields=["session", "created"]), models.Index(fields=["author", "created"])]
        verbose_name = _("chat message")

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class ChatMute(models.Model):
    """``user`` no longer sees ``muted``'s chat messages, at any table (nobody else is affected)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class Block(models.Model):
    """``user`` blocked ``blocked``: no invitation from them, never seated with them by Play now,
    and their chat hidden (a chat mute, made when blocking)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "blocked"], name="block_once")]

    def __str__(self) -> str:
        return f"{self.user} blocks {self.blocked}"


class Invitation(models.Model):
    """A host asked a registered player by name to a waiting table; it lasts as long as the table waits."""

    class Answer(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        JOINED = "joined", _("joined")
        DECLINED = "declined", _("declined")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.PENDING)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "invitee"], name="invitation_once_per_table")]
        indexes = [models.Index(fields=["invitee", "answer"], name="invitations_open")]

    def __str__(self) -> str:
        return f"{self.inviter} invites {self.invitee} to {self.session}"


class Follow(models.Model):
    """``user`` follows ``followed``: a friend, offered first when inviting, shown on profiles."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "followed"], name="follow_once")]

    def __str__(self) -> str:
        return f"{self.user} follows {self.followed}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its push service's endpoint and the keys to encrypt for it):
    "your turn" reaches that browser even when no page of the site is open."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text=_("The browser's public key (base64url)."))
    auth = models.CharField(max_length=50, help_text=_("The browser's authentication secret (base64url)."))
    browser = models.CharField(max_length=200, blank=True, help_text=_("The browser as it named itself."))
    created = models.DateTimeField(auto_now_add=True)
    last_sent = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.browser or self.endpoint[:40]}"


class TurnNotice(models.Model):
    """A person's turn began at a turn-based table (the table at ``seq``): told at most once by push
    and listed at most once in an e-mail digest, however often its task runs."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="turn_notices")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_notices")
    seq = models.PositiveIntegerField(help_text=_("The table's change at which the turn began."))
    created = models.DateTimeField(auto_now_add=True)
    pushed = models.PositiveSmallIntegerField(default=0, help_text=_("Browsers the push service accepted it for."))
    skipped = models.CharField(max_length=20, blank=True, help_text=_("Why nothing was sent, if nothing was."))
    mailed = models.DateTimeField(null=True, blank=True, help_text=_("When an e-mail digest listed it."))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "user", "seq"], name="turn_notice_once")]
        indexes = [models.Index(fields=["user", "mailed"], name="turn_notices_unmailed")]

    def __str__(self) -> str:
        return f"{self.user}'s turn at {self.session} ({self.seq})"


class DuplicateEvent(models.Model):
    """Deals everyone plays from the same seats, each at a table of their own with computer players,
    scored against each other by matchpoints: the daily deal of a game (one deal, one day) or an
    event someone opened (a few deals, a window of time)."""

    game = models.CharField(max_length=20, choices=game_choices)
    options = models.JSONField(default=dict, help_text=_("Table options as the engine reads them."))
    players = models.PositiveSmallIntegerField(help_text=_("Seats at every table of the event."))
    deal_count = models.PositiveSmallIntegerField(default=1)
    day = models.DateField(null=True, blank=True, help_text=_("A daily deal: the day (UTC) it is played."))
    name = models.CharField(max_length=60, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    unlisted = models.BooleanField(default=False, help_text=_("Private: joined by its code."))
    code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    opens = models.DateTimeField(help_text=_("From when a table may be started."))
    closes = models.DateTimeField(help_text=_("No table starts after this."))
    reveals = models.DateTimeField(
        help_text=_("Seeds, cards and results open to everyone (tables still in play then are ended).")
    )
    settled = models.BooleanField(default=False, help_text=_("Every result's percentage fixed, once revealed."))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-opens"]
        constraints = [
            models.UniqueConstraint(fields=["day", "game"], condition=Q(day__isnull=False), name="daily_deal_once")
        ]
        indexes = [models.Index(fields=["unlisted", "closes"], name="events_open")]

    def __str__(self) -> str:
        game = GAMES.get(self.game)
        title = _(game.title) if game else self.game
        return f"{title} {self.day}" if self.day else f"{self.name or title} (event {self.pk})"


class Board(models.Model):
    """One deal of a duplicate event: dealt from its own seed, the same cards for every table."""

    event = models.ForeignKey(DuplicateEvent, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, help_text=_("Secret until the event reveals."))
    commitment = models.CharField(max_length=64)
    computer = models.JSONField(
        default=dict, blank=True, help_text=_("What strong computers scored from each seat, playing every seat.")
    )
    computer_actions = models.JSONField(default=list, blank=True, help_text=_("That play, for its export."))
    par = models.JSONField(
        default=dict, blank=True, help_text=_("Each seat's best with every card visible (null: too large to search).")
    )
    references = models.BooleanField(default=False, help_text=_("The computer's result and par are computed."))

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="board_number_once")]

    def __str__(self) -> str:
        return f"{self.event} deal {self.number}"


class BoardResult(models.Model):
    """A person's try at a board, from one seat: made when their table deals it (one try each), its
    value filled in when the deal ends; ``left``: they left before it ended (the try is used)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_results")
    seat = models.PositiveSmallIntegerField()
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="board_results")
    value = models.FloatField(
        null=True, blank=True, help_text=_("The deal's result for the seat, in the game's terms.")
    )
    left = models.BooleanField(default=False)
    percent = models.FloatField(
        null=True, blank=True, help_text=_("Matchpoints as a percentage of the field, fixed when the event reveals.")
    )
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["board", "user"], name="board_try_once")]
        indexes = [
            models.Index(fields=["board", "seat", "-value", "id"], name="board_field"),
            models.Index(fields=["user", "finished"], name="board_results_of"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.board}"


class BoardTally(models.Model):
    """How many finished tries at a board's seat scored ``value``: matchpoints come from these few
    rows, so a new result adds one to a count and never rescans the field."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="tallies")
    seat = models.PositiveSmallIntegerField()
    value = models.FloatField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["board", "seat", "value"], name="board_tally_once")]

    def __str__(self) -> str:
        return f"{self.board} seat {self.seat}: {self.count} x {self.value}"


class LadderStanding(models.Model):
    """A player's daily deals of one game in one calendar month: how many, and their percentages'
    sum, added to when each day reveals, so the monthly ladder reads a month's rows of players, not
    a month of results."""

    game = models.CharField(max_length=20, choices=game_choices)
    month = models.DateField(help_text=_("Its first day."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_standings")
    deals = models.PositiveIntegerField(default=0)
    percent_sum = models.FloatField(default=0.0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "month", "user"], name="ladder_once_per_month")]
        indexes = [models.Index(fields=["game", "month", "deals"], name="ladder_month")]

    def __str__(self) -> str:
        return f"{self.user}: {self.game}, {self.month:%Y-%m}"


class Tournament(models.Model):
    """An arena (for a stretch of time, whoever is free is seated with others of similar score) or
    a Swiss tournament (a fixed number of rounds, each pairing nearest scores without repeating
    opponents where it can); scheduled by the site or opened by a player."""

    class Kind(models.TextChoices):
        ARENA = "arena", _("Arena")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    kind = models.CharField(max_length=5, choices=Kind.choices)
    game = models.CharField(max_length=20, choices=game_choices)
    options = models.JSONField(default=dict, help_text=_("Table options as the engine reads them."))
    players = models.PositiveSmallIntegerField(help_text=_("Seats at every table of the tournament."))
    name = models.CharField(max_length=60, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    slot = models.CharField(
        max_length=80,
        unique=True,
        null=True,
        blank=True,
        help_text=_("A scheduled tournament: its place in the schedule."),
    )
    unlisted = models.BooleanField(default=False, help_text=_("Private: joined by its code."))
    code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    starts = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField(default=0, help_text=_("An arena's length."))
    rounds = models.PositiveSmallIntegerField(default=0, help_text=_("A Swiss tournament's rounds."))
    deals = models.PositiveSmallIntegerField(
        default=0, help_text=_("Deals at each table (0: a whole session, as the game's rules end it).")
    )
    pace_seconds = models.PositiveIntegerField(
        default=0, help_text=_("Turn-based tables: how long each person has for a move (0: live).")
    )
    duplicate = models.BooleanField(
        default=False,
        help_text=_("Swiss: every table of a round plays the same deals, scored by matchpoints seat by seat."),
    )
    round_event = models.ForeignKey(
        "DuplicateEvent",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("A duplicate Swiss tournament: the deals of the round in play."),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    round = models.PositiveSmallIntegerField(default=0, help_text=_("The Swiss round in play (0: none yet)."))
    version = models.PositiveIntegerField(default=0, help_text=_("Counts every change to the standings."))
    ended = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts"]
        indexes = [models.Index(fields=["status", "unlisted", "starts"], name="tournaments_listed")]

    def __str__(self) -> str:
        game = GAMES.get(self.game)
        title = _(game.title) if game else self.game
        return self.name or f"{title} {self.get_kind_display()} #{self.pk}"


class TournamentEntry(models.Model):
    """A player in a tournament: their score so far, and whether the arena may seat them now."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries")
    points = models.FloatField(default=0.0)
    sessions = models.PositiveSmallIntegerField(default=0, help_text=_("Tables finished."))
    wins = models.PositiveSmallIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0, help_text=_("Wins in a row, now."))
    byes = models.PositiveSmallIntegerField(default=0, help_text=_("Swiss rounds sat out."))
    opponents = models.FloatField(default=0.0, help_text=_("Tie-break: the sum of the opponents' scores."))
    free_since = models.DateTimeField(
        null=True, blank=True, help_text=_("An arena player waiting for a table, since when (empty: seated or away).")
    )
    paused = models.BooleanField(default=False, help_text=_("No new table until they come back."))
    withdrawn = models.BooleanField(default=False)
    place = models.PositiveIntegerField(null=True, blank=True, help_text=_("Final place, once it is over."))
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = _("tournament entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_once")]
        indexes = [
            models.Index(fields=["tournament", "-points", "id"], name="entries_standing"),
            models.Index(fields=["tournament", "free_since"], name="entries_free"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class TournamentResult(models.Model):
    """What one finished table (or a Swiss bye) gave one player: recorded once, in the transaction
    that ends the table, so a restart neither loses nor doubles it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_results")
    session = models.ForeignKey(
        GameSession, null=True, blank=True, on_delete=models.CASCADE, related_name="tournament_results"
    )
    round = models.PositiveSmallIntegerField(default=0)
    share = models.FloatField(help_text=_("The share of the table's other players (or sides) outplaced, 0 to 1."))
    points = models.FloatField()
    won = models.BooleanField(default=False)
    bye = models.BooleanField(default=False)
    recorded = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "user"], condition=Q(session__isnull=False), name="tournament_result_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "user"], condition=Q(round__gt=0), name="tournament_round_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.points} in {self.tournament}"
