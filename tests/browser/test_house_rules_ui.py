"""House rules in the browser: the creation form offers the presets (HR-34) and the options the
server plays, grouped by RULES.md §7's families; what HX-1 or the edition forbids cannot be
picked and says why; the waiting room and the lobby show which rules are on, with what each does
on a tap.  On a phone (390×664) and a laptop window (1366×657)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine.house import PRESETS
from app.engine.house import options as house
from app.rooms.options import NOT_AT_THE_TABLE
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import DEVICES, LAPTOP, PHONE, add_bots, new_room, open_seat, take_seat
from tests.live import LiveServer

# What the room offers: what the engine plays, less what the browser's table cannot play yet.
PLAYABLE = house.AVAILABLE - NOT_AT_THE_TABLE

CATALOGUE_EN = json.loads((Path(__file__).resolve().parents[2] / "static/i18n/en.json").read_text())


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, **LIFTED)


def open_home(browser: Browser, server: LiveServer, device: str) -> tuple[Any, Page]:
    context = browser.new_context(locale="en-GB", reduced_motion="reduce", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.http}/")
    page.get_by_test_id("create-more").click()
    expect(page.get_by_test_id("house-preset")).to_be_visible()
    page.get_by_test_id("create-name").fill("Ana")  # after the page's script, which fills in a remembered name
    return context, page


def created_rules(page: Page, server: LiveServer) -> dict[str, Any]:
    page.get_by_test_id("create-submit").click()
    error = page.get_by_test_id("create-error")
    expect(page.get_by_test_id("waiting-room").or_(error.filter(has_text=re.compile(".")))).to_be_visible()
    assert "/r/" in page.url, error.inner_text()  # a refusal the form did not foresee
    code = page.get_by_test_id("room-code").inner_text()
    rules: dict[str, Any] = httpx.get(f"{server.http}/api/rooms/{code}").json()["house_rules"]
    return rules


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_room_from_the_party_preset__HR_34(browser: Browser, server: LiveServer, artifacts: Path,
                                             device: str) -> None:
    context, page = open_home(browser, server, device)
    try:
        page.get_by_test_id("create-public").check()
        page.get_by_test_id("house-preset").select_option("party")
        # The preset's options are ticked in the form (and may still be changed, D-2).
        for key in ("stacking", "seven_o", "jump_in", "draw_until_playable"):
            expect(page.get_by_test_id(f"house-{key}")).to_be_checked()
        expect(page.get_by_test_id("house-preset-about")).to_contain_text("Party")
        page.get_by_test_id("house-preset-about").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"house-form-party-{device}.png"))
        rules = created_rules(page, server)
        assert rules["preset"] == "party"
        assert all(rules[k] is True for k in ("stacking", "seven_o", "jump_in", "draw_until_playable"))
        # The waiting room: the preset and each rule as a short label; what they do on a tap.
        options = page.get_by_test_id("room-options")
        expect(options.get_by_test_id("house-chip-preset")).to_have_text("Party")
        expect(options.get_by_test_id("house-chip")).to_have_count(4)
        expect(options.locator(".house-details")).to_be_hidden()
        options.locator("summary").click()
        expect(options.locator(".house-details dd[data-key=seven_o]")).to_contain_text("swaps hands")
        page.screenshot(path=str(artifacts / f"house-waiting-party-{device}.png"))
        # The lobby lists the room with the same labels, and the details on a tap.
        code = page.get_by_test_id("room-code").inner_text()
        page.goto(f"{server.http}/lobby")
        room = page.locator(f"[data-testid=lobby-room][data-code=\"{code}\"]")
        expect(room.get_by_test_id("house-chip-preset")).to_have_text("Party")
        expect(room.get_by_test_id("house-chip")).to_have_count(4)
        room.locator("summary").click()
        expect(room.locator(".house-details dd[data-key=jump_in]")).to_be_visible()
        room.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"house-lobby-party-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_hand_picked_combination_and_what_it_needs__HX_1_D_1(browser: Browser, server: LiveServer,
                                                                artifacts: Path, device: str) -> None:
    context, page = open_home(browser, server, device)
    try:
        # HX-1: cross-stacking needs stacking: until it is on, the choice is disabled and says so.
        cross = page.get_by_test_id("house-cross_stack")
        expect(cross).to_be_disabled()
        expect(page.get_by_test_id("house-why-cross_stack")).to_have_text("Needs Stacking")
        page.get_by_test_id("house-stacking").check()
        expect(cross).to_be_enabled()
        expect(page.get_by_test_id("house-why-cross_stack")).to_be_hidden()
        cross.select_option(label="Both ways")
        # HX-1: one kind only cannot go with cross-stacking.
        expect(page.get_by_test_id("house-stack_only")).to_be_disabled()
        expect(page.get_by_test_id("house-why-stack_only")).to_have_text("Not with Cross-stack")
        page.get_by_test_id("house-skip_deflect").select_option(label="All Draws")
        page.get_by_test_id("house-rounds").fill("3")
        # HX-1: a single round cannot go with a fixed number of rounds.
        expect(page.get_by_test_id("house-single_round")).to_be_disabled()
        expect(page.get_by_test_id("house-why-single_round")).to_have_text("Not with Fixed rounds")
        page.get_by_test_id("house-family-stacking").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"house-form-picked-{device}.png"))
        # Long reasons inside the choices do not widen the page (a fieldset grows to its content).
        assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
        rules = created_rules(page, server)
        assert rules["preset"] is None
        assert (rules["stacking"], rules["cross_stack"], rules["skip_deflect"], rules["rounds"]) == (True, "both",
                                                                                                      "all", 3)
        on = {k for k, v in rules.items() if k != "preset" and v != house.DEFAULTS[k]}
        assert on == {"stacking", "cross_stack", "skip_deflect", "rounds"}  # D-1: the rest stays at its default
        chips = page.get_by_test_id("room-options").get_by_test_id("house-chip")
        expect(chips).to_have_text(["Stacking", "3 rounds", "Cross-stack: Both ways", "Skip deflects: All Draws"])
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_turning_off_what_an_option_needs_turns_it_off_too__HX_1_D_2(browser: Browser, server: LiveServer,
                                                                 device: str) -> None:
    context, page = open_home(browser, server, device)
    try:
        page.get_by_test_id("house-preset").select_option("party")
        page.get_by_test_id("house-revenge").check()
        page.get_by_test_id("house-stacking").uncheck()  # revenge needs stacking (HX-1)
        expect(page.get_by_test_id("house-revenge")).not_to_be_checked()
        expect(page.get_by_test_id("house-revenge")).to_be_disabled()
        expect(page.get_by_test_id("house-why-revenge")).to_have_text("Needs Stacking")
        if "fast_mode" in PLAYABLE:  # HX-1: fast mode needs the room's turn timer, below in the form
            fast = page.get_by_test_id("house-fast_mode")
            expect(fast).to_be_disabled()
            expect(page.get_by_test_id("house-why-fast_mode")).to_have_text("Needs a turn timer")
            page.get_by_test_id("create-timer").select_option("30")
            fast.check()
            page.get_by_test_id("create-timer").select_option("")
            expect(fast).not_to_be_checked()
            expect(fast).to_be_disabled()
        # D-2: the preset and what differs from it; the label counts the change.
        expect(page.get_by_test_id("house-preset-about")).to_contain_text("Party + 1 changes")
        rules = created_rules(page, server)
        assert rules["preset"] == "party" and rules["stacking"] is False and rules["revenge"] is False
        assert rules["seven_o"] is True
        expect(page.get_by_test_id("room-options").get_by_test_id("house-chip-preset")).to_have_text(
            "Party + 1 changes")
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_what_the_edition_refuses_cannot_be_picked__HX_1(browser: Browser, server: LiveServer, artifacts: Path,
                                                          device: str) -> None:
    """All Wild refuses no_challenge (HX-1): picking the edition turns it off and says why."""
    refused = [k for k in sorted(PLAYABLE) if house.CHOICES.get(k) == (False, True)
               and True in house.refused_house_rules("all_wild").get(k, ())
               and not any(n == k for n, _ in house.NEEDS)]  # one that can be picked on its own
    assert refused, "an option All Wild refuses is played by the server"
    key = refused[0]
    context, page = open_home(browser, server, device)
    try:
        box = page.get_by_test_id(f"house-{key}")
        box.check()
        page.get_by_test_id("edition-all_wild").click()
        expect(box).not_to_be_checked()
        expect(box).to_be_disabled()
        expect(page.get_by_test_id(f"house-why-{key}")).to_have_text("Not in All Wild")
        page.get_by_test_id(f"house-option-{key}").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"house-form-all_wild-{device}.png"))
        page.get_by_test_id("edition-classic").click()
        expect(box).to_be_enabled()
        expect(page.get_by_test_id(f"house-why-{key}")).to_be_hidden()
        page.get_by_test_id("edition-all_wild").click()
        rules = created_rules(page, server)
        assert rules[key] is False
        expect(page.get_by_test_id("room-options").get_by_test_id("house-badges-none")).to_be_visible()
    finally:
        context.close()


@pytest.mark.slow
def test_the_schema_drives_the_form_and_the_server_still_decides__HX_1(browser: Browser,
                                                                      server: LiveServer) -> None:
    """Every option the server plays is offered, nothing else; a page whose schema is out of date
    (loaded before the server changed) still shows the server's own bad_house_rules refusal."""
    context, page = open_home(browser, server, LAPTOP)
    try:
        offered = set(page.locator(".house-option").evaluate_all("els => els.map((e) => e.dataset.key)"))
        assert offered == set(PLAYABLE)
        for family in ("room", "stacking"):
            expect(page.get_by_test_id(f"house-family-{family}")).to_be_visible()
        for preset, values in PRESETS.items():  # HR-34: a preset the server cannot play yet cannot be picked
            playable = all(k in PLAYABLE for k, v in values.items() if v != house.DEFAULTS[k])
            assert page.locator(f"[data-testid=house-preset] option[value={preset}]").is_disabled() is not playable
    finally:
        context.close()
    missing = sorted(k for k in house.CHOICES if k not in PLAYABLE and house.CHOICES[k] == (False, True)
                     and not any(n == k for n, _ in house.NEEDS))
    if not missing:
        return  # the engine plays everything: no option is left to refuse
    context = browser.new_context(locale="en-GB", **DEVICES[LAPTOP])
    try:
        page = context.new_page()

        def stale(route: Any) -> None:  # the real schema, but claiming an option the server does not play
            body = route.fetch().json()
            for family in body["families"]:
                for option in family["options"]:
                    option["available"] = option["available"] or option["key"] == missing[0]
            route.fulfill(json=body)

        page.route("**/api/house-rules", stale)
        page.goto(f"{server.http}/")
        page.get_by_test_id("create-more").click()
        page.get_by_test_id(f"house-{missing[0]}").check()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-submit").click()
        # The refusal names the option (its params), in the reader's words.
        expect(page.get_by_test_id("create-error")).to_have_text(
            f"The house rule “{CATALOGUE_EN[f'house.name.{missing[0]}']}” cannot be used like this here.")
        assert "/r/" not in page.url
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl"])
def test_each_rules_page_lists_the_house_rules_and_marks_a_rooms__HR_34(browser: Browser, server: LiveServer,
                                                                       artifacts: Path, lang: str) -> None:
    catalogue = json.loads((Path(__file__).resolve().parents[2] / f"static/i18n/{lang}.json").read_text())
    r = httpx.post(f"{server.http}/api/rooms", json={"variant": "classic", "max_seats": 4,
                                                     "house_rules": {"preset": "party", "jump_in": False}})
    code = r.json()["code"]
    context = browser.new_context(locale="en-GB", **DEVICES[PHONE])
    try:
        page = context.new_page()
        page.goto(f"{server.http}/rules/pocket_pizza?lang={lang}")
        items = page.get_by_test_id("rules-house").locator("li")
        keys = items.evaluate_all("els => els.map((e) => e.dataset.option)")
        assert set(keys) == set(PLAYABLE) and len(keys) == len(PLAYABLE)
        for i, key in enumerate(keys):
            text = items.nth(i).inner_text()
            assert catalogue[f"house.name.{key}"] in text and catalogue[f"house.about.{key}"] in text, text
        expect(page.get_by_test_id("rules-house-on").first).to_be_hidden()
        # Opened from a room: the rules it plays are marked, and only those.
        page.goto(f"{server.http}/rules/classic?room={code}&lang={lang}")
        on = page.locator("[data-testid=rules-house] li.is-on")
        expect(on).to_have_count(3)
        assert set(on.evaluate_all("els => els.map((e) => e.dataset.option)")) == {"stacking", "seven_o",
                                                                                   "draw_until_playable"}
        expect(on.first.get_by_test_id("rules-house-on")).to_have_text(catalogue["rules.house.on"])
        on.first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"house-rules-page-{lang}.png"))
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_the_table_names_every_rule_that_is_on__HR_2_HR_16(browser: Browser, server: LiveServer, artifacts: Path,
                                                           device: str) -> None:
    rules = {"preset": "party", "cross_stack": "both", "uno_penalty": 4}
    code = new_room(server, "classic", 2, house_rules=rules)
    host = take_seat(server, code, "Ana")
    page = open_seat(browser, server, code, host, device)
    try:
        options = page.get_by_test_id("room-options")
        expect(options.get_by_test_id("house-chip-preset")).to_have_text("Party + 2 changes")
        expect(options.get_by_test_id("house-chip")).to_have_text(
            ["Stacking", "Seven-O", "Jump-In", "Draw until playable", "Cross-stack: Both ways", "Catch penalty: +4"])
        add_bots(server, code, host, 1)
        expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(2)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()
        head = page.get_by_test_id("table-options")
        expect(head).to_contain_text("Cross-stack: Both ways")
        expect(head).to_contain_text("Catch penalty: +4")
        # Details on a tap: the side panel's labels open to what each rule does (the phone's drawer
        # shows them), and the head's Rules button opens the rules with this room's rules first.
        side = page.get_by_test_id("side-options")
        expect(side.get_by_test_id("house-chip")).to_have_count(6)
        expect(side.locator("dd[data-key=cross_stack]")).to_have_count(1)
        page.screenshot(path=str(artifacts / f"house-table-{device}.png"))
        page.get_by_test_id("rules-toggle").click()
        house = page.get_by_test_id("rules-sheet-house")
        expect(house.locator("dt")).to_have_text(
            ["Stacking", "Seven-O", "Jump-In", "Draw until playable", "Cross-stack: Both ways", "Catch penalty: +4"])
        expect(page.get_by_test_id("rules-sheet-full")).to_have_attribute("href", f"/rules/classic?room={code}")
        page.get_by_test_id("rules-sheet-close").click()
        expect(page.get_by_test_id("rules-sheet")).to_be_hidden()
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
