"""The rules live in the repository, in docs/rules/ (laid out as docs/rules/README.md says): every
game has its page, every citation of a section finds it, and nothing points at rules kept outside."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from games.engine import GAMES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
# "docs/rules/nap.md §3", also "docs/rules/femkort.md §4, §9" (each section is checked).
CITATION = re.compile(r"docs/rules/([\w.-]+\.md)((?: §\d+)(?:,? (?:and )?§\d+)*)")
HEADING = re.compile(r"^## §(\d+) \S", re.MULTILINE)
# Spelled in pieces, so that this file does not name what it forbids.
OUTSIDE = ("RULES" + ".md", "/work/" + "shared", "seeds" + "/")


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    paths = [ROOT / name for name in listed.decode().split("\0") if name]
    return [path for path in paths if path.is_file()]


def page_path(game: str) -> Path:
    return RULES / f"{game.replace('-', '_')}.md"


def sections(page: Path) -> list[int]:
    return [int(number) for number in HEADING.findall(page.read_text())] if page.is_file() else []


def broken_citations(text: str, rules: Path = RULES) -> list[str]:
    """The citations in ``text`` whose page or section does not exist under ``rules``."""
    broken = []
    for match in CITATION.finditer(text):
        page = rules / match.group(1)
        have = sections(page)
        for number in re.findall(r"§(\d+)", match.group(2)):
            if int(number) not in have:
                broken.append(f"docs/rules/{match.group(1)} §{number}")
    return broken


def test_no_tracked_file_points_at_rules_outside_the_repository():
    """Needs every game's references moved to docs/rules/, the top-level README's included."""
    found = [
        f"{path.relative_to(ROOT)}: {word}"
        for path in tracked_files()
        for word in OUTSIDE
        if word.encode() in path.read_bytes()
    ]
    assert found == []


def test_every_citation_of_a_rules_section_finds_its_heading():
    broken = []
    for path in tracked_files():
        data = path.read_bytes()
        if b"\0" not in data:
            broken += [
                f"{path.relative_to(ROOT)}: {cited}" for cited in broken_citations(data.decode("utf-8", "replace"))
            ]
    assert broken == []


def test_a_citation_of_a_missing_section_or_page_is_caught():
    """The check above can fail: a section past the page's last, and a page that does not exist."""
    cited = "see docs/rules/" + "euchre.md §2, §99 and docs/rules/" + "no_such_game.md §1"
    assert broken_citations(cited) == ["docs/rules/" + "euchre.md §99", "docs/rules/" + "no_such_game.md §1"]
    assert broken_citations("docs/rules/euchre.md " + "§2") == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_its_rules_page_numbered_from_one(game):
    page = page_path(game)
    assert page.is_file(), f"{game} has no {page.relative_to(ROOT)}"
    numbers = sections(page)
    assert numbers, f"{page.name} has no '## §1 ...' sections"
    assert numbers == list(range(1, len(numbers) + 1)), f"{page.name} numbers its sections {numbers}"


def test_the_rules_index_lists_every_game_page():
    index = (RULES / "README.md").read_text()
    missing = [game for game in GAMES if f"]({page_path(game).name})" not in index]
    assert missing == []
