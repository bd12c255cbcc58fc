"""The table under house rules (RULES.md §7), played through the page on a phone (390×664) and a
laptop window (1366×657): batches of one number and the bomb (HR-8, HR-9), a penalty's ways out
(HR-3, HR-4), UNO! said on its own or not at all (HR-17, HR-18) and a misplay shown to all (HR-20);
teams, elimination and whole matches are in test_house_table_match.py.  Known deals (puppets.py)
bring the page to one exact decision; the other seats are puppets played over the protocol, or the
server's bots.  Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from app.engine.round import Round
from tests.browser.house_table import (
    dialog,
    hand_count,
    house_server,
    log_text,
    play_until,
    rules,
    seated,
    start,
    status,
)
from tests.browser.puppets import (
    Puppet,
    card,
    deal_with,
    find_match_seed,
    find_seed,
    nothing,
    opens_on_a_number,
    plays_down_to_one,
    plays_face,
)
from tests.browser.tables import LAPTOP, PHONE, add_bots
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from house_server()

# ---------------------------------------------------------------- HR-8, HR-9


def three_of_a_number(rnd: Round) -> bool:
    """Seat 0 to play on a number, holding a playable number (not a 7 or 0) and two more of it."""
    top = card(rnd, rnd.discard[-1])
    if rnd.pending is None or rnd.pending.seat != 0 or rnd.pending.kind != "turn" or not top["face"].isdigit():
        return False
    hand = [card(rnd, c) for c in rnd.hands[0]]
    playable = [c for c in hand if c["colour"] == top["colour"] or c["face"] == top["face"]]
    return any(c["face"].isdigit() and c["face"] not in "07" and sum(o["face"] == c["face"] for o in hand) >= 3
               for c in playable)


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_three_of_a_number_in_one_move_and_the_bomb__HR_8_HR_9(browser: Browser, server: LiveServer, artifacts: Path,
                                                                monkeypatch: pytest.MonkeyPatch, device: str) -> None:
    """Under chaos with the bomb: a tap on a number card offers the others of its number (lit in
    the hand, toggles in the box); the hand and the keyboard add them; "Play 3 cards" lays them in
    one move, the last one added on top, and the log says Boom."""
    house = {"preset": "chaos", "bomb": True}
    deal_with(monkeypatch, find_seed("classic", 2, rules(house), three_of_a_number))
    code, _, page = seated(browser, server, device, 2, house)
    bo = Puppet(server, code, "Bo")
    try:
        start(page)
        expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
        top = page.locator("[data-testid=discard] .top-card")
        expect(top).to_be_visible()
        bo.pump(0.3)
        table = bo.view["game"]["table"]
        top_card = table["top"]
        # Ana's lead: a playable number with two more of it (the deal was chosen so).
        playable = page.locator("[data-testid=card][data-playable=true]")
        faces = {playable.nth(i).get_attribute("data-face") or "" for i in range(playable.count())}
        face = next(f for f in sorted(faces) if f.isdigit() and f not in "07"
                    and page.locator(f"[data-testid=card][data-face='{f}']").count() >= 3)
        lead_card = page.locator(f"[data-testid=card][data-face='{face}'][data-playable=true]").first
        lead_id = lead_card.get_attribute("data-card-id")
        before = hand_count(page)
        assert top_card["face"] == face or lead_card.get_attribute("data-colour") == top_card["colour"]

        lead_card.click()
        box = dialog(page, "batch")
        expect(box).to_be_visible()
        expect(box.locator("#dialog-title")).to_have_text(f"More {face}s with it?")
        mates = page.locator("[data-testid=card][data-batch=mate]")
        assert mates.count() >= 2
        expect(page.locator(f"[data-testid=card][data-card-id='{lead_id}']")).to_have_attribute("data-batch", "lead")
        expect(box.locator("[data-option=play-batch]")).to_have_text(re.compile(r"Play .* alone"))
        page.screenshot(path=str(artifacts / f"house-batch-offered-{device}.png"))

        # One more from the hand (a tap), one from the box by the keyboard.  On a phone the box is
        # a sheet over the hand (sheet.js): the tap is on the same card's toggle in it.
        first_mate = mates.first.get_attribute("data-card-id")
        (box.locator(f"[data-option=mate-{first_mate}]") if device == PHONE else mates.first).click()
        picked = page.locator(f"[data-testid=card][data-card-id='{first_mate}']")
        expect(picked).to_have_attribute("data-batch", "picked")
        expect(box.locator("[data-option=play-batch]")).to_have_text("Play 2 cards")
        toggle = box.locator("[data-option^=mate-][aria-pressed=false]").first
        second_mate = (toggle.get_attribute("data-option") or "").removeprefix("mate-")
        toggle.focus()
        page.keyboard.press("Space")
        expect(box.locator(f"[data-option=mate-{second_mate}]")).to_have_attribute("aria-pressed", "true")
        play = box.locator("[data-option=play-batch]")
        expect(play).to_have_text("Play 3 cards")
        expect(box).to_have_attribute("data-bomb", "true")
        expect(box.get_by_test_id("dialog-text")).to_contain_text("Three or more: a bomb")
        page.screenshot(path=str(artifacts / f"house-batch-three-{device}.png"))

        play.focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("table")).to_have_attribute("data-hand-count", str(before - 3))
        expect(page.get_by_test_id("event-log-list")).to_contain_text("played 3 cards at once")
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Boom! Ana's batch of 3 cards is a bomb")
        expect(page.get_by_test_id("item-flash")).to_contain_text("Boom!")
        page.screenshot(path=str(artifacts / f"house-batch-bomb-{device}.png"))
        bo.pump(0.3)
        assert bo.view["game"]["table"]["top"]["id"] == int(second_mate)  # the last one added acts (HR-8)
        assert "Bo drew a card from the bomb." in log_text(page)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        page.context.close()


# ---------------------------------------------------------------- HR-3, HR-4


def deflectable(rnd: Round) -> bool:
    """Seat 0 to play first on a number; seat 1 holds a Draw Two of its colour; seat 0 a Reverse
    and a Skip of it and no Draw Two: after Ana draws, Bo's Draw Two can only be deflected."""
    top = card(rnd, rnd.discard[-1])
    if rnd.pending is None or rnd.pending.seat != 0 or not top["face"].isdigit():
        return False
    mine = [card(rnd, c) for c in rnd.hands[0]]

    def has(hand: list[dict[str, Any]], face: str) -> bool:
        return any(c["face"] == face and c["colour"] == top["colour"] for c in hand)

    return (has([card(rnd, c) for c in rnd.hands[1]], "draw2") and has(mine, "reverse") and has(mine, "skip")
            and not any(c["face"] in ("draw2", "wild_draw4") for c in mine))


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_draw_two_coming_says_it_may_be_deflected_and_a_reverse_deflects_it__HR_3_HR_4(
        browser: Browser, server: LiveServer, artifacts: Path, monkeypatch: pytest.MonkeyPatch, device: str) -> None:
    house = {"reverse_deflect": "all", "skip_deflect": "all"}
    deal_with(monkeypatch, find_seed("classic", 2, rules(house), deflectable))
    code, _, page = seated(browser, server, device, 2, house)
    bo = Puppet(server, code, "Bo")
    try:
        start(page)
        box = dialog(page, "stack")
        play_until(page, lambda: box.count() > 0, [(bo, plays_face("draw2"))], seconds=40, only_draw=True)
        expect(box.locator("#dialog-title")).to_have_text("2 cards coming your way")
        expect(box.get_by_test_id("dialog-text")).to_have_text(
            "Deflect them with a Reverse. Deflect them with a Skip. Or take all 2.")
        deflectors = page.locator("[data-testid=card][data-playable=true]")
        assert {deflectors.nth(i).get_attribute("data-face") for i in range(deflectors.count())} == {"reverse", "skip"}
        reverse = page.locator("[data-testid=card][data-face=reverse][data-playable=true]").first
        expect(reverse).to_have_attribute("aria-label", re.compile("deflects the draw"))
        page.screenshot(path=str(artifacts / f"house-deflect-offered-{device}.png"))
        # The box offers the same cards (a tap on one is a tap in the hand): on a phone its sheet
        # lies over the hand, so the card is tapped there.
        in_box = box.locator(f"[data-option=card-{reverse.get_attribute('data-card-id')}]")
        expect(in_box).to_be_visible()
        (in_box if device == PHONE else reverse).click()
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Ana passed the penalty of 2 on to Bo.")
        expect(box).to_have_count(0)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        page.context.close()


