"""The layers import one way only: no package imports another that imports it back (services
and the live package, accounts and the games' selectors), and the engine imports neither Django
nor the site. A loop fails here with the modules that make it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games.engine", "games.bots", "games.services", "games.live", "games.selectors", "accounts")


def modules() -> dict[str, Path]:
    found = {}
    for path in [*ROOT.joinpath("games").rglob("*.py"), *ROOT.joinpath("accounts").rglob("*.py")]:
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Everything a module imports, at the top or inside a function: an import that waits until it is
    called still ties the layers together."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def layer(name: str) -> str:
    return next((package for package in PACKAGES if name == package or name.startswith(package + ".")), name)


def test_no_layer_imports_one_that_imports_it_back():
    known = modules()
    edges: dict[tuple[str, str], list[str]] = {}
    for name, path in known.items():
        for target in imports(name, path, known):
            if layer(name) != layer(target) and layer(target) in PACKAGES and layer(name) in PACKAGES:
                edges.setdefault((layer(name), layer(target)), []).append(f"{name} -> {target}")
    loops = [(a, b, edges[(a, b)], edges[(b, a)]) for a, b in edges if (b, a) in edges and a < b]
    assert loops == []


def test_the_engine_imports_neither_django_nor_the_site():
    known = modules()
    for name, path in known.items():
        if layer(name) == "games.engine":
            outside = {t for t in imports(name, path, known) if t.startswith(("django", "channels", "accounts"))}
            outside |= {t for t in imports(name, path, known) if t.startswith("games.") and layer(t) != "games.engine"}
            assert outside == set(), name
