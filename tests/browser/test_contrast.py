"""Text on the table's light panels and in the connection banner is readable: contrast of at least 4.5:1.

Every text and link on the table (the felt, its seats, badges, decisions and shortcuts list)
and in the side panel is measured against what is really behind it: the felt's gradient by its
every colour, the seats' translucent backgrounds composited over it, dimmed seats' opacity.

The round summary's quiet lines ("The next round starts in N s", "Waiting for X to start a
rematch") sit on the white summary card inside the felt table; the "Play here" button sits in
the dark connection banner.  Both are measured from the computed styles of the real page, at a
laptop and a phone viewport, in the light theme (and the dark one, which must not regress).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_behaviour import create_room, join
from tests.browser.test_table_fit import PROBES, SHOW, started_table
from tests.live import LiveServer

VIEWPORTS: list[ViewportSize] = [{"width": 1366, "height": 657}, {"width": 390, "height": 664}]

# The contrast ratio (WCAG 2) of an element's text colour against the first opaque background
# behind it, semi-transparent layers composited on the way up.
CONTRAST = """(el) => {
  const parse = (c) => {
    const m = c.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const layers = [];
  for (let n = el; n; n = n.parentElement) {
    const bg = parse(getComputedStyle(n).backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] >= 1) break;
  }
  let bg = [255, 255, 255, 1];
  for (const layer of layers.reverse()) bg = over(layer, bg);
  const fg = over(parse(getComputedStyle(el).color), bg);
  const lum = (c) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const [r, g, b] = c.slice(0, 3).map(lin);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

# The summary's controls as room.js renders them (the round itself is played in test_play.py):
# its two quiet lines, inside the real summary section of the real table.
SUMMARY = """() => {
  const section = document.querySelector('[data-testid=round-summary]');
  const card = document.createElement('div');
  card.className = 'summary-card';
  const lines = [['next-round-countdown', 'The next round starts in 9 s'],
                 ['waiting-rematch', 'Waiting for Ana to start a rematch']];
  for (const [id, text] of lines) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.dataset.testid = id;
    p.textContent = text;
    card.append(p);
  }
  section.replaceChildren(card);
  section.hidden = false;
}"""


def _open(browser: Browser, viewport: ViewportSize, scheme: str) -> Page:
    context = browser.new_context(viewport=viewport, locale="en-GB", reduced_motion="reduce",
                                  color_scheme=scheme, has_touch=viewport["width"] < 500)  # type: ignore[arg-type]
    return context.new_page()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["laptop", "phone"])
def test_summary_lines_and_the_play_here_button_are_readable(browser: Browser, live_server: LiveServer,
                                                             viewport: ViewportSize, scheme: str) -> None:
    host, guest = _open(browser, viewport, scheme), _open(browser, viewport, scheme)
    try:
        link = create_room(host, live_server, "Ana")
        join(guest, link, "Ben")
        host.get_by_test_id("start-button").click()
        expect(guest.get_by_test_id("table")).to_be_visible()

        guest.evaluate(SUMMARY)
        for testid in ("next-round-countdown", "waiting-rematch"):
            line = guest.get_by_test_id(testid)
            expect(line).to_be_visible()
            ratio = line.evaluate(CONTRAST)
            assert ratio >= 4.5, f"{testid}: contrast {ratio:.2f}:1 ({scheme}, {viewport})"

        # The same seat opened in a second tab replaces the first, which offers "Play here".
        second = guest.context.new_page()
        second.goto(link)
        play_here = guest.get_by_test_id("connection").get_by_role("button", name="Play here")
        expect(play_here).to_be_visible()
        ratio = play_here.evaluate(CONTRAST)
        assert ratio >= 4.5, f"Play here: contrast {ratio:.2f}:1 ({scheme}, {viewport})"
    finally:
        host.context.close()
        guest.context.close()


@pytest.fixture(scope="module")
def table_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, **LIFTED)


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_every_text_on_the_table_is_readable_against_the_felt(browser: Browser, table_server: LiveServer,
                                                              artifacts: Path, device: str, scheme: str) -> None:
    page = started_table(browser, table_server, "mario_kart", 10 if device == "laptop" else 4, device, "en")
    try:
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        page.evaluate(PROBES["DECISIONS"], ["mario_kart", False])
        # The status line as it reads on your turn (amber on the felt).
        page.evaluate("() => document.querySelector('[data-testid=status-line]').classList.add('mine')")
        states = {"table": None, "target": "target", "challenge": "challenge", "colour": "colour-reason"}
        for state, kind in states.items():
            if kind:
                page.evaluate(SHOW, kind)
                toggle = page.get_by_test_id("dialog-why-toggle")
                if toggle.count():
                    toggle.click()
            page.screenshot(path=str(artifacts / f"contrast-{device}-{scheme}-{state}.png"))
            bad = page.evaluate(PROBES["LOW_CONTRAST"], "[data-testid=table]")
            if device == "laptop":
                bad += page.evaluate(PROBES["LOW_CONTRAST"], "#side-panel")
            assert not bad, f"{device}, {scheme}, {state}: {bad}"
        page.get_by_test_id("keys-toggle").click()
        bad = page.evaluate(PROBES["LOW_CONTRAST"], "[data-testid=table]")
        assert not bad, f"{device}, {scheme}, shortcuts: {bad}"
        # The head's Rules button on the felt (a purple link once: 1.23:1), and the sheet it opens.
        expect(page.get_by_test_id("rules-toggle")).to_be_visible()
        assert not page.evaluate(PROBES["LOW_CONTRAST"], ".table-head")
        page.get_by_test_id("keys-toggle").click()  # the shortcuts closed again
        page.get_by_test_id("rules-toggle").click()
        expect(page.get_by_test_id("rules-sheet-section").first).to_be_visible()
        bad = page.evaluate(PROBES["LOW_CONTRAST"], "[data-testid=rules-sheet]")
        assert not bad, f"{device}, {scheme}, rules sheet: {bad}"
    finally:
        page.context.close()
