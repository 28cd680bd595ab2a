"""The docs stay true to the tree: every relative link finds its file and heading, and every
setting the site reads from the environment is in docs/deployment.md's tables (and no table
names a setting the site no longer reads). Plain files, no Django."""

from __future__ import annotations

import ast
import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOYMENT = ROOT / "docs" / "deployment.md"
SETTINGS_FILES = [ROOT / "femkort_site" / "settings.py", ROOT / "femkort_site" / "env.py"]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target); the target ends at the first space or closing bracket.
MARKDOWN_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
VARIABLE = re.compile(r"\b((?:FEMKORT|DJANGO)_[A-Z0-9_]*[A-Z0-9])\b")


@cache
def tracked() -> frozenset[str]:
    """The repository's files as git knows them (the working tree's, outside a checkout)."""
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return frozenset(str(path.relative_to(ROOT)) for path in ROOT.rglob("*") if path.is_file())
    return frozenset(name for name in listing.decode().split("\0") if name)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(ROOT / name for name in tracked() if re.match(r"docs/.*\.md$", name))]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with their numbers (a `# comment` in a block is no heading)."""
    lines, fenced = [], None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if fence and (fenced is None or fence.group(1) == fenced):
            fenced = None if fenced else fence.group(1)
            continue
        if fenced is None:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "").lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(path.read_text()):
        if heading := HEADING.match(line):
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """Each link's line and target, outside code blocks and code spans."""
    found = []
    for number, line in prose_lines(path.read_text()):
        line = CODE_SPAN.sub("", line)
        for pattern in (MARKDOWN_LINK, HTML_LINK):
            found.extend((number, match.group(1)) for match in pattern.finditer(line))
    return found


def broken_links(path: Path) -> list[str]:
    """What is wrong with each relative link of one document, as `file:line: target: why`."""
    problems = []
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("//"):
            continue  # https:, mailto: and the like: not ours to check
        where, _, anchor = target.partition("#")
        if where:
            base = ROOT if where.startswith("/") else path.parent  # GitHub reads /x from the repository's root
            resolved = (base / where.split("?")[0].lstrip("/")).resolve()
            try:
                name = resolved.relative_to(ROOT).as_posix()
            except ValueError:
                problems.append(f"{path.relative_to(ROOT)}:{number}: {target}: outside the repository")
                continue
            is_file = name in tracked()
            is_folder = any(file.startswith(name.rstrip("/") + "/") for file in tracked())
            if not (is_file or is_folder):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {target}: no such tracked file")
                continue
        else:
            resolved, is_file = path, True
        if anchor and (not is_file or resolved.suffix != ".md" or anchor not in anchors(resolved)):
            problems.append(f"{path.relative_to(ROOT)}:{number}: {target}: no heading #{anchor}")
    return problems


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    problems = broken_links(path)
    assert not problems, "\n".join(problems)


def read_names(source: str) -> set[str]:
    """The environment variables a module reads by a literal name: ``os.environ.get("X")``,
    ``os.environ["X"]``, ``os.getenv("X")`` and env.py's ``flag("X", ...)`` and ``words("X")``."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        argument = None
        if isinstance(node, ast.Call) and node.args:
            function = ast.unparse(node.func)
            if function.endswith(("environ.get", "getenv")) or function in {"flag", "words"}:
                argument = node.args[0]
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and ast.unparse(node.value).endswith("environ")
        ):
            argument = node.slice
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            names.add(argument.value)
    return names


def settings_read() -> set[str]:
    return set().union(*(read_names(path.read_text()) for path in SETTINGS_FILES))


def read_anywhere() -> set[str]:
    """Variables any tracked Python file reads (tests and tools have a few of their own)."""
    names = set()
    for name in tracked():
        if name.endswith(".py") and (ROOT / name).is_file():
            names |= read_names((ROOT / name).read_text())
    return names


def documented(path: Path = DEPLOYMENT) -> set[str]:
    """The variables named in the first cell of a table row of docs/deployment.md."""
    names = set()
    for _, line in prose_lines(path.read_text()):
        if line.startswith("|"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def test_every_setting_the_site_reads_is_in_the_deployment_tables():
    assert "DJANGO_SECRET_KEY" in settings_read()  # the reader sees settings.py's own way of reading
    assert "DJANGO_DEBUG" in settings_read()  # and env.py's flag()
    assert sorted(settings_read() - documented()) == []


def test_the_variables_of_tests_and_tools_are_in_the_deployment_tables():
    ours = {name for name in read_anywhere() if name.startswith("FEMKORT_")}
    assert sorted(ours - documented()) == []


def test_every_variable_the_docs_name_is_read_somewhere():
    """A renamed or removed setting must leave the docs too (Django's own DJANGO_SETTINGS_MODULE aside)."""
    real = read_anywhere() | {"DJANGO_SETTINGS_MODULE"}
    named = {}
    for path in documents():
        for number, line in prose_lines(path.read_text()):
            for name in VARIABLE.findall(line):
                named.setdefault(name, f"{path.relative_to(ROOT)}:{number}")
    assert {name: where for name, where in named.items() if name not in real} == {}


def test_the_haproxy_config_in_the_docs_is_the_one_the_proxy_test_runs():
    """docs/deployment.md shows deploy/haproxy.cfg whole (tests/live/test_proxy.py runs the file)."""
    shown = re.search(r"^```haproxy\n(.*?)^```$", DEPLOYMENT.read_text(), re.S | re.M)
    assert shown, "docs/deployment.md has no haproxy block"
    assert shown.group(1) == (ROOT / "deploy" / "haproxy.cfg").read_text()
