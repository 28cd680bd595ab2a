"""Admin: sessions with their seats and deals; deals with their plays. History is read-only."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import services
from .models import (
    Block,
    Board,
    BoardResult,
    ChatMessage,
    ChatMute,
    Deal,
    DealReview,
    DuplicateEvent,
    GameSession,
    Invitation,
    LadderStanding,
    PeriodStanding,
    Play,
    Seat,
    Standing,
    Tournament,
    TournamentEntry,
    TournamentResult,
)
from .services.tournaments import tournament_code


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "computer", "stand_in", "beginner_partner", "left", "invited", "won", "rating_after")
    readonly_fields = fields


class DealInline(ReadOnlyInline):
    model = Deal
    fields = ("number", "dealer", "winner", "started", "finished")
    readonly_fields = fields
    show_change_link = True


class PlayInline(ReadOnlyInline):
    model = Play
    fields = ("seq", "seat", "action", "played")
    readonly_fields = fields


class GameStateReadOnly(admin.ModelAdmin):
    """Game state is the services' to change, under the session's row lock and its sequence
    number: a form saved from a stale page would roll a game back. Admins see it, and change
    it only through actions that call the services."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_manage_permission(self, request) -> bool:
        """The actions' own permission: what changing a session used to need."""
        return request.user.has_perm("games.change_gamesession")


@admin.register(GameSession)
class GameSessionAdmin(GameStateReadOnly):
    list_display = ("id", "game", "status", "host", "seat_count", "created", "started", "finished", "winner")
    list_filter = ("game", "status", "created")
    search_fields = ("id", "host__username", "seats__user__username")
    date_hierarchy = "created"
    inlines = [SeatInline, DealInline]
    actions = ["abandon"]

    @admin.action(description=_("Abandon the selected sessions"), permissions=["manage"])
    def abandon(self, request, queryset) -> None:
        done = 0
        for session in queryset:
            try:
                services.session_abandon(session_id=session.pk)
                done += 1
            except services.TableError as error:
                self.message_user(request, f"{session}: {error.message}", messages.WARNING)
        message = ngettext("%(count)d session abandoned.", "%(count)d sessions abandoned.", done)
        self.message_user(request, message % {"count": done})


@admin.register(Seat)
class SeatAdmin(GameStateReadOnly):
    list_display = ("session", "position", "user", "computer", "stand_in", "left")
    list_filter = ("computer",)
    search_fields = ("user__username", "session__id")


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    """Full deals, every hand as dealt: admins may see them; nobody may edit them."""

    list_display = ("session", "number", "dealer", "winner", "started", "finished")
    list_filter = ("session__game", "finished")
    search_fields = ("session__id",)
    readonly_fields = ("session", "number", "dealer", "setup", "fair", "winner", "started", "finished")
    inlines = [PlayInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(DealReview)
class DealReviewAdmin(admin.ModelAdmin):
    """Reviews are computed in the background, never edited here (a failed one says so on its page)."""

    list_display = ("deal", "status", "marked", "seconds", "attempts", "queued", "finished")
    list_filter = ("status", "deal__session__game")
    list_select_related = ("deal__session",)
    readonly_fields = ("deal", "status", "claimed", "attempts", "decisions", "marked", "seconds", "queued", "finished")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = ("deal", "seq", "seat", "action", "played")
    search_fields = ("deal__session__id", "action")
    list_select_related = ("deal__session",)
    readonly_fields = ("deal", "seq", "seat", "action", "played")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """Leaderboard and rating data; "recompute" rebuilds every standing from the stored sessions."""

    list_display = (
        "__str__",
        "game",
        "against",
        "sessions_played",
        "sessions_won",
        "deals_won",
        "rating",
        "last_played",
    )
    list_filter = ("game", "against", "computer")
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)
    readonly_fields = ("mu", "sigma", "rating")
    actions = ["recompute"]

    def has_add_permission(self, request) -> bool:
        return False  # standings follow from sessions; they are recomputed, never entered

    @admin.action(description=_("Recompute counters and ratings from the stored sessions"))
    def recompute(self, request, queryset) -> None:
        count = services.standings_rebuild()
        message = ngettext(
            "Recomputed from %(count)d finished session.", "Recomputed from %(count)d finished sessions.", count
        )
        self.message_user(request, message % {"count": count})


