"""The server's memory of its players, from matches played over real sockets: each player's
history, stats and openskill rating per edition (checked against openskill's own computation),
with a reconnect and a bot's takeover along the way, the leaderboard's order, the group's
head-to-head table, and a deletion that leaves "a former player" behind (docs/STATS.md)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from app.persistence.db import resolve_url
from app.persistence.players import FORMER_PLAYER
from tests.live import Client, LiveServer, choose, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.waiting import until

MODEL = PlackettLuce()


async def open_room(server: LiveServer, seats: int, **options: Any) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": seats,
                                                "house_rules": {"rounds": 2}, **options})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


def places(history: dict[str, Any]) -> list[int]:
    """Places as a reader works them out: the winner first, then by total; equal totals tie."""
    totals, winner = history["totals"], history["winner"]
    key = [(0 if s == winner else 1, -t) for s, t in enumerate(totals)]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def moved_on(server: LiveServer, code: str, seat: int, logged: int) -> bool:
    """Whether the table moved on since ``logged`` actions, or waits for ``seat`` (nobody else may)."""
    st = server.registry.get(code).state
    pending = st.match.round.pending if st.status == "playing" else None
    return len(st.match.log) > logged or pending is None or pending.seat == seat


async def play(server: LiveServer, people: list[Person], seed: int, *, away: int | None = None,
               reconnect: int | None = None, public: bool = True) -> tuple[str, list[Client]]:
    """One two-round match of these people; ``away``'s socket goes at the start (a bot plays the
    seat past the grace), ``reconnect``'s drops once mid-match and comes back."""
    code = await open_room(server, len(people), away_grace_seconds=1.0, public=public)
    clients = [await p.join(code) for p in people]
    for p in people:
        server.audit.secrets.add(p.http.cookies["uno_player"])
    reply = await clients[0].request({"type": "start"})
    assert reply["type"] == "ack", reply

    async def seat(i: int, c: Client) -> None:
        rng = random.Random(f"{seed}/{i}")
        if i == away:
            await c.close()
            return
        if i == reconnect:
            sent = 0
            while sent < 4 and c.status == "playing":
                action = choose(c, rng, 0.4)
                if action is None:
                    await c.recv(20)
                    continue
                await c.request({"type": "action", "action": action})
                sent += 1
            logged = len(server.registry.get(code).state.match.log)
            await c.close()
            await until(lambda: moved_on(server, code, i, logged), what="the others playing on meanwhile")
            await c.connect(last_seq=c.seq)  # the frames missed, then on as before
        await play_bot(c, rng, uno_chatter=0.4)

    await asyncio.gather(*(seat(i, c) for i, c in enumerate(clients)))
    return code, clients


@pytest.mark.slow
def test_history_stats_and_ratings_after_real_matches(tmp_path: Path) -> None:
    server = remembering_server(resolve_url(None, tmp_path), leaderboard_min_matches=1, leaderboard_min_opponents=1)
    try:
        asyncio.run(_three_matches(server))
    finally:
        server.stop()


