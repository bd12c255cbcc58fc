"""One definition each: of a well-formed action, of a sliding-window rate, of a chat line's bounds.

Each used to exist twice, and the copies disagreed: the socket's action model and the engine's
parser had different bounds, the WebSocket and HTTP limiters were two classes, and a spectator's
over-long chat line was refused without the ``max`` a seat's refusal carries.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from app.engine import IllegalAction, action_from_json
from app.engine.action_json import MAX_CARD_ID, MAX_SEATS
from app.rates import SlidingWindow
from app.transport.limits import SeatRates
from app.transport.messages import BadMessage, parse
from app.web.limits import Window
from tests.live import Client, LiveServer, seat_players

ACTIONS: list[object] = [
    {"kind": "play", "card": 3}, {"kind": "play", "card": 0, "colour": "red", "uno": True}, {"kind": "draw"},
    {"kind": "choose_target", "target": MAX_SEATS - 1}, {"kind": "play", "card": MAX_CARD_ID - 1},
    {"kind": "fly"}, {"kind": "play", "card": -4}, {"kind": "play", "card": MAX_CARD_ID},
    {"kind": "play", "card": True}, {"kind": "play", "card": 2.0}, {"kind": "choose_colour", "colour": "purple"},
    {"kind": "choose_colour", "colour": 7}, {"kind": "declare_uno", "uno": "yes"}, {"kind": "draw", "why": 1},
    {"kind": "catch", "target": MAX_SEATS}, {"card": 3}, {},
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: json.dumps(a))
def test_the_socket_accepts_exactly_the_actions_the_engine_does(action: object) -> None:
    try:
        engine = action_from_json(action)
    except IllegalAction as err:
        with pytest.raises(BadMessage) as refused:
            parse(json.dumps({"type": "action", "id": "a1", "action": action}), 8192)
        assert (refused.value.code, refused.value.message) == ("bad_action", err.message)
        return
    command = parse(json.dumps({"type": "action", "id": "a1", "action": action}), 8192)
    assert command.action == engine  # type: ignore[union-attr]


def test_one_sliding_window_below_the_app_and_in_it() -> None:
    """A seat's message rate and an address's request rate are the same limiter, counting alike."""
    seat = SeatRates(3, 10.0).for_seat("token")
    now = [0.0]
    address = Window(3, 10.0, clock=lambda: now[0])
    assert isinstance(seat, SlidingWindow) and isinstance(address.seen.of("a"), SlidingWindow)
    for t in (0, 1, 2, 3, 9.9, 10.0, 10.5, 11.0):
        now[0] = t
        assert seat.allow(t) == (address.hit("a") == 0), t
    assert not SlidingWindow(0, 5.0).allow(0.0) and address.seen.limit == 3


def test_a_spectators_long_chat_line_is_refused_as_a_seats_is(server: LiveServer) -> None:
    async def main() -> tuple[dict[str, object], dict[str, object]]:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "spectator_chat": True})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
        ann, bo = await seat_players(server, code, 2)
        eve = Client(server, code)
        await eve.connect()
        text = "x" * (server.settings.chat_max_chars + 1)
        try:
            seated = await ann.request({"type": "chat", "text": text})
            watching = await eve.request({"type": "chat", "text": text})
        finally:
            for c in (ann, bo, eve):
                await c.close()
        return seated, watching

    seated, watching = asyncio.run(main())
    assert seated["code"] == watching["code"] == "bad_chat", (seated, watching)
    assert seated["message"] == watching["message"]
    assert seated["params"] == watching["params"] == {"max": server.settings.chat_max_chars}