@admin.register(PeriodStanding)
class PeriodStandingAdmin(admin.ModelAdmin):
    list_display = ("__str__", "period", "starts", "against", "sessions_played", "sessions_won")
    list_filter = ("game", "period", "against")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Moderation: read every table's chat, find a player's messages, delete what breaks the rules."""

    list_display = ("created", "session", "author", "text")
    list_filter = ("created",)
    search_fields = ("text", "author__username", "author__display_name")
    raw_id_fields = ("session", "author")
    readonly_fields = ("session", "author", "text", "created")
    date_hierarchy = "created"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("user", "muted")
    search_fields = ("user__username", "muted__username")
    raw_id_fields = ("user", "muted")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Admins see every invitation and may delete one (nothing else about it is edited)."""

    list_display = ("session", "inviter", "invitee", "answer", "created")
    list_filter = ("answer",)
    search_fields = ("inviter__username", "invitee__username", "session__id")
    list_select_related = ("session", "inviter", "invitee")
    readonly_fields = ("session", "inviter", "invitee", "answer", "created")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("user", "blocked", "created")
    search_fields = ("user__username", "blocked__username")
    list_select_related = ("user", "blocked")
    readonly_fields = ("user", "blocked", "created")

    def has_add_permission(self, request) -> bool:
        return False


class BoardInline(ReadOnlyInline):
    model = Board
    fields = ("number", "commitment", "references", "computer", "par")
    readonly_fields = fields  # the seed stays out of the admin's pages until the event reveals (its export)


@admin.register(DuplicateEvent)
class DuplicateEventAdmin(admin.ModelAdmin):
    """Daily deals and duplicate events: admins may change an event's name, privacy and window (its
    deals, once drawn, are never changed)."""

    list_display = ("__str__", "game", "day", "deal_count", "opens", "closes", "unlisted", "creator")
    list_filter = ("game", "unlisted")
    search_fields = ("name", "code", "creator__username")
    date_hierarchy = "opens"
    fields = (
        "game",
        "day",
        "name",
        "creator",
        "deal_count",
        "players",
        "unlisted",
        "code",
        "opens",
        "closes",
        "reveals",
    )
    # The window is fixed when the event is made (its reveal is queued for that time): not edited.
    readonly_fields = ("game", "day", "creator", "deal_count", "players", "code", "opens", "closes", "reveals")
    inlines = [BoardInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(BoardResult)
class BoardResultAdmin(admin.ModelAdmin):
    list_display = ("board", "user", "seat", "value", "left", "percent", "finished")
    list_filter = ("left",)
    search_fields = ("user__username",)
    list_select_related = ("board__event", "user")
    raw_id_fields = ("board", "user", "session")
    readonly_fields = ("board", "user", "seat", "session", "value", "left", "percent", "started", "finished")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # the board's tally counts it


@admin.register(LadderStanding)
class LadderStandingAdmin(admin.ModelAdmin):
    """The monthly ladder's rows, kept by each day's reveal: read-only (rebuilt from the results)."""

    list_display = ("user", "game", "month", "deals", "percent_sum")
    list_filter = ("game", "month")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "game", "month", "deals", "percent_sum")

    def has_add_permission(self, request) -> bool:
        return False


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    fields = ("user", "points", "sessions", "wins", "streak", "byes", "paused", "withdrawn", "place")
    readonly_fields = ("user", "points", "sessions", "wins", "streak", "byes", "place")
    extra = 0
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Arenas and Swiss tournaments: admins may rename one, make it private or public, or move an
    upcoming one's start; its scores come only from its tables. New ones are added by the schedule
    (``FEMKORT_TOURNAMENT_SCHEDULE``) or by players."""

    list_display = ("__str__", "kind", "game", "status", "starts", "minutes", "rounds", "round", "unlisted", "creator")
    list_filter = ("kind", "status", "game", "unlisted")
    search_fields = ("name", "code", "slot", "creator__username")
    date_hierarchy = "starts"
    fields = (
        "kind",
        "game",
        "name",
        "creator",
        "slot",
        "players",
        "deals",
        "pace_seconds",
        "minutes",
        "rounds",
        "round",
        "status",
        "unlisted",
        "code",
        "starts",
        "ended",
    )
    readonly_fields = (
        "kind",
        "game",
        "creator",
        "slot",
        "players",
        "deals",
        "pace_seconds",
        "minutes",
        "rounds",
        "round",
        "status",
        "code",
        "ended",
    )
    inlines = [TournamentEntryInline]

    def has_add_permission(self, request) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        """Made private or public: so are its tables (played and in play); a private one gets a code."""
        if obj.unlisted and not obj.code:
            obj.code = tournament_code()
        super().save_model(request, obj, form, change)
        obj.sessions.update(unlisted=obj.unlisted)

    def get_readonly_fields(self, request, obj=None):
        started = obj is not None and obj.status != Tournament.Status.UPCOMING
        return (*self.readonly_fields, "starts") if started else self.readonly_fields


@admin.register(TournamentResult)
class TournamentResultAdmin(admin.ModelAdmin):
    """What each table gave each player: recorded by the table's end, never edited."""

    list_display = ("tournament", "user", "round", "session", "share", "points", "won", "bye", "recorded")
    list_filter = ("bye", "won")
    search_fields = ("user__username", "tournament__name")
    list_select_related = ("tournament", "user")
    raw_id_fields = ("tournament", "user", "session")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
