"""What the browser tests of the table share: the two devices people use (a 1366×657 laptop
window, a 390×664 phone with touch), the four languages' locales, rooms made and seats taken
over HTTP, a page opened holding a seat, and the check that everything a turn needs is in reach
(``reach``) and uncovered."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.live import LiveServer

LAPTOP = "laptop"
PHONE = "phone"
DEVICES: dict[str, dict[str, Any]] = {
    LAPTOP: {"viewport": {"width": 1366, "height": 657}},
    PHONE: {"viewport": {"width": 390, "height": 664}, "has_touch": True, "is_mobile": True},
}
LOCALES = {"en": "en-GB", "pl": "pl-PL", "sl": "sl-SI", "gl": "gl-ES"}

# What must be in reach on the table, and whatever the announcement area shows must not cover.
REACH = """() => {
  const problems = [];
  const inView = (r) => r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const px = (v) => Math.round(v);
  const q = (s) => document.querySelector(s);
  const table = q('[data-testid=table]');
  if (!table) return { problems: ['no table'] };
  const status = table.dataset.status;
  const felt = table.getBoundingClientRect(); // the table clips what overflows it
  const inTable = (r) => r.top >= felt.top - 0.5 && r.left >= felt.left - 0.5
    && r.bottom <= felt.bottom + 0.5 && r.right <= felt.right + 0.5;
  const parts = {
    pile: q('[data-testid=draw-pile]'),
    uno: q('[data-testid=uno-button]'),
    draw: q('[data-testid=draw-button]'),
    top: q('[data-testid=discard] .top-card'),
    colour: q('[data-testid=declared-colour]'),
    actions: q('.actions'),
    hand: q('[data-testid=hand]'),
    card: (document.activeElement && document.activeElement.matches('[data-testid=card]'))
      ? document.activeElement : q('[data-testid=card]'),
  };
  if (status === 'playing') {
    for (const [name, el] of Object.entries(parts)) {
      if (!el) { if (name !== 'card') problems.push(`${name}: missing`); continue; }
      // All Wild has no Draw button (AW-5); a narrow table hides the draw pile for an announcement.
      if (el.hidden || !el.getClientRects().length) continue;
      const r = el.getBoundingClientRect();
      if (!inView(r) || !inTable(r)) {
        problems.push(`${name} out of view: ${px(r.top)}..${px(r.bottom)} of ${innerHeight}, `
          + `${px(r.left)}..${px(r.right)} of ${innerWidth}`);
      }
    }
    // What the announcement area shows: its items, as far as the area (which scrolls) lets them.
    const area = q('[data-testid=announce]').getBoundingClientRect();
    const shown = [...document.querySelectorAll('[data-testid=announce] > *')]
      .filter((el) => !el.hidden && el.childElementCount && el.getClientRects().length);
    for (const el of shown) {
      const r = el.getBoundingClientRect();
      const a = { left: Math.max(r.left, area.left), right: Math.min(r.right, area.right),
                  top: Math.max(r.top, area.top), bottom: Math.min(r.bottom, area.bottom) };
      for (const name of ['top', 'colour', 'actions', 'hand']) {
        if (parts[name] && meets(a, parts[name].getBoundingClientRect())) {
          problems.push(`${el.dataset.testid} covers ${name}`);
        }
      }
    }
    // A decision's every option lies in sight, with nothing to scroll (the area clips it).  On
    // a phone the decision is a bottom sheet over the hand (sheet.js): it clips its options
    // itself, and it leaves the top card, the colour and the action bar uncovered.
    const dialog = q('[data-testid=dialog]');
    if (dialog && !dialog.hidden) {
      const sheet = !dialog.closest('[data-testid=announce]');
      const clip = sheet ? dialog.getBoundingClientRect() : area;
      for (const b of dialog.querySelectorAll('[data-testid=dialog-option], [data-testid=dialog-cancel]')) {
        const r = b.getBoundingClientRect();
        if (!inView(r) || r.top < clip.top - 0.5 || r.bottom > clip.bottom + 0.5) {
          problems.push(`dialog option ${b.dataset.option || 'cancel'} out of sight: ${px(r.top)}..${px(r.bottom)}, `
            + `area ${px(clip.top)}..${px(clip.bottom)}`);
        }
      }
      for (const name of sheet ? ['top', 'colour', 'actions'] : []) {
        if (parts[name] && meets(clip, parts[name].getBoundingClientRect())) problems.push(`the sheet covers ${name}`);
      }
    }
  }
  const page = document.scrollingElement;
  if (page.scrollTop !== 0) problems.push(`page scrolled by ${page.scrollTop}`);
  if (page.scrollHeight > innerHeight + 1) problems.push(`page scrolls: ${page.scrollHeight} > ${innerHeight}`);
  if (page.scrollWidth > innerWidth + 1) problems.push(`page scrolls sideways: ${page.scrollWidth} > ${innerWidth}`);
  const clock = q('[data-testid=turn-clock]');
  return {
    problems,
    status,
    announcing: [...document.querySelectorAll('[data-testid=announce] > *')]
      .filter((el) => !el.hidden && el.childElementCount).map((el) => el.dataset.testid),
    clock: !!clock && !clock.hidden && clock.getBoundingClientRect().bottom <= innerHeight,
    ring: !!q('.opponent.clocked'),
    ticker: (q('[data-testid=last-event]') || {}).textContent || '',
    travel: document.getAnimations().some((a) => a.id === 'travel'),
  };
}"""


def new_room(server: LiveServer, edition: str = "classic", seats: int = 3, **options: Any) -> str:
    body = {"variant": edition, "max_seats": seats, "target_score": 1, "away_grace_seconds": 600, **options}
    code: str = httpx.post(f"{server.http}/api/rooms", json=body).json()["code"]
    return code


def take_seat(server: LiveServer, code: str, name: str) -> dict[str, Any]:
    seat: dict[str, Any] = httpx.post(f"{server.http}/api/rooms/{code}/players", json={"name": name}).json()
    return seat


def add_bots(server: LiveServer, code: str, host: dict[str, Any], n: int) -> None:
    for _ in range(n):
        r = httpx.post(f"{server.http}/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {host['token']}"})
        assert r.status_code == 201, r.text


def open_seat(browser: Browser, server: LiveServer, code: str, seat: dict[str, Any], device: str,
              lang: str = "en", motion: str = "reduce") -> Page:
    """A browser on `device` that holds `seat` (as the page stores it after taking a seat)."""
    context = browser.new_context(locale=LOCALES[lang], reduced_motion=motion,  # type: ignore[arg-type]
                                  **DEVICES[device])
    stored = json.dumps({"token": seat["token"], "seat": seat["seat"], "name": seat["name"]})
    context.add_init_script(f"localStorage.setItem({json.dumps(f'uno.seat.{code}')}, {json.dumps(stored)})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.http}/r/{code}?lang={lang}")
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    return page


def in_view(page: Page, testid: str) -> None:
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    assert box and size, testid
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (testid, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (testid, box, size)
    assert page.evaluate("document.scrollingElement.scrollTop") == 0


def until(page: Page, expression: str, message: str, seconds: float = 10) -> None:
    """Polls an expression (the pages' CSP forbids the string evaluation wait_for_function uses)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, message
        time.sleep(0.02)


def reach(page: Page, where: str) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(REACH)
    if seen["problems"]:
        page.screenshot(path=str(ARTIFACTS / "layout-failure.png"))
    assert not seen["problems"], f"{where}: {seen['problems']}"
    return seen
