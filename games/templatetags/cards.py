"""``{% card "JH" %}``: a card drawn as on the table, for pages that show cards in their text (rules)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.cardnames import card_face, card_label

register = template.Library()


@register.simple_tag
def card(notation: str) -> str:
    red = " red" if notation[1] in "HD" else ""
    return format_html(
        '<span class="card small{}" data-card="{}" role="img" aria-label="{}">{}</span>',
        red,
        notation,
        card_label(notation),
        mark_safe(card_face(notation)),
    )
