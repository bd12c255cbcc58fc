"""Bad input gets a typed error frame (code + message), never a traceback, and the room lives on."""

from __future__ import annotations

import asyncio
import json

from tests.live import LiveServer, create_room, pending_client, seat_players, start_game


def test_bad_frames_get_typed_errors_and_the_room_survives(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 2, target=None)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        c = clients[0]
        assert c.ws is not None
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            (json.dumps({"type": "dance"}), "bad_message"),
            (json.dumps({"type": "action", "action": {"kind": "draw"}}), "bad_message"),  # no id
            (json.dumps({"type": "chat", "text": "hi", "extra": 1}), "bad_message"),
            (json.dumps({"type": "action", "id": "a1", "action": {"kind": "fly"}}), "bad_action"),
            (json.dumps({"type": "action", "id": "a2", "action": "draw"}), "bad_message"),
            (json.dumps({"type": "action", "id": "a3", "action": {"kind": "play", "card": -4}}), "bad_action"),
            (json.dumps({"type": "chat", "text": "x" * 5000}), "bad_message"),
            (json.dumps({"type": "chat", "text": "x" * 1000}), "bad_chat"),
            (json.dumps({"type": "chat", "text": "   "}), "bad_chat"),
            (json.dumps({"type": "rematch"}), "not_over"),
            (json.dumps({"type": "start"}), "already_started"),
            (json.dumps({"type": "leave"}), "in_game"),
            (b"\x00\xff binary", "bad_json"),
            # Ids are stored with what they did: short printable ASCII only (a NUL broke Postgres).
            (json.dumps({"type": "action", "id": "x\u0000", "action": {"kind": "draw"}}), "bad_id"),
            (json.dumps({"type": "chat", "id": "c\u202e", "text": "hi"}), "bad_id"),
            (json.dumps({"type": "ping", "id": "p" * 65}), "bad_id"),
            (json.dumps({"type": "ping", "id": 7}), "bad_id"),
        ]
        for raw, expected in cases:
            await c.ws.send(raw)
            while True:
                frame = await c.recv()
                if frame["type"] == "error":
                    break
            assert frame["code"] == expected, (raw[:60], frame)
            assert isinstance(frame["message"], str) and "Traceback" not in frame["message"]
        # Engine refusals come back as errors with the engine's code and words.
        waiting = next(x for x in clients if x is not pending_client(clients))
        err = await waiting.request({"type": "action", "action": {"kind": "draw"}})
        assert err["type"] == "error" and err["code"] == "not_your_turn" and "Waiting for" in err["message"]
        # ...and the room still works for everyone.
        pong = await c.request({"type": "ping"})
        assert pong["type"] == "pong"
        ok = await c.request({"type": "chat", "text": "  still   here "})
        assert ok["type"] == "ack"
        await clients[1].drain(0.1)
        assert clients[1].view["chat"][-1]["text"] == "still here"

    asyncio.run(main())
