"""``{% sessions_of user as sessions %}``: a player's sessions, for pages of other apps (the account
page), so those apps never import the games' selectors (the selectors read accounts' users)."""

from django import template

from games.selectors import sessions_of as newest_sessions

register = template.Library()


@register.simple_tag
def sessions_of(user):
    return newest_sessions(user)
