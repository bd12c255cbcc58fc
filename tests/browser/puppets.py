"""Browser scenarios on a known deal: the room's first secret chosen by the test, the other
seats played over the protocol by the test itself ("puppets"), so a page can be brought to
one exact decision — a challenge, a stack, a Seven-O 7 — and its words checked."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import jsonpatch
import pytest
from playwright.sync_api import Page
from websockets.sync.client import ClientConnection, connect

import app.rooms.play
from app.engine import MatchConfig, new_match
from app.engine.action_json import action_from_json
from app.engine.house import HouseRules
from app.engine.match import ROUND, Match, apply, legal_actions
from app.engine.round import Round
from tests.live import LiveServer

Pick = Callable[[list[dict[str, Any]], dict[str, Any]], dict[str, Any] | None]


def find_seed(edition: str, seats: int, house: HouseRules, fits: Callable[[Round], bool]) -> str:
    """A round-1 secret whose deal fits (searched with the engine, as the room will deal it)."""
    return find_match_seed(edition, seats, house, lambda match: fits(match.round))


def find_match_seed(edition: str, seats: int, house: HouseRules, fits: Callable[[Match], bool]) -> str:
    """A match secret for which ``fits`` (which may play the new match on) holds."""
    for i in range(5000):
        seed = f"{i:032x}"
        match, _ = new_match(MatchConfig(edition, seats, None, house), seed)
        if fits(match):
            return seed
    raise AssertionError("no deal fits")


def opens_on_a_number(rnd: Round) -> bool:
    """A deal where seat 0 plays first on a number card: a plain turn, drawing allowed (C-6)."""
    top = rnd.variant.card_json[rnd.discard[-1]]
    return rnd.pending is not None and rnd.pending.seat == 0 and rnd.pending.kind == "turn" and top["face"].isdigit()


# The page's hand order (static/js/cards.js, sortHand): by colour, wilds last, then by face, then id.
PAGE_COLOURS = ("red", "yellow", "green", "blue")
PAGE_FACES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "draw1", "draw2", "skip", "reverse")


def page_order(rnd: Round, cid: int) -> tuple[int, int, int]:
    c = rnd.variant.card_json[cid]
    colour = PAGE_COLOURS.index(c["colour"]) if c["colour"] in PAGE_COLOURS else 9
    return colour, PAGE_FACES.index(c["face"]) if c["face"] in PAGE_FACES else len(PAGE_FACES), cid


def plays_down_to_one(match: Match, moves: int = 40) -> bool:
    """Round 1 played as a page test plays it — Ana (seat 0) taps her first playable card in the
    page's order, the other seats play ``fallback`` (they draw and keep) — brings Ana to one card
    within ``moves`` actions, and each of her plays is a coloured card played at once: she never
    draws, picks a colour or answers any other decision on the way."""
    for _ in range(moves):
        rnd = match.round
        if match.phase != ROUND or rnd.pending is None:
            return False
        seat, kind = rnd.pending.seat, rnd.pending.kind
        legal = [a.to_json() for a in legal_actions(match, seat) if not a.uno]
        if seat != 0:
            pick = fallback(legal)
            if pick is None:
                return False
            apply(match, seat, action_from_json(pick))
            continue
        plays = [a for a in legal if a["kind"] == "play" and not a.get("more")]
        if kind != "turn" or not plays:
            return False
        cid = min((a["card"] for a in plays), key=lambda c: page_order(rnd, c))
        variants = [a for a in plays if a["card"] == cid]
        if card(rnd, cid)["colour"] is None or len(variants) != 1:
            return False  # a wild's colour, or a choice among plays: a decision box
        apply(match, 0, action_from_json(variants[0]))
        if len(match.round.hands[0]) == 1:
            return True
    return False


def deal_with(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """The next match the server starts is dealt from ``seed`` (other secrets stay random)."""

    class Fixed:
        @staticmethod
        def token_hex(n: int) -> str:
            return seed if n == 16 else secrets.token_hex(n)

    monkeypatch.setattr(app.rooms.play, "secrets", Fixed)


def card(rnd: Round, cid: int) -> dict[str, Any]:
    return rnd.variant.card_json[cid]


class Puppet:
    """A seat played by the test over the protocol: it keeps its view and plays what ``pick`` says."""

    def __init__(self, server: LiveServer, code: str, name: str) -> None:
        r = httpx.post(f"{server.http}/api/rooms/{code}/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        self.seat: int = body["seat"]
        self.stack = ExitStack()
        url = f"{server.ws}/ws/rooms/{code}?token={body['token']}"
        self.ws: ClientConnection = self.stack.enter_context(connect(url))
        self.view: dict[str, Any] = {}
        self.sent = ""
        self.count = 0
        self.pump(0.5)

    def pump(self, wait: float = 0.02) -> None:
        while True:
            try:
                frame = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return
            if frame["type"] == "snapshot":
                self.view = frame["view"]
            elif frame["type"] == "patch":
                self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            wait = 0.005

    def move(self, pick: Pick) -> None:
        """Play once per decision owed: ``pick``'s action, else keep, draw or accept."""
        game = self.view.get("game")
        if not game or self.view["room"]["status"] != "playing":
            return
        table: dict[str, Any] = game["table"]
        pending = table["pending"]
        if not pending or pending["seat"] != self.seat:
            return
        key = json.dumps([pending, len(table["hand"]), table["draw_pile"], table["top"]])
        if key == self.sent:
            return
        legal = [a for a in table["legal"] if not a.get("uno")]
        action = pick(legal, table) or fallback(legal)
        if action is None:
            return
        self.sent = key
        self.count += 1
        self.ws.send(json.dumps({"type": "action", "id": f"p{self.count}", "action": action}))

    def close(self) -> None:
        self.stack.close()