# ---------------------------------------------------------------- HR-17, HR-18


# Ana's page taps her first playable card unless her hand is down to `n` cards on her turn: looked
# at and tapped in one task of the page, so no frame lands between the look and the tap.
TAP_DOWN_TO = """(n) => {
  const table = document.querySelector('[data-testid=table]');
  if (table.dataset.status !== 'playing') return table.dataset.status === 'waiting' ? 'waiting' : 'over';
  if (table.dataset.busy === 'true' || table.dataset.myTurn !== 'true') return 'waiting';
  if (Number(table.dataset.handCount) <= n) return 'done';
  const card = document.querySelector('[data-testid=card][data-playable=true]');
  if (!card) return 'stuck';
  card.click();
  return 'tapped';
}"""


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_strict_uno_is_said_on_its_own_once_one_card_is_left__HR_17(browser: Browser, server: LiveServer,
                                                                    artifacts: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    device: str) -> None:
    """Strict UNO!: no "Play and say UNO!" and no tip to arm it; once Ana's play leaves her one
    card the UNO! button declares, on its own.  The deal is one where Ana, tapping her first
    playable card while Bo only draws, plays down to one card with no decision on the way."""
    house = {"strict_uno": True}
    deal_with(monkeypatch, find_match_seed("classic", 2, rules(house), plays_down_to_one))
    code, _, page = seated(browser, server, device, 2, house)
    bo = Puppet(server, code, "Bo")
    try:
        start(page)
        uno = page.get_by_test_id("uno-button")
        table = page.get_by_test_id("table")
        deadline = time.monotonic() + 120
        while (tapped := page.evaluate(TAP_DOWN_TO, 2)) != "done":  # Bo draws and keeps between her taps
            assert tapped not in ("over", "stuck") and time.monotonic() < deadline, f"the deal went otherwise: {tapped}"
            bo.pump()
            bo.move(nothing)
            time.sleep(0.05)
        expect(uno).to_have_attribute("data-uno-mode", "idle")  # at two cards: no declaring yet, none with the play
        assert page.evaluate(TAP_DOWN_TO, 1) == "tapped"
        # Bo is not moved from here on: his next turn action would close the UNO! window (C-11).
        expect(uno).to_have_attribute("data-uno-mode", "declare")
        assert status(page) == "playing", "Ana's hand never came down to one card"
        expect(table).to_have_attribute("data-hand-count", "1")
        expect(page.get_by_test_id("uno-tip")).to_have_count(0)
        expect(page.locator("[data-testid=dialog][data-kind=uno]")).to_have_count(0)
        page.screenshot(path=str(artifacts / f"house-strict-uno-{device}.png"))
        uno.click(force=True)  # it throbs while due
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Ana said UNO!")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        page.context.close()


