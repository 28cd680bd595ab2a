"""Django's ``{# … #}`` comment is one line only: one spread over lines is printed on every page."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_comment_spans_lines():
    spread = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert spread == []
