"""Nothing outside a game's own module names a game: the site, the bots and the tools ask the
registry and the game's hooks. The places not yet converted are listed here, so the list can
only shrink: a new mention anywhere else fails."""

from __future__ import annotations

import ast
import inspect
import re
from functools import cache
from pathlib import Path

from games.engine import GAMES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["games", "accounts", "femkort_site", "tools"]
GAME_MODULES = {str(Path(inspect.getsourcefile(type(game))).resolve().relative_to(ROOT)) for game in GAMES.values()}
REGISTRY = "games/engine/__init__.py"  # the one list of games
# Still naming a game, each for a reason to remove in turn:
NOT_YET = {
    "games/engine/__main__.py",  # `bench` measures Femkort by contract (its output is fixed)
}


# The site is called Femkort Online, and its settings, files and checks carry that brand:
# these are the project's name, not the game's.
BRAND = re.compile(
    r"femkort[ _-](online|site)|femkort_[a-z_]+|femkort-(bench|csp|db|session|deal|event)|femkort\.w\d+",
    re.IGNORECASE,
)


@cache
def game_words() -> set[str]:
    return {word.lower() for game in GAMES.values() for word in (game.name, game.title, game.name.replace("-", "_"))}


@cache
def game_module_names() -> frozenset[str]:
    """What the game modules define (``FEMKORT``, ``LetzterStichMatch`` ...): using one names the game.
    Parsed once: every file checked asks for them."""
    names = set()
    for module in GAME_MODULES:
        for node in ast.parse((ROOT / module).read_text()).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return frozenset(name for name in names if not name.startswith("_"))


@cache
def game_word_pattern() -> re.Pattern[str]:
    """Any game's word standing alone (one pattern: a search per word per string was most of the time)."""
    words = sorted(game_words(), key=len, reverse=True)
    return re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(word) for word in words) + r")(?![a-z])")


def mentions(path: Path) -> list[str]:
    """Game names in ``path``'s code: string constants and names, not comments or docstrings."""
    pattern, defined = game_word_pattern(), game_module_names()
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = BRAND.sub("", node.value).lower()
            if pattern.search(text):
                found.append(f"{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Name) and node.id in defined:
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.alias) and node.name in defined:
            found.append(f"{node.lineno}: import {node.name}")
    return found


def test_no_game_is_named_outside_its_module():
    offenders = {}
    for source in SOURCES:
        for path in (ROOT / source).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative in GAME_MODULES | NOT_YET | {REGISTRY}:
                continue
            found = mentions(path)
            if found:
                offenders[relative] = found
    assert not offenders, f"game names outside the game modules: {offenders}"


def test_the_not_yet_list_is_true():
    """A place converted must leave the list (or it would hide a later relapse)."""
    still = {relative for relative in NOT_YET if mentions(ROOT / relative)}
    assert still == NOT_YET
