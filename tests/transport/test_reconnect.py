"""Reconnecting resumes the same view; action ids make resends safe; one socket per seat."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from app.rooms.room_views import view_for
from tests.live import (
    Client,
    LiveServer,
    choose,
    create_room,
    pending_client,
    puppet_step,
    seat_players,
    start_game,
    sync,
)


async def table(server: LiveServer, edition: str = "classic", seats: int = 3) -> list[Client]:
    code = await create_room(server, edition, seats, target=None)
    clients = await seat_players(server, code, seats)
    await start_game(clients)
    return clients


def server_view(server: LiveServer, c: Client) -> dict[str, Any]:
    view: dict[str, Any] = view_for(server.registry.get(c.code).state, c.seat)
    return view


async def act_while_away(clients: list[Client], away: Client, rng: random.Random, steps: int) -> int:
    """Others play on (never past the away seat's own turn)."""
    done = 0
    others = [c for c in clients if c is not away]  # the away client's view is stale: ask the others
    for _ in range(steps):
        if pending_client(others) is None:
            break
        await puppet_step(others, rng)
        done += 1
    return done


def test_reconnect_mid_round_replays_missed_patches(server: LiveServer) -> None:
    async def main() -> None:
        rng = random.Random(3)
        clients = await table(server)
        for _ in range(4):
            await puppet_step(clients, rng)
        away = next(c for c in clients if c is not pending_client(clients))
        seq_before = away.seq
        await away.close()
        moved = await act_while_away(clients, away, rng, 3)
        assert moved >= 1
        # Everyone else sees the seat as away.
        other = next(c for c in clients if c is not away)
        assert not other.view["players"][away.seat]["connected"]
        await away.connect(last_seq=seq_before)
        first = await away.recv()
        assert first["type"] == "patch" and first["seq"] == seq_before + 1  # no snapshot needed
        await sync(clients)
        assert away.view == server_view(server, away)
        assert away.view["players"][away.seat]["connected"]

    asyncio.run(main())


def test_reconnect_replays_frames_lost_in_flight_from_the_buffer(server: LiveServer) -> None:
    async def main() -> None:
        rng = random.Random(4)
        clients = await table(server)
        c = clients[1]
        for _ in range(2):
            await puppet_step(clients, rng)
        stale_view, stale_seq = copy.deepcopy(c.view), c.seq
        for _ in range(5):
            await puppet_step(clients, rng)
        assert c.seq > stale_seq + 1
        await c.close()
        # Pretend the frames after stale_seq never arrived.
        c.view, c.seq = stale_view, stale_seq
        await c.connect(last_seq=stale_seq)
        await sync([c])
        assert c.view == server_view(server, c)
        assert all(f["type"] != "snapshot" for f in map(__import__("json").loads, c.frames[-8:]))

    asyncio.run(main())


@pytest.mark.slow
def test_a_client_that_missed_more_than_the_replay_budget_gets_a_snapshot(server: LiveServer) -> None:
    """The replay buffer is bounded in characters too: past it, a snapshot is no bigger than the replay."""

    async def main() -> None:
        rng = random.Random(5)
        clients = await table(server)
        server.settings.replay_chars = budget = 3000  # a few frames: reached well before the round ends
        c = clients[1]
        stale_view, stale_seq = copy.deepcopy(c.view), c.seq
        stream = server.registry.get(c.code).streams.seats[next(p.token_hash for p in server.registry.get(c.code)
                                                          .state.players if p.seat == c.seat)]
        while sum(len(t) for s, t in stream.buffer if s > stale_seq) <= budget and pending_client(clients):
            await puppet_step(clients, rng)
        assert stream.buffered == sum(len(t) for _, t in stream.buffer)
        assert stream.buffered <= budget or len(stream.buffer) == 1  # the newest frame is always kept
        assert stream.buffer[0][0] > stale_seq + 1  # the frames right after stale_seq are gone
        await c.close()
        c.view, c.seq = stale_view, stale_seq
        await c.connect(last_seq=stale_seq)
        first = await c.recv()
        assert first["type"] == "snapshot"
        await sync([c])
        assert c.view == server_view(server, c)

    default = server.settings.replay_chars
    try:
        asyncio.run(main())
    finally:
        server.settings.replay_chars = default


@pytest.mark.parametrize("last_seq", [None, 0, 10**9])
def test_reconnect_without_a_usable_seq_gets_a_fresh_snapshot(server: LiveServer, last_seq: int | None) -> None:
    async def main() -> None:
        rng = random.Random(5)
        clients = await table(server, "mario_kart")
        for _ in range(3):
            await puppet_step(clients, rng)
        c = clients[0]
        await c.close()
        c.view = None
        await c.connect(last_seq=last_seq)
        frame = await c.recv()
        assert frame["type"] == "snapshot"
        assert c.view == server_view(server, c)

    asyncio.run(main())


def test_duplicate_action_id_is_applied_once_and_answered_again(server: LiveServer) -> None:
    async def main() -> None:
        clients = await table(server, "pocket_pizza")
        c = pending_client(clients)
        assert c is not None
        reg = server.registry.get(c.code)
        move = next(a for a in c.game["table"]["legal"] if a["kind"] not in ("declare_uno", "catch"))
        msg = {"type": "action", "id": "dup-1", "action": move}
        first = await c.request(msg)
        log_len = len(reg.state.match.log)
        assert first["type"] == "ack"
        again = await c.request(msg)
        assert again == first
        assert len(reg.state.match.log) == log_len
        # After a reconnect, a client resends what it is unsure of: still applied once.
        await c.close()
        await c.connect(last_seq=c.seq)
        again = await c.request(msg)
        assert again == first and len(reg.state.match.log) == log_len
        # An id that was refused is refused again, with the same answer.
        bad = {"type": "action", "id": "dup-2", "action": {"kind": "catch", "target": c.seat}}
        e1 = await c.request(bad)
        e2 = await c.request(bad)
        assert e1["type"] == "error" and e1 == e2
        await sync(clients)
        for x in clients:
            assert x.view == server_view(server, x)

    asyncio.run(main())


def test_second_connection_with_the_same_token_replaces_the_first(server: LiveServer) -> None:
    async def main() -> None:
        clients = await table(server)
        old = clients[2]
        new = Client(server, old.code, old.token, old.seat)
        await new.connect(header=True)  # the Authorization: Bearer form
        snap = await new.recv()
        assert snap["type"] == "snapshot" and snap["view"]["you"] == old.seat
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await old.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4000
        await sync([*clients[:2], new])
        assert new.view == server_view(server, new)
        assert new.view["players"][old.seat]["connected"]

    asyncio.run(main())


def test_bad_token_is_refused_and_no_token_is_a_spectator(server: LiveServer) -> None:
    async def main() -> None:
        clients = await table(server)
        bad = Client(server, clients[0].code, "not-a-token", 0)
        await bad.connect()
        frame = await bad.recv()
        assert frame["type"] == "error" and frame["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as info:
            await bad.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4401
        watcher = Client(server, clients[0].code)
        await watcher.connect()
        snap = await watcher.recv()
        assert snap["view"]["you"] is None and "hand" not in snap["view"]["game"]["table"]
        err = await watcher.request({"type": "action", "action": {"kind": "draw"}})
        assert err["code"] == "spectator"
        nowhere = Client(server, "ZZZZZZZZ")
        await nowhere.connect()
        with pytest.raises(ConnectionClosed) as info:
            await nowhere.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4404

    asyncio.run(main())


async def chaos_bot(client: Client, rng: random.Random, acked: set[str]) -> int:
    """A random player whose connection keeps dropping: sometimes cleanly, sometimes losing
    the last frames it was sent; after each reconnect it resends its last action with the
    same id, which must be answered exactly as before and never applied again."""
    saved: tuple[int, Any] | None = None
    last: tuple[dict[str, Any], dict[str, Any]] | None = None
    reconnects = 0
    while client.status != "over":
        if rng.random() < 0.04:
            await client.close()
            if saved is not None and rng.random() < 0.5:
                # The frames after this were lost (a copy: patches are applied in place).
                client.seq, client.view = saved[0], copy.deepcopy(saved[1])
            await client.connect(last_seq=client.seq)
            reconnects += 1
            if last is not None:
                again = await client.request(last[0])
                assert again == last[1], (again, last[1])
            continue
        if rng.random() < 0.2:
            saved = (client.seq, copy.deepcopy(client.view))
        action = choose(client, rng, 0.3)
        if action is None:
            if client.status == "between" and not client.view["players"][client.seat]["ready"]:
                await client.request({"type": "ready"})
            else:
                await client.recv(20)
            continue
        cid = client.new_id()
        msg = {"type": "action", "id": cid, "action": action}
        reply = await client.request(msg)
        if reply["type"] == "ack":
            acked.add(cid)
        last = (msg, reply)
    return reconnects


@pytest.mark.slow
def test_random_games_with_dropping_connections_stay_in_sync_and_apply_each_action_once(
        server: LiveServer) -> None:
    async def game(n: int) -> int:
        edition = ("classic", "mario_kart", "all_wild", "pocket_pizza")[n % 4]
        code = await create_room(server, edition, 3, target=1)
        clients = await seat_players(server, code, 3)
        await start_game(clients)
        acked: set[str] = set()
        reconnects = await asyncio.gather(*(chaos_bot(c, random.Random(f"{n}/{c.seat}"), acked) for c in clients))
        for c in clients:
            await c.drain(0.05)
            assert c.view == server_view(server, c)
            assert all(server.audit.sent_to(code, c.seat, text) for text in c.frames)  # replays included
        match = server.registry.get(code).state.match
        assert len(match.log) == len(acked)  # every acknowledged action applied exactly once
        return sum(reconnects)

    async def main() -> list[int]:
        return await asyncio.gather(*(game(n) for n in range(8)))

    assert sum(asyncio.run(main())) >= 10
    assert server.audit.violations == []
