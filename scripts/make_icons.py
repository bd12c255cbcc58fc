"""Draws the installed app's PNG icons (static/img/icon-192.png, icon-512.png) from
static/img/app-icon.svg, with the same Chromium the browser tests use.  Run it again after
changing the SVG and commit the PNGs: the server only serves them.

    uv run python scripts/make_icons.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("PLAYWRIGHT_BROWSERS_PATH", tempfile.mkdtemp(prefix="pw-browsers-"))

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parents[1] / "static" / "img"
SIZES = (192, 512)


def main() -> int:
    svg = (IMG / "app-icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium"),
                                    args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            style = f"html,body{{margin:0}}svg{{display:block;width:{size}px;height:{size}px}}"
            page.set_content(f"<style>{style}</style>{svg}")
            clip = {"x": 0, "y": 0, "width": size, "height": size}
            page.screenshot(path=str(IMG / f"icon-{size}.png"), clip=clip)  # type: ignore[arg-type]
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
