"""Three nodes behind nginx, and the worst an operator's week can bring, cycle after cycle.

Rooms of bots and people play through nginx the whole time.  Each seeded cycle kills the
busiest node with SIGKILL mid-round, pauses another with SIGSTOP for 8 s and resumes it, and
stops the third with SIGTERM and starts it again.  After each event:

- every acknowledged action is stored exactly once, under the epoch of the node that
  acknowledged it or an earlier one (a resend answered by the next owner): no ack ever came
  from a node that had lost the room;
- epochs never go backwards in a room's action log;
- the lobby lists each waiting room once;
- no client was ever given a close code that means "give up";
- the paused node's sockets were closed within a second of its waking, when their rooms
  had been taken over.

Every fourth cycle, and after the last, every seat's patched view equals the view rebuilt from
the database.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.config import Settings
from app.persistence.db import create_engine
from app.persistence.store import SqlStore
from app.rooms.restore import restore_state
from app.rooms.room_views import view_for
from bench.nodes import LocalCluster
from tests.live import Client, choose

CYCLES = int(os.environ.get("UNO_CLUSTER_CYCLES", "20"))
PLAYING_ROOMS = 6
WAITING_ROOMS = 3
# Close codes after which a browser would stop trying: none may ever reach a client here.
FATAL = {4000, 4401, 4403, 4404, 4410, 4429}

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("nginx")]


class Through:
    """What tests.live.Client needs of a server: addresses (nginx's) and no in-process audit."""

    audits_views = False

    def __init__(self, cluster: LocalCluster) -> None:
        self.http, self.ws = cluster.http, cluster.ws


@dataclass
class Human:
    """A player's browser: plays on its turn, reconnects and resends after any close."""

    client: Client
    rng: random.Random
    acting: bool = True
    node: str | None = None
    epoch: int | None = None
    acks: list[tuple[str, str, int]] = field(default_factory=list)  # (client id, node, epoch)
    closes: list[tuple[int, str | None, float]] = field(default_factory=list)  # (code, node, when)
    quiet_since: float = 0.0

    async def connect(self) -> None:
        while True:
            try:
                await self.client.connect()
                ws = self.client.ws
                assert ws is not None and ws.response is not None
                self.node = ws.response.headers.get("x-uno-node")
                self.epoch = int(ws.response.headers.get("x-uno-epoch", "0"))
                await self.client.recv()
                return
            except (OSError, InvalidStatus, ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.2)

    async def run(self) -> None:
        pending: dict[str, Any] | None = None
        while True:
            try:
                if pending is not None:
                    await self.client.send(pending)
                    reply = await self.client.until_reply(pending["id"], 30)
                    if reply["type"] == "ack" and pending["type"] == "action":
                        self.acks.append((pending["id"], self.node or "", self.epoch or 0))
                    pending = None
                    continue
                action = choose(self.client, self.rng, uno_chatter=0.1) if self.acting else None
                if action is not None:
                    pending = {"type": "action", "action": action, "id": f"{self.client.code}-{self.client.new_id()}"}
                    continue
                if self.acting and self.client.status == "over":  # the bots won: play again
                    pending = {"type": "rematch", "id": f"{self.client.code}-{self.client.new_id()}"}
                    continue
                if self.acting and self.client.status == "between" and not any(
                        p["ready"] for p in self.client.view["players"] if p["seat"] == self.client.seat):
                    pending = {"type": "ready", "id": f"{self.client.code}-{self.client.new_id()}"}
                    continue
                try:
                    await self.client.recv(0.5)
                    self.quiet_since = time.monotonic()
                except TimeoutError:
                    pass
            except ConnectionClosed as err:
                code = err.rcvd.code if err.rcvd is not None else 1006
                self.closes.append((code, self.node, time.monotonic()))
                if code in FATAL:
                    return
                await asyncio.sleep(0.1)
                await self.connect()  # then the unanswered message is sent again, same id


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _open_rooms(cluster: LocalCluster, rng: random.Random) -> tuple[list[Human], list[str]]:
    server = Through(cluster)
    humans = []
    waiting = []
    async with httpx.AsyncClient(base_url=cluster.http, timeout=10) as http:
        for i in range(PLAYING_ROOMS):
            variant = ["classic", "mario_kart", "all_wild", "pocket_pizza"][i % 4]
            r = await http.post("/api/rooms", json={"variant": variant, "max_seats": 3, "public": False})
            code = r.json()["code"]
            seat = (await http.post(f"/api/rooms/{code}/players", json={"name": f"Human{i}"})).json()
            for _ in range(2):
                r = await http.post(f"/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {seat['token']}"})
                assert r.status_code == 201, r.text
            human = Human(Client(server, code, seat["token"], seat["seat"]), random.Random(rng.random()))  # type: ignore[arg-type]
            humans.append(human)
        for i in range(WAITING_ROOMS):
            r = await http.post("/api/rooms", json={"variant": "classic", "public": True, "name": f"Waiting {i}"})
            code = r.json()["code"]
            await http.post(f"/api/rooms/{code}/players", json={"name": f"Early{i}"})
            waiting.append(code)
    return humans, waiting


