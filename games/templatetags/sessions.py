"""``{% sessions_of user as sessions %}`` and ``{% blocked_by user as blocked %}``: a player's sessions
and blocks, for pages of other apps (the account page), so those apps never import the games'
selectors (the selectors read accounts' users)."""

from django import template

from games import access
from games.selectors import players_blocked
from games.selectors import sessions_of as newest_sessions

register = template.Library()


@register.simple_tag
def sessions_of(user):
    return newest_sessions(user)


@register.simple_tag
def blocked_by(user):
    return players_blocked(user)


@register.filter
def table_link(session) -> str:
    """The table's address to share (a private table's carries its code)."""
    return access.table_link(session)
