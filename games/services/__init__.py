"""Every change to a table goes through here: plain functions, keyword-only, one transaction each."""

from .chat import ChatTooFast, chat_mute, chat_post, chat_switch
from .clocks import turn_check
from .duplicate import event_create, event_play, references_compute
from .duplicate import reveal as event_reveal
from .errors import IllegalCard, NotSeated, StaleMove, TableError
from .fair import contribution_add, verify_count
from .hosting import host_hand_over, seat_remove, table_lock
from .invitations import block, follow, invitation_answer, invitations_open, invite
from .lobby import play_now
from .notify import digest_send, push_subscribe, push_unsubscribe, turn_email_unsubscribe, turn_notify
from .pace import pace_answer, pace_ask
from .play import action_take, computer_turn, computers_play_all
from .review import review_compute, review_failed, reviews_backfill, reviews_queue, reviews_run
from .same_deals import same_deals_open
from .schedule import tournaments_tick
from .seating import arena_close, arena_pair, swiss_next, tournament_finish, tournament_start
from .seats import beginner_partners_set, computer_add, computer_remove, seat_leave, seat_take
from .standings import standings_rebuild
from .tables import (
    rematch_decline,
    session_abandon,
    session_rematch,
    session_start,
    table_create,
    tables_expire,
)
from .tournaments import tournament_create, tournament_join, tournament_pause, tournament_withdraw
from .turns import clocks_keep, seat_reclaim, seat_seen, session_leave, turn_restore

__all__ = [
    "ChatTooFast",
    "IllegalCard",
    "NotSeated",
    "StaleMove",
    "TableError",
    "action_take",
    "arena_close",
    "arena_pair",
    "beginner_partners_set",
    "block",
    "chat_mute",
    "chat_post",
    "chat_switch",
    "clocks_keep",
    "computer_add",
    "computer_remove",
    "computer_turn",
    "computers_play_all",
    "contribution_add",
    "digest_send",
    "event_create",
    "event_play",
    "event_reveal",
    "follow",
    "host_hand_over",
    "invitation_answer",
    "invitations_open",
    "invite",
    "pace_answer",
    "pace_ask",
    "play_now",
    "push_subscribe",
    "push_unsubscribe",
    "references_compute",
    "rematch_decline",
    "review_compute",
    "review_failed",
    "reviews_backfill",
    "reviews_queue",
    "reviews_run",
    "same_deals_open",
    "seat_leave",
    "seat_reclaim",
    "seat_remove",
    "seat_seen",
    "seat_take",
    "session_abandon",
    "session_leave",
    "session_rematch",
    "session_start",
    "standings_rebuild",
    "swiss_next",
    "table_create",
    "table_lock",
    "tables_expire",
    "tournament_create",
    "tournament_finish",
    "tournament_join",
    "tournament_pause",
    "tournament_start",
    "tournament_withdraw",
    "tournaments_tick",
    "turn_check",
    "turn_email_unsubscribe",
    "turn_notify",
    "turn_restore",
    "verify_count",
]