async def _three_matches(server: LiveServer) -> None:
    ana, bo, cy = Person(server, "Ana"), Person(server, "Bo"), Person(server, "Cy")
    people = [ana, bo, cy]
    rooms = []
    code, clients = await play(server, people, 1)
    rooms.append((code, clients))
    code, clients = await play(server, people, 2, reconnect=1)
    rooms.append((code, clients))
    code, clients = await play(server, people, 3, away=2, public=False)
    rooms.append((code, clients))
    await settled(server, 3)
    ids = [(await p.me())["id"] for p in people]

    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:  # an export is built in a worker
        histories = []
        for _, clients in rooms:
            match_id = clients[0].view["room"]["match_id"]
            histories.append((match_id, (await http.get(f"/api/matches/{match_id}")).json()))
        # Each read by its own player: every match named and linked, the private room's too.
        pages = [(await p.http.get(f"/api/players/{pid}")).json() for p, pid in zip(people, ids, strict=True)]
        # Read by anyone else, the private room's match is neither named nor linked: its id would
        # lead to the room's code (the match page names it), a private room's only lock.
        private = histories[2][0]
        for viewer in (http, ana.http):
            seen = (await viewer.get(f"/api/players/{ids[1]}")).json()["history"]
            assert len(seen) == 3 and seen[0]["match"] is None
            assert seen[0]["match_url"] is None and seen[0]["replay_url"] is None
            assert private not in str(seen) and all(line["match_url"] for line in seen[1:])

        # History: every match, newest first, with its opponents, place and points.
        for i, page in enumerate(pages):
            lines = page["history"]
            assert [line["match"] for line in lines] == [m for m, _ in reversed(histories)]
            for line in lines:
                stored = dict(histories)[line["match"]]
                assert line["placement"] == places(stored)[i]
                assert line["points"] == stored["totals"][i]
                assert {o["name"] for o in line["opponents"]} == {p.name for p in people} - {people[i].name}
                assert line["house"] == {"rounds": 2} and line["edition"] == "classic"
        # The reconnect changed nothing: Bo's second match counts.  Cy's third was a bot's.
        assert pages[1]["history"][1]["counted"] is True
        cy_third = pages[2]["history"][0]
        assert cy_third["counted"] is False and cy_third["reason"] == "bots_played"

        # Stats from the counted matches, as the stored rounds say.
        for i, page in enumerate(pages):
            counted = [dict(histories)[line["match"]] for line in page["history"] if line["counted"]]
            stats = page["stats"]["classic"]
            assert stats["matches"] == len(counted)
            assert stats["wins"] == sum(1 for m in counted if m["winner"] == i)
            won = [r for m in counted for r in m["rounds"] if r["winner"] == i]
            assert stats["rounds_won"] == len(won)
            rounds = sum(len(m["rounds"]) for m in counted)
            assert stats["points_per_round"] == round(sum(r["points"] for r in won) / rounds, 1)
            exports = [(await http.get(f"/api/matches/{m['id']}/export")).json() for m in counted]
            events = [e for doc in exports for rnd in doc["rounds"] for a in rnd["actions"] for e in a["events"]]
            assert stats["catches_made"] == sum(1 for e in events if e["kind"] == "caught" and e["data"]["by"] == i)
            assert stats["catches_suffered"] == sum(1 for e in events
                                                    if e["kind"] == "caught" and e["data"]["seat"] == i)

        # Ratings: openskill's own computation, match by match, over the counted seats.
        expected = {pid: MODEL.rating() for pid in ids}
        for match_id, stored in histories:
            rated = [i for i, page in enumerate(pages)
                     if next(line for line in page["history"] if line["match"] == match_id)["counted"]]
            ranks = places(stored)
            after = MODEL.rate([[expected[ids[i]]] for i in rated], ranks=[ranks[i] for i in rated])
            for i, team in zip(rated, after, strict=True):
                expected[ids[i]] = team[0]
        for pid, page in zip(ids, pages, strict=True):
            rating = page["stats"]["classic"]["rating"]
            assert abs(rating["mu"] - expected[pid].mu) < 0.01 and abs(rating["sigma"] - expected[pid].sigma) < 0.01
        assert pages[2]["stats"]["classic"]["rating"]["matches"] == 2 and pages[0]["stats"]["classic"]["rating"][
            "matches"] == 3

        # The leaderboard, by mu - 3 sigma.
        board = (await http.get("/api/leaderboard/classic")).json()["players"]
        ordinals = {pid: expected[pid].mu - 3 * expected[pid].sigma for pid in ids}
        assert [row["player"] for row in board] == sorted(ids, key=lambda p: -ordinals[p])
        assert [row["rank"] for row in board] == [1, 2, 3]

        # Our group: who finished ahead of whom, in the matches each two counted together.
        group = (await http.get(f"/api/players/{ids[0]}/group")).json()
        assert group["players"][0]["player"] == ids[0] and len(group["players"]) == 3
        cell = next(c for c in group["cells"] if c["row"] == ids[0] and c["col"] == ids[1])
        both = [m for m, _ in histories]
        ahead = sum(1 for _, stored in histories if places(stored)[0] < places(stored)[1])
        assert cell["matches"] == len(both) and cell["ahead"] == ahead

        # Ana deletes herself: a former player in the stored matches and in Bo's history.
        assert (await ana.http.delete("/api/me")).status_code == 204
        for match_id, _ in histories:
            assert (await http.get(f"/api/matches/{match_id}")).json()["players"][0] == FORMER_PLAYER
        bo_page = (await http.get(f"/api/players/{ids[1]}")).json()
        assert all(o["name"] == FORMER_PLAYER for line in bo_page["history"] for o in line["opponents"]
                   if o["seat"] == 0)
        assert ids[0] not in [row["player"] for row in (await http.get("/api/leaderboard/classic")).json()["players"]]
        assert (await http.get(f"/api/players/{ids[0]}")).status_code == 404

    for _, clients in rooms:
        for c in clients:
            await c.close()
    for p in people:
        await p.close()
