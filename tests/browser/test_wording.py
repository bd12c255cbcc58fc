"""The table's words say what the rules (RULES.md) say: a page brought to one exact decision.

A known deal (the room's first secret chosen by the test) and seats played over the protocol
bring Ana's page to a challenge, a stack and a Seven-O 7; the words on it are checked against
the rule they explain.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.engine.house import HouseRules
from app.engine.round import Round
from tests.browser.puppets import Puppet, card, deal_with, drive, find_seed, nothing, plays_face
from tests.browser.test_play import new_player
from tests.live import LiveServer


@pytest.fixture
def ana(browser: Browser) -> Iterator[Page]:
    context: BrowserContext
    context, page = new_player(browser, {"width": 1100, "height": 900})
    try:
        yield page
    finally:
        context.close()


def open_room(page: Page, server: LiveServer, edition: str, seats: int, house: tuple[str, ...] = ()) -> str:
    page.goto(server.http + "/?lang=en")
    page.get_by_test_id(f"edition-{edition}").click()
    page.get_by_test_id("create-name").fill("Ana")
    page.get_by_test_id("create-seats").select_option(str(seats))
    if house:
        page.get_by_test_id("create-more").click()  # the house rules fold under "More options"
    for rule in house:
        page.get_by_test_id(f"house-{rule}").check()
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/r/*")
    return page.get_by_test_id("room-code").inner_text()


def plain_first_card(rnd: Round) -> bool:
    return bool(card(rnd, rnd.discard[-1])["face"].isdigit())


def dialog(page: Page, kind: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid=dialog][data-kind={kind}]:not([hidden])")


@pytest.mark.parametrize("edition", ["classic", "mario_kart"])
def test_the_challenge_says_when_a_wild_draw_four_is_illegal_and_shows_the_colour_it_replaced__CL_5_CL_6_MK_4(
        ana: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, edition: str) -> None:
    def fits(rnd: Round) -> bool:
        return plain_first_card(rnd) and any(card(rnd, c)["face"] == "wild_draw4" for c in rnd.hands[1])

    first = find_seed(edition, 2, HouseRules(), fits)
    deal_with(monkeypatch, first)
    code = open_room(ana, live_server, edition, 2)
    bo = Puppet(live_server, code, "Bo")
    try:
        ana.get_by_test_id("start-button").click()
        expect(ana.get_by_test_id("table")).to_be_visible()
        bo.pump(0.3)
        replaced = bo.view["game"]["table"]["colour"]  # Ana only draws: the first card's colour stays
        chosen = next(c for c in ("red", "yellow", "green", "blue") if c != replaced)
        drive(ana, [(bo, plays_face("wild_draw4", chosen))], lambda: dialog(ana, "challenge").count() > 0)
        box = dialog(ana, "challenge")
        box.get_by_test_id("dialog-why-toggle").click()  # the explanation folds behind "Why?"
        text = box.get_by_test_id("dialog-text").inner_text()
        assert f"Bo played Wild Draw Four over {replaced}." in text, text
        held = f"no {replaced} card and no Item Box." if edition == "mario_kart" else f"no {replaced} card."
        assert f"It is legal only if they held {held}" in text, text
        assert "they draw 4 and you draw nothing; if not, you draw 6." in text, text
        assert "another card" not in text
        swatch = box.get_by_test_id("replaced-colour")
        expect(swatch).to_have_attribute("data-colour", replaced)
        expect(swatch).to_contain_text(replaced)
        expect(box.locator("[data-option=accept]")).to_contain_text("draw 4")
    finally:
        bo.close()


def test_a_stack_shows_its_total_and_the_take_button_says_how_many__house_stacking_C_9(
        ana: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    def fits(rnd: Round) -> bool:
        top = card(rnd, rnd.discard[-1])
        return plain_first_card(rnd) and any(card(rnd, c)["face"] == "draw2" and card(rnd, c)["colour"] == top["colour"]
                                             for c in rnd.hands[1])

    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(stacking=True), fits))
    code = open_room(ana, live_server, "classic", 2, ("stacking",))
    bo = Puppet(live_server, code, "Bo")
    try:
        ana.get_by_test_id("start-button").click()
        expect(ana.get_by_test_id("table")).to_be_visible()
        drive(ana, [(bo, plays_face("draw2"))], lambda: dialog(ana, "stack").count() > 0)
        box = dialog(ana, "stack")
        expect(box.locator("#dialog-title")).to_have_text("2 cards coming your way")
        # The ways out are in view at once (no "Why?" to open): an answer from the hand, or the take.
        text = box.get_by_test_id("dialog-text").inner_text()
        assert text.endswith(("Or take all 2.", "Nothing in your hand answers it: take the 2 cards.")), text
        before = int(ana.get_by_test_id("table").get_attribute("data-hand-count") or 0)
        take = box.locator("[data-option=accept]")
        expect(take).to_have_text("Take 2 cards")
        take.click()
        expect(ana.get_by_test_id("table")).to_have_attribute("data-hand-count", str(before + 2))
    finally:
        bo.close()


def test_a_seven_asks_whom_to_swap_hands_with__house_seven_o(
        ana: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    def fits(rnd: Round) -> bool:
        top = card(rnd, rnd.discard[-1])
        return plain_first_card(rnd) and top["face"] not in ("7", "0") and any(
            card(rnd, c)["face"] == "7" and card(rnd, c)["colour"] == top["colour"] for c in rnd.hands[0])

    deal_with(monkeypatch, find_seed("classic", 3, HouseRules(seven_o=True), fits))
    code = open_room(ana, live_server, "classic", 3, ("seven_o",))
    bo, cy = Puppet(live_server, code, "Bo"), Puppet(live_server, code, "Cy")
    try:
        ana.get_by_test_id("start-button").click()
        expect(ana.get_by_test_id("table")).to_be_visible()
        seven = ana.locator("[data-testid=card][data-face='7'][data-playable=true]")

        def play_seven(page: Page) -> bool:
            if page.get_by_test_id("table").get_attribute("data-my-turn") == "true" and seven.count():
                seven.first.click()
                return True
            return False

        drive(ana, [(bo, nothing), (cy, nothing)], lambda: dialog(ana, "target").count() > 0, ana=play_seven)
        box = dialog(ana, "target")
        title = box.locator("#dialog-title").inner_text()
        assert title.endswith(" 7: swap hands with whom?"), title
        assert "Who gets" not in title
        expect(box.locator("[data-option=seat-1]")).to_contain_text("Bo")
        expect(box.locator("[data-option=seat-2]")).to_contain_text("Cy")
    finally:
        bo.close()
        cy.close()
