"""Reactions at the table, through the UI: sent from the palette, shown over the sender's seat
and read out politely, muted per player, and rate-limited with a clear word."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_contrast import CONTRAST
from tests.browser.test_play import new_player
from tests.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(**LIFTED)


def react(page: Page, emote: str) -> None:
    page.get_by_test_id("react-toggle").click()
    page.locator(f"[data-testid=react-option][data-emote={emote}]").click()
    expect(page.get_by_test_id("react-palette")).to_be_hidden()


def at_a_table(server: LiveServer, ana: Page, ben: Page) -> None:
    """Ana opens a classic room for two, Ben takes the other seat, and the match starts."""
    ana.goto(server.http + "/?lang=en")
    ana.get_by_test_id("edition-classic").click()
    ana.get_by_test_id("create-name").fill("Ana")
    ana.get_by_test_id("create-seats").select_option("2")
    ana.get_by_test_id("create-submit").click()
    ana.wait_for_url("**/r/*")
    ben.goto(ana.url + "?lang=en")
    ben.get_by_test_id("join-name").fill("Ben")
    ben.get_by_test_id("join-seat-button").click()
    expect(ana.locator("[data-testid=seat][data-seat]")).to_have_count(2)
    ana.get_by_test_id("start-button").click()
    expect(ben.get_by_test_id("table")).to_have_attribute("data-status", "playing")


def test_reactions_are_shown_muted_and_limited(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    ana_ctx, ana = new_player(browser, {"width": 390, "height": 664})
    ben_ctx, ben = new_player(browser, {"width": 1366, "height": 657})
    try:
        at_a_table(server, ana, ben)

        # The palette: every option in view on the phone, each with its words for screen readers.
        ana.get_by_test_id("react-toggle").click()
        palette = ana.get_by_test_id("react-palette")
        expect(palette).to_be_visible()
        box = palette.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 664, box
        assert all(o.get_attribute("aria-label") for o in ana.get_by_test_id("react-option").all())
        ana.screenshot(path=str(artifacts / "reactions-palette-phone.png"))
        ana.keyboard.press("Escape")
        expect(palette).to_be_hidden()

        react(ana, "laugh")
        bubble = ben.locator("[data-testid=reaction][data-emote=laugh]")
        expect(bubble).to_have_count(1)
        seat = ben.locator("[data-testid=opponent][data-seat='0']").bounding_box()
        at = bubble.bounding_box()
        assert seat and at and seat["x"] - 40 <= at["x"] <= seat["x"] + seat["width"] + 40, (seat, at)
        expect(ben.get_by_test_id("reaction-live")).to_have_text("Ana: Laughing")
        ben.screenshot(path=str(artifacts / "reactions-laptop.png"))

        # Ben hides Ana's reactions: her next one reaches his view unseen (his own, sent after it
        # reached the room, comes later in the same order, and is shown).
        ben.get_by_test_id("react-toggle").click()
        ben.locator("[data-testid=react-mute][data-name=Ana]").click()
        expect(ben.locator("[data-testid=react-mute][data-name=Ana]")).to_have_attribute("aria-pressed", "true")
        ben.keyboard.press("Escape")
        react(ana, "clap")
        expect(ana.locator("[data-testid=reaction][data-emote=clap]")).to_have_count(1)  # in the room now
        react(ben, "thumbs_up")
        expect(ben.locator("[data-testid=reaction][data-emote=thumbs_up]")).to_have_count(1)
        expect(ben.locator("[data-testid=reaction][data-emote=clap]")).to_have_count(0)

        # A few at a time: past the burst the sender is told so in words.
        react(ana, "wow")
        react(ana, "gg")
        react(ana, "uno")
        expect(ana.get_by_test_id("toast").filter(has_text="a few reactions at a time").first).to_be_visible()
        assert not ana.errors and not ben.errors, (ana.errors, ben.errors)  # type: ignore[attr-defined]
    finally:
        ana_ctx.close()
        ben_ctx.close()


# A bubble's measures: its glyph's size, its box, and the contrast of its fill against what lies
# under it on the page (the seat chip, the felt) — WCAG's 3:1 for a shape that must be made out.
MEASURE = """(el) => {
  const parse = (c) => {
    const m = c.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  // The fills a point of `node` may show: the translucent layers over the first opaque one or
  // gradient (each of whose colour stops is a candidate: the felt is a gradient), outermost first.
  const fills = (node) => {
    const layers = [];
    let base = [[255, 255, 255, 1]];
    for (let n = node; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      const stops = (style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map(parse);
      const bg = parse(style.backgroundColor);
      const under = over(bg, [255, 255, 255, 1]);
      if (stops.length) { base = stops.map((c) => over(c, under)); break; }
      if (bg[3] >= 1) { base = [bg]; break; }
      if (bg[3] > 0) layers.push(bg);
    }
    return base.map((b) => [...layers].reverse().reduce((acc, layer) => over(layer, acc), b));
  };
  const lum = (c) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const [r, g, b] = c.slice(0, 3).map(lin);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const r = el.getBoundingClientRect();
  el.style.visibility = 'hidden';  // what lies under the bubble's middle
  const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  el.style.visibility = '';
  const own = fills(el)[0];
  return {
    font: parseFloat(getComputedStyle(el).fontSize), width: r.width, height: r.height,
    inView: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
    contrast: Math.min(...fills(under).map((b) => ratio(own, b))), under: under ? under.className : '',
    animations: el.getAnimations().map((a) => a.animationName || a.id),
  };
}"""


def test_a_reaction_is_large_and_stands_out_at_the_senders_seat(browser: Browser, server: LiveServer,
                                                                artifacts: Path) -> None:
    """Sent from the laptop, seen on the phone over the sender's dark seat chip: a glyph of at
    least 40 CSS px in a light bubble that stands out 3:1 or more from what lies under it, whole on
    the screen; still under reduced motion, animated without it."""
    ana_ctx, ana = new_player(browser, {"width": 390, "height": 664})
    ben_ctx, ben = new_player(browser, {"width": 1366, "height": 657})
    try:
        at_a_table(server, ana, ben)
        react(ben, "laugh")  # Ana's page asks for reduced motion (new_player): the bubble holds still
        bubble = ana.locator("[data-testid=reaction][data-emote=laugh]")
        expect(bubble).to_have_count(1)
        seen = bubble.evaluate(MEASURE)
        assert seen["font"] >= 40 and seen["height"] >= 40 and seen["width"] >= 40, seen
        assert seen["contrast"] >= 3, str(seen)
        assert seen["inView"], seen
        assert seen["animations"] == [], seen
        seat = ana.locator("[data-testid=opponent][data-seat='1']").bounding_box()
        box = bubble.bounding_box()
        assert seat and box and seat["x"] - 48 <= box["x"] + box["width"] / 2 <= seat["x"] + seat["width"] + 48
        ana.screenshot(path=str(artifacts / "reaction-phone.png"))
        # A sticker's words read on its own fill (4.5:1).
        react(ben, "gg")
        sticker = ana.locator("[data-testid=reaction][data-emote=gg]")
        expect(sticker).to_have_count(1)
        assert sticker.evaluate(CONTRAST) >= 4.5
        assert sticker.evaluate(MEASURE)["contrast"] >= 3
        # Without reduced motion it pops in at the seat and floats off.
        ana.emulate_media(reduced_motion="no-preference")
        react(ben, "wow")
        moving = ana.locator("[data-testid=reaction][data-emote=wow]")
        expect(moving).to_have_count(1)
        assert "react-pop" in moving.evaluate(MEASURE)["animations"]
        # The sender sees their own at their own bar, as large.
        own = ben.locator("[data-testid=reaction][data-emote=laugh]")
        expect(own).to_have_count(1)
        mine = own.evaluate(MEASURE)
        assert mine["font"] >= 40 and mine["contrast"] >= 3 and mine["inView"], mine
        ben.screenshot(path=str(artifacts / "reaction-laptop.png"))
        assert not ana.errors and not ben.errors, (ana.errors, ben.errors)  # type: ignore[attr-defined]
    finally:
        ana_ctx.close()
        ben_ctx.close()
