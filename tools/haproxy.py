"""deploy/haproxy.cfg made runnable on 127.0.0.1, for the proxy test and ``tools.bench_load --proxy``:
the same file as deployed, without its TLS lines (those marked ``# tls``), listening on one local
port, its ``server`` lines replaced by one per local daphne process."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "haproxy.cfg"


def haproxy_binary() -> str | None:
    """Debian's HAProxy (kept in /usr/sbin, off a user's PATH), if installed."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def local_config(port: int, backends: Sequence[int], page_check: bool = True) -> str:
    """The config on 127.0.0.1:``port`` in front of processes on ``backends`` (ports), named app1,
    app2, ... in that order. ``page_check=False`` checks them by TCP connect only (a server that
    answers no page, like the benchmark's floor)."""
    lines, servers = [], 0
    for line in TEMPLATE.read_text().splitlines():
        if line.rstrip().endswith("# tls"):
            continue
        if not page_check and re.match(r"\s*(option httpchk|http-check )", line):
            continue
        line = re.sub(r"^(\s*)bind :80$", rf"\g<1>bind 127.0.0.1:{port}", line)
        if server := re.match(r"^(\s*)server \w+ \S+$", line):
            servers += 1
            if servers == 1:  # the template's servers stand for however many there are
                lines += [f"{server.group(1)}server app{n} 127.0.0.1:{p}" for n, p in enumerate(backends, 1)]
            continue
        lines.append(re.sub(r"\bhdr Host \S+", "hdr Host 127.0.0.1", line))  # the health check asks as a local client
    if servers == 0 or f"bind 127.0.0.1:{port}" not in "\n".join(lines):
        raise ValueError(f"{TEMPLATE} has no `bind :80` or no `server` line to replace")
    return "\n".join(lines) + "\n"
