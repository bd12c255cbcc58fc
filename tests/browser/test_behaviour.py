"""The client's behaviour in a real browser: languages, reconnect + resend, keyboard play."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, WebSocketRoute, expect

from app.engine.house import HouseRules
from app.engine.round import Round
from tests.browser.puppets import deal_with, find_seed, opens_on_a_number
from tests.live import LiveServer
from tests.waiting import eventually


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for c in made:
        c.close()


def open_page(browser: Browser, contexts: list[BrowserContext], locale: str = "en-GB") -> Page:
    context = browser.new_context(locale=locale, reduced_motion="reduce", viewport={"width": 900, "height": 900})
    contexts.append(context)
    return context.new_page()


def create_room(page: Page, server: LiveServer, name: str, edition: str = "classic", seats: int = 2) -> str:
    page.goto(server.http + "/")
    page.get_by_test_id(f"edition-{edition}").click()
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create-seats").select_option(str(seats))
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/r/*")
    return page.get_by_test_id("share-link").input_value()


def join(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-seat-button").click()
    expect(page.get_by_test_id("waiting-room")).to_be_visible()


def test_language_from_the_browser_and_the_switcher(browser: Browser, contexts: list[BrowserContext],
                                                    live_server: LiveServer) -> None:
    page = open_page(browser, contexts, locale="pl-PL")
    page.goto(live_server.http + "/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("h1")).to_have_text("Graj w UNO ze znajomymi")
    # The page is drawn by the server; the picker acts once the page's module has set it up.
    expect(page.get_by_test_id("lang-select")).to_have_attribute("data-live", "true")
    page.get_by_test_id("lang-select").select_option("sl")
    expect(page.locator("html")).to_have_attribute("lang", "sl")
    expect(page.locator("h1")).to_have_text("Igraj UNO s prijatelji")
    page.goto(live_server.http + "/lobby")  # remembered
    expect(page.locator("html")).to_have_attribute("lang", "sl")
    expect(page.get_by_test_id("lang-select")).to_have_attribute("data-live", "true")
    page.get_by_test_id("lang-select").select_option("gl")
    expect(page.get_by_test_id("lobby-status")).to_have_text("En directo")


def test_reconnects_resumes_and_resends_unacknowledged_messages(browser: Browser, contexts: list[BrowserContext],
                                                                live_server: LiveServer) -> None:
    host = open_page(browser, contexts)
    guest = open_page(browser, contexts)
    routes: list[WebSocketRoute] = []
    dropped: list[str | bytes] = []
    drop = {"on": False}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if drop["on"]:
                dropped.append(message)
            else:
                server.send(message)

        ws.on_message(from_page)
        routes.append(ws)

    guest.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)
    link = create_room(host, live_server, "Host")
    join(guest, link, "Guest")
    expect(host.locator("[data-testid=seat][data-seat]")).to_have_count(2)
    assert len(routes) == 1 and "last_seq" not in routes[0].url

    # A chat message leaves the page but never reaches the server; then the socket drops.
    drop["on"] = True
    guest.get_by_test_id("chat-input").fill("hello through the outage")
    guest.get_by_test_id("chat-send").click()
    for _ in range(250):
        if dropped:
            break
        guest.wait_for_timeout(20)
    assert len(dropped) == 1
    drop["on"] = False
    routes[0].close(code=3000, reason="network trouble")
    expect(guest.get_by_test_id("connection")).to_have_attribute("data-state", "reconnecting")

    # It comes back by itself, resuming from its last seq, and resends the message with its id.
    expect(guest.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    assert len(routes) == 2 and re.search(r"last_seq=\d+", routes[1].url)
    expect(host.get_by_test_id("chat-list")).to_contain_text("hello through the outage")
    expect(guest.get_by_test_id("chat-list")).to_contain_text("hello through the outage")
    expect(host.get_by_test_id("chat-list").locator("li")).to_have_count(1)


def test_keyboard_play_and_labels(browser: Browser, contexts: list[BrowserContext], live_server: LiveServer,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # The host (seat 0) opens on a number: a plain turn, whatever the random deal would have been.
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(), opens_on_a_number))
    host = open_page(browser, contexts)
    guest = open_page(browser, contexts)
    join(guest, create_room(host, live_server, "Kai"), "Lou")
    host.get_by_test_id("start-button").focus()
    host.keyboard.press("Enter")
    for page in (host, guest):
        expect(page.get_by_test_id("table")).to_be_visible()
    # A latecomer can only watch (and is told so first): the table without a hand, nothing to press.
    watcher = open_page(browser, contexts)
    watcher.goto(host.url)
    watcher.get_by_test_id("watch-offer-button").click()
    expect(watcher.get_by_test_id("status-line")).to_contain_text("You are watching")
    expect(watcher.locator("[data-testid=card]")).to_have_count(0)
    expect(watcher.get_by_test_id("uno-button")).to_be_disabled()
    expect(watcher.locator("[data-testid=opponent]")).to_have_count(2)
    page = host
    expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
    cards = page.locator("[data-testid=card]")
    assert cards.count() >= 7
    for label in cards.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        assert label and re.search(r"\w", label)
    before = int(page.get_by_test_id("table").get_attribute("data-hand-count") or 0)
    playable = page.locator("[data-testid=card][data-playable=true]")
    if playable.count():
        playable.first.focus()
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("d")
    # Something happened: the hand changed, or a decision is asked for (colour, drawn card...).
    eventually(lambda: page.evaluate(
        """(before) => {
            const t = document.querySelector('[data-testid=table]');
            const dialog = document.querySelector('[data-testid=dialog]:not([hidden])');
            return Boolean(dialog) || Number(t.dataset.handCount) !== before;
        }""", before), what="a change after the key press")
    dialog = page.locator("[data-testid=dialog]:not([hidden])")
    if dialog.count():
        # The first option has the focus: Enter answers it.
        expect(dialog.locator("[data-testid=dialog-option]").first).to_be_focused()
        page.keyboard.press("Enter")
        expect(dialog).to_have_count(0)


def test_lobby_lists_public_rooms_live_and_history_404_is_friendly(
        browser: Browser, contexts: list[BrowserContext], live_server: LiveServer) -> None:
    page = open_page(browser, contexts)
    page.goto(live_server.http + "/lobby")
    expect(page.get_by_test_id("lobby-status")).to_be_visible()
    with httpx.Client(base_url=live_server.http) as http:
        code = http.post("/api/rooms", json={"variant": "all_wild", "public": True, "max_seats": 3,
                                             "name": "Lobby <i>test</i>"}).json()["code"]
    room = page.locator(f"[data-testid=lobby-room][data-code='{code}']")
    expect(room).to_contain_text("Lobby <i>test</i>")  # shown as text, never as markup
    expect(room).to_contain_text("All Wild")
    room.get_by_role("link").click()
    expect(page.get_by_test_id("join-seat-form")).to_be_visible()
    page.goto(live_server.http + "/matches/no-such-match")
    expect(page.get_by_test_id("history-missing")).to_be_visible()


def test_name_inputs_cut_between_whole_characters(browser: Browser, contexts: list[BrowserContext],
                                                 live_server: LiveServer) -> None:
    family = "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # one emoji of 7 code points
    page = open_page(browser, contexts)
    held: list[Route] = []
    page.route("**/static/i18n/*.json", lambda route: held.append(route))  # the script waits for its words
    page.goto(live_server.http + "/")
    name = page.get_by_test_id("create-name")
    name.fill("a" * 20 + family)  # 27 code points, typed before the script took the form over
    while not held:
        page.wait_for_timeout(50)
    for route in held:
        route.continue_()
    page.unroute("**/static/i18n/*.json")
    expect(name).to_have_value("a" * 20)  # the family does not fit, and is not halved
    name.fill("a" * 20 + family)  # and typed once it has
    expect(name).to_have_value("a" * 20)
    name.fill("a" * 17 + family + "b")
    expect(name).to_have_value("a" * 17 + family)
    name.fill("Ana \U0001F600")
    expect(name).to_have_value("Ana \U0001F600")


def test_lobby_room_names_are_cleaned_and_isolated(browser: Browser, contexts: list[BrowserContext],
                                                   live_server: LiveServer) -> None:
    """A right-to-left override or a zero-width character in a room name never reaches the lobby,
    and right-to-left text in a name cannot reorder the line around it."""
    page = open_page(browser, contexts)
    page.goto(live_server.http + "/lobby")
    with httpx.Client(base_url=live_server.http) as http:
        code = http.post("/api/rooms", json={"variant": "classic", "public": True, "max_seats": 3,
                                             "name": "\u202eAna's\u200b \u2066table\u0007\u001b"}).json()["code"]
        http.post(f"/api/rooms/{code}/players", json={"name": "\u05e9\u05e8\u05d4"})
        http.post(f"/api/rooms/{code}/players", json={"name": "Bo"})
    room = page.locator(f"[data-testid=lobby-room][data-code='{code}']")
    name = room.get_by_test_id("lobby-room-name")
    expect(name).to_have_text("Ana's table")
    assert name.get_attribute("dir") == "auto"
    assert name.evaluate("el => getComputedStyle(el).unicodeBidi") == "isolate"
    # Waited for: the list may be up to a second older than the joins (UNO_LOBBY_CACHE_SECONDS).
    expect(room.locator(".room-players bdi")).to_have_text(["\u05e9\u05e8\u05d4", "Bo"])


def opens_with_a_wild_in_hand(rnd: Round) -> bool:
    """Seat 0 plays first on a number card and holds a plain Wild: its play asks for a colour."""
    return opens_on_a_number(rnd) and any(rnd.variant.card_json[c]["face"] == "wild" for c in rnd.hands[0])


def test_escape_closes_the_shortcuts_before_the_colour_choice_under_them(
        browser: Browser, contexts: list[BrowserContext], live_server: LiveServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player choosing a wild's colour opens the shortcuts ("?") to read them: Esc closes them and keeps the
    choice; a second Esc cancels the choice, and the wild stays in hand."""
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(), opens_with_a_wild_in_hand))
    host = open_page(browser, contexts)
    guest = open_page(browser, contexts)
    join(guest, create_room(host, live_server, "Kai"), "Lou")
    host.get_by_test_id("start-button").click()
    expect(host.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
    hand = host.get_by_test_id("table").get_attribute("data-hand-count")
    host.locator("[data-testid=card][data-face=wild]").first.click()
    choice = host.locator("[data-testid=dialog]:not([hidden])")
    expect(choice.locator("[data-testid=dialog-option]")).to_have_count(4)  # the four colours
    keys = host.get_by_test_id("keys-help")
    host.keyboard.press("?")
    expect(keys).to_be_visible()
    host.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    expect(choice.locator("[data-testid=dialog-option]")).to_have_count(4)
    host.keyboard.press("Escape")
    expect(choice).to_have_count(0)
    # Nothing was played: the same hand, still this player's turn.
    expect(host.get_by_test_id("table")).to_have_attribute("data-hand-count", hand or "")
    expect(host.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