@pytest.mark.slow
def test_silent_uno_has_no_uno_button__HR_18(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    code, host, page = seated(browser, server, PHONE, 2, {"silent_uno": True})
    try:
        add_bots(server, code, host, 1)
        start(page)
        expect(page.get_by_test_id("uno-button")).to_be_hidden()
        expect(page.get_by_test_id("draw-button")).to_be_visible()
        page.screenshot(path=str(artifacts / "house-silent-uno-phone.png"))
    finally:
        page.context.close()


# ---------------------------------------------------------------- HR-20


def bo_can_misplay(rnd: Round) -> bool:
    """Ana (seat 0) to play first on a number, and Bo holding a coloured card that does not go on it:
    once Ana has drawn and kept, Bo's first turn can try it."""
    top = card(rnd, rnd.discard[-1])
    return opens_on_a_number(rnd) and any(
        c["colour"] is not None and c["colour"] != top["colour"] and c["face"] != top["face"]
        for c in (card(rnd, i) for i in rnd.hands[1]))


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_misplay_is_shown_to_everyone_with_its_penalty__HR_20(browser: Browser, server: LiveServer, artifacts: Path,
                                                                monkeypatch: pytest.MonkeyPatch, device: str) -> None:
    house = {"misplay_penalty": True}
    deal_with(monkeypatch, find_seed("classic", 2, rules(house), bo_can_misplay))
    code, _, page = seated(browser, server, device, 2, house)
    bo = Puppet(server, code, "Bo")
    tried: list[dict[str, Any]] = []

    def misplays_once(legal: list[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any] | None:
        playable = {a.get("card") for a in legal if a["kind"] == "play"}
        wrong = [c for c in table["hand"] if c["id"] not in playable]
        if tried or not wrong or table["pending"]["kind"] != "turn":
            return None
        tried.append(wrong[0])
        return {"kind": "play", "card": wrong[0]["id"]}

    try:
        start(page)
        chip = page.locator("[data-testid=opponent][data-seat='1']")
        play_until(page, lambda: bool(tried) and "misplay" in log_text(page), [(bo, misplays_once)], seconds=60,
                   only_draw=True)
        flash = page.get_by_test_id("item-flash")
        expect(flash).to_have_attribute("data-kind", "misplay")
        expect(flash).to_contain_text("Misplay!")
        expect(flash).to_contain_text("and draws 1")
        expect(chip).to_have_class(re.compile("misplayed"))
        log = page.get_by_test_id("event-log-list")
        tried_line = rf"Bo tried to play {tried[0]['colour'] or ''}[^.]*, which could not be played there\."
        expect(log).to_contain_text(re.compile(tried_line))
        expect(log).to_contain_text("Bo drew a card for a misplay.")
        page.screenshot(path=str(artifacts / f"house-misplay-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        page.context.close()