async def _start(humans: list[Human]) -> None:
    for h in humans:
        await h.connect()
        reply = await h.client.request({"type": "start"})
        assert reply["type"] == "ack", reply


async def _owners(conn: asyncpg.Connection) -> Counter[str]:
    rows = await conn.fetch("SELECT owner FROM rooms WHERE status != 'closed' AND owner IS NOT NULL")
    return Counter(r["owner"] for r in rows)


async def _until(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if await check():
            return
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        await asyncio.sleep(0.2)


async def _check_store(conn: asyncpg.Connection, humans: list[Human], cluster: LocalCluster,
                       waiting: list[str]) -> None:
    # Every acknowledged action stored exactly once, under the acknowledging node's epoch.
    acked = {cid: (node, epoch) for h in humans for cid, node, epoch in h.acks}
    rows = await conn.fetch("SELECT client_id, epoch FROM actions WHERE client_id = ANY($1::text[])", list(acked))
    stored = Counter(r["client_id"] for r in rows)
    assert set(stored) == set(acked), f"acknowledged but not stored: {sorted(set(acked) - set(stored))[:5]}"
    assert max(stored.values(), default=1) == 1, "an action was stored twice"
    # Acknowledged by the node that stored it, or — a resend after the storing node died — by a
    # later owner answering from the stored ids; never by a node whose epoch had already passed.
    for r in rows:
        assert r["epoch"] <= acked[r["client_id"]][1], \
            f"{r['client_id']} was acknowledged at epoch {acked[r['client_id']][1]} but stored at {r['epoch']}"
    # Chat and ready messages are acknowledged too: exactly once in their own tables, if any.
    # Epochs never go backwards in a room's log.
    logs = await conn.fetch("SELECT room_code, match_id, seq, epoch FROM actions ORDER BY match_id, seq")
    last: dict[str, int] = {}
    for r in logs:
        assert r["epoch"] is not None, "an action stored without its epoch"
        assert r["epoch"] >= last.get(r["match_id"], 0), f"epoch went backwards in {r['room_code']} at {r['seq']}"
        last[r["match_id"]] = r["epoch"]
    # No client was told to give up.
    for h in humans:
        assert not [c for c, _, _ in h.closes if c in FATAL], f"fatal close codes: {h.closes}"

    # The lobby, through nginx, lists each waiting room once.
    async def listed() -> bool:
        async with httpx.AsyncClient(base_url=cluster.http, timeout=5) as http:
            r = await http.get("/api/rooms", params={"limit": 100})
        if r.status_code != 200:
            return False
        codes = [room["code"] for room in r.json()["rooms"]]
        assert len(codes) == len(set(codes)), f"a room listed twice: {codes}"
        return set(waiting) <= set(codes)
    await _until(listed, 15, "the lobby lists every waiting room")


async def _everyone_served(conn: asyncpg.Connection, cluster: LocalCluster, alive: set[int]) -> None:
    live = {cluster.node_id(i) for i in alive}

    async def served() -> bool:
        owners = await _owners(conn)
        orphans = await conn.fetchval("SELECT count(*) FROM rooms WHERE status != 'closed' AND owner IS NULL")
        return orphans == 0 and set(owners) <= live
    await _until(served, 20, "every room has a live owner")


async def _progress(humans: list[Human], timeout: float = 30) -> None:
    """Every human's room moves again: a frame arrives after now."""
    now = time.monotonic()

    def report() -> str:
        return "; ".join(f"{h.client.code} on {h.node} e{h.epoch} {h.client.status} last {now - h.quiet_since:.1f}s "
                         f"ago closes {[(c, n) for c, n, _ in h.closes[-3:]]}" for h in humans if h.quiet_since <= now)
    try:
        await _until(lambda: _true(all(h.quiet_since > now for h in humans)), timeout, "every room plays on")
    except AssertionError:
        raise AssertionError(f"rooms stalled: {report()}") from None


async def _true(value: bool) -> bool:
    return value


def _durable(view: dict[str, Any]) -> Any:
    return view["game"], [(p["seat"], p["name"]) for p in view["players"]]


async def _views_match_the_store(humans: list[Human], store: SqlStore, settings: Settings) -> None:
    """Quiet every room on its human's turn, then compare each patched view with the store's."""
    for h in humans:
        h.acting = False

    async def settled(h: Human) -> bool:
        view = h.client.view
        if view is None or (time.monotonic() - h.quiet_since < 1.5 and h.client.status == "playing"):
            return False
        table = (view.get("game") or {}).get("table") or {}
        pending = table.get("pending")
        return h.client.status != "playing" or (pending is not None and pending["seat"] == h.client.seat)

    try:
        for h in humans:
            await _until(lambda h=h: settled(h), 40, f"room {h.client.code} waits on its human")
            await asyncio.sleep(0.3)
            stored = await store.load_room(h.client.code)
            assert stored is not None
            rebuilt = view_for(restore_state(stored, settings), h.client.seat)
            assert _durable(h.client.view) == _durable(rebuilt), f"room {h.client.code}: view differs from the store"
    finally:
        for h in humans:
            h.acting = True


def test_nodes_die_pause_and_restart_and_nothing_acknowledged_is_lost(fresh_postgres_url: str) -> None:
    asyncio.run(_scenario(fresh_postgres_url))


def _mark(started: float, what: str) -> None:
    """A timeline on stdout (shown with -s, and with a failure's report)."""
    print(f"{time.monotonic() - started:7.1f}s {what}", flush=True)


async def _scenario(postgres_url: str) -> None:
    t0 = time.monotonic()
    rng = random.Random(20261130)
    cluster = LocalCluster(postgres_url, nodes=3, env={
        "UNO_BOT_DELAY_SCALE": "0.15", "UNO_BETWEEN_ROUNDS_SECONDS": "1", "UNO_AWAY_GRACE_SECONDS": "600"}).start()
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    store = SqlStore(create_engine(postgres_url))
    conn = await asyncpg.connect(_dsn(postgres_url))
    tasks: list[asyncio.Task[None]] = []
    try:
        humans, waiting = await _open_rooms(cluster, rng)
        await _start(humans)
        tasks = [asyncio.create_task(h.run()) for h in humans]
        await _progress(humans)
        alive = set(range(3))
        for cycle in range(CYCLES):
            # 1. SIGKILL the busiest node mid-round; its rooms come back on the others.
            owners = await _owners(conn)
            busiest = max(alive, key=lambda i: owners.get(cluster.node_id(i), 0))
            _mark(t0, f"cycle {cycle}: kill -9 node {busiest}")
            cluster.kill(busiest)
            alive.discard(busiest)
            await _everyone_served(conn, cluster, alive)
            await _progress(humans)
            await _check_store(conn, humans, cluster, waiting)
            cluster.start_node(busiest, wait=False)  # healthy by the time it is needed
            alive.add(busiest)

            # 2. SIGSTOP another for 8 s: its rooms are taken over, and on waking it serves
            #    none of them: its stale writes are refused and its sockets closed within 1 s.
            cluster.wait_healthy(busiest)
            paused = rng.choice(sorted(alive - {busiest}))
            on_paused = [h for h in humans if h.node == cluster.node_id(paused)]
            _mark(t0, f"cycle {cycle}: SIGSTOP node {paused}")
            cluster.pause(paused)
            await asyncio.sleep(8)
            woke = time.monotonic()
            cluster.resume(paused)
            await _everyone_served(conn, cluster, alive)
            moved = await conn.fetch("SELECT code FROM rooms WHERE owner != $1 AND code = ANY($2::text[])",
                                     cluster.node_id(paused), [h.client.code for h in on_paused])
            moved_codes = {r["code"] for r in moved}
            await asyncio.sleep(1.5)
            for h in on_paused:
                if h.client.code in moved_codes:
                    after = [t - woke for code, node, t in h.closes if node == cluster.node_id(paused) and t >= woke]
                    assert after and min(after) <= 1.0, f"cycle {cycle}: socket to the woken node not closed in 1 s"
            await _progress(humans)
            await _check_store(conn, humans, cluster, waiting)

            # 3. SIGTERM the third and start it again: its rooms are handed over at once.
            third = rng.choice(sorted(alive - {busiest, paused}) or sorted(alive))
            _mark(t0, f"cycle {cycle}: SIGTERM node {third}")
            cluster.terminate(third)
            alive.discard(third)
            await _everyone_served(conn, cluster, alive)
            await _progress(humans)
            await _check_store(conn, humans, cluster, waiting)
            cluster.start_node(third, wait=False)
            alive.add(third)
            if cycle % 4 == 3 or cycle == CYCLES - 1:  # quieting every room takes a while
                _mark(t0, f"cycle {cycle}: views against the store")
                await _views_match_the_store(humans, store, settings)
            for i in alive:
                cluster.wait_healthy(i)
        _mark(t0, "done")
        assert sum(len(h.acks) for h in humans) > 0
        # Each node says it serves; between them they took over every room of the nodes that died.
        async with httpx.AsyncClient(timeout=5) as http:
            pages = [(await http.get(f"{cluster.node_http(i)}/metrics")).text for i in range(3)]
        assert all("\nuno_cluster_serving 1\n" in page for page in pages)
        taken = [int(line.split()[-1]) for page in pages for line in page.splitlines()
                 if line.startswith("uno_cluster_rooms_taken_total ")]
        assert len(taken) == 3 and sum(taken) > 0
    finally:
        for task in tasks:
            task.cancel()
        if tasks:  # a cancellation can be lost inside wait_for on Python 3.11: don't wait for ever
            await asyncio.wait(tasks, timeout=5)
        await conn.close()
        await store.engine.dispose()
        cluster.stop()