FALLBACK = ("keep", "draw", "accept", "play_drawn", "play", "choose_colour", "choose_target")


def fallback(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What a puppet does when its pick has nothing: keep, draw or accept, else play, else the
    first colour or target a decision asks for (a wild first card's colour, CL-2)."""
    return next((a for k in FALLBACK for a in legal if a["kind"] == k), None)


def nothing(legal: list[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any] | None:
    return None


def plays_face(face: str, colour: str | None = None) -> Pick:
    """Play a card of this face whenever one is legal (with ``colour`` for a wild)."""

    def pick(legal: list[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any] | None:
        faces = {c["id"]: c["face"] for c in table["hand"]}
        for a in legal:
            if a["kind"] == "play" and faces.get(a.get("card")) == face and a.get("colour") in (None, colour):
                return a
        return None

    return pick


def drive(page: Page, puppets: list[tuple[Puppet, Pick]], done: Callable[[], bool],
          ana: Callable[[Page], bool] | None = None, seconds: float = 40) -> None:
    """Until ``done()``: the puppets play, and Ana (the page) does ``ana`` or else draws and keeps."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the scenario did not come about"
        for p, pick in puppets:
            p.pump()
            p.move(pick)
        if ana is not None and ana(page):
            continue
        keep = page.locator("[data-testid=dialog]:not([hidden]) [data-option=keep]")
        draw = page.get_by_test_id("draw-button")
        if keep.count():
            keep.click()
        elif page.get_by_test_id("table").get_attribute("data-my-turn") == "true" and draw.is_enabled():
            draw.click()
        time.sleep(0.05)


def against_a_bot(page: Page, http: str) -> None:
    """Ana opens a classic room from the home page, adds one bot and starts."""
    page.goto(http + "/?lang=en")
    page.get_by_test_id("edition-classic").click()
    page.get_by_test_id("create-name").fill("Ana")
    page.get_by_test_id("create-seats").select_option("2")
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/r/*")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start-button").click()
