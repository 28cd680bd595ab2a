"""Draw the home-screen app's PNG icons from static/favicon.svg, so they stay the favicon's card.

    .venv/bin/python -m tools.app_icons [--chromium /usr/bin/chromium]

Chromium (Debian's, driven by Playwright, as the browser tests do) draws the SVG at each size; no
image library is needed. Writes into static/app/:

- icon-192.png, icon-512.png: the favicon as it is, on a transparent background ("purpose": "any");
- icon-maskable-512.png: the card inside the central circle a launcher may cut out (80% of the
  width, the maskable icon's safe zone), on the site's green, which fills the whole square;
- apple-touch-icon.png (180): the same on the green, larger (iOS only rounds the corners; it
  would fill a transparent background with black);
- badge-96.png: the card's outline as one white shape with "5♥" cut out, for the status bar,
  where Android shows only the alpha channel of a notification's badge.

Run it again after changing the favicon and commit the PNGs.
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAVICON = ROOT / "static" / "favicon.svg"
OUT = ROOT / "static" / "app"
GREEN = "#0f3d2e"  # body's background in static/css/site.css


def drawing() -> str:
    """The favicon's shapes, without their <svg> element (viewBox 0 0 32 32)."""
    return re.fullmatch(r"\s*<svg[^>]*>(.*)</svg>\s*", FAVICON.read_text(), re.S).group(1)


def centred(scale: float) -> str:
    """The favicon's card scaled about the square's centre, on the site's green."""
    return (
        f'<rect width="32" height="32" fill="{GREEN}"/>'
        f'<g transform="translate(16 16) scale({scale}) translate(-16 -16)">{drawing()}</g>'
    )


def badge() -> str:
    """The card's rectangle in white with everything else, text included, cut out."""
    card = re.search(r"<rect\b[^>]*/>", drawing()).group(0)
    text = re.search(r"<text\b.*?</text>", drawing(), re.S).group(0)
    mask_card = re.sub(r'(fill|stroke)="[^"]*"', r'\1="white"', card)
    mask_text = re.sub(r'fill="[^"]*"', 'fill="black"', text)
    return (
        f'<mask id="cut">{mask_card}{mask_text}</mask>'
        f'<rect x="0" y="0" width="32" height="32" fill="white" mask="url(#cut)"/>'
    )


# name: (pixels, shapes on the 32-unit square). The maskable card's far corner (27, 31) lies
# 18.6 units from the centre; at 0.62 that is 11.5 of the safe circle's 12.8.
ICONS = {
    "icon-192.png": (192, drawing),
    "icon-512.png": (512, drawing),
    "icon-maskable-512.png": (512, lambda: centred(0.62)),
    "apple-touch-icon.png": (180, lambda: centred(0.8)),
    "badge-96.png": (96, badge),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for name, (size, shapes) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="{size}" height="{size}">'
            page.set_content(f'<body style="margin:0">{svg}{shapes()}</svg></body>')
            page.screenshot(path=str(OUT / name), omit_background=True)
            page.close()
            print(f"{name}: {size}x{size}, {(OUT / name).stat().st_size} bytes")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
