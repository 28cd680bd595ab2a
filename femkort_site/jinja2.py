"""The Jinja2 environment of Django's Jinja2 backend (``TEMPLATES``, ``templates/jinja2/``): the live
table's pieces, rendered at every move for every socket, cost far less here than in Django's templates.

Translations are Django's own (``_``, ``gettext``, ``ngettext``, ``pgettext`` and ``{% trans %}``,
the same messages as ``{% translate %}`` and ``{% blocktranslate %}``; ``games``' ``makemessages``
extracts them); ``url`` is ``reverse``, ``static`` the static files' address, and the filters the
table's templates need share their Python functions with the Django templates."""

from itertools import groupby

from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from jinja2 import ChainableUndefined, Environment
from markupsafe import Markup

from games.access import table_link


def url(name: str, *args) -> str:
    return reverse(name, args=args)


def regroup(items, attribute: str) -> list[list]:
    """Django's ``{% regroup %}``: runs of items alike in ``attribute``, in their order (Jinja's
    ``groupby`` sorts them first)."""
    return [list(run) for _, run in groupby(items, key=lambda item: getattr(item, attribute))]


def spaceless(html: str) -> str:
    """Django's ``{% spaceless %}`` as a filter: ``{% filter spaceless %}…{% endfilter %}``."""
    return mark_safe(strip_spaces_between_tags(html.strip()))


class _Translations:
    """Django's translations, each trusted as Django's ``{% translate "…" %}`` trusts a message in the
    template (only the values put into a message are escaped, by ``{% trans %}`` as by
    ``{% blocktranslate %}``)."""

    @staticmethod
    def gettext(message: str) -> Markup:
        return Markup(translation.gettext(message))

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> Markup:
        return Markup(translation.ngettext(singular, plural, number))

    @staticmethod
    def pgettext(context: str, message: str) -> Markup:
        return Markup(translation.pgettext(context, message))

    @staticmethod
    def npgettext(context: str, singular: str, plural: str, number: int) -> Markup:
        return Markup(translation.npgettext(context, singular, plural, number))


def environment(**options) -> Environment:
    options.setdefault("extensions", []).append("jinja2.ext.i18n")
    options["keep_trailing_newline"] = True  # as Django's templates: a template's last newline is output
    # As in Django, a name or attribute that is not there is empty (with DEBUG too: not its name).
    options["undefined"] = ChainableUndefined
    env = Environment(**options)
    env.install_gettext_translations(_Translations, newstyle=False)
    env.globals.update(url=url, static=static)
    env.filters.update(capfirst=capfirst, regroup=regroup, spaceless=spaceless, table_link=table_link)
    return env
