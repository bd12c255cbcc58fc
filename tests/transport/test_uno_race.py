"""C-11 / C-12: the UNO! race is settled by arrival order at the room; the receipt says so."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest

from tests.live import Client, LiveServer, create_room, next_round_or_over, puppet_step, seat_players, start_game, sync


def exposed(clients: list[Client]) -> int | None:
    game = clients[0].game
    if game is None or clients[0].status != "playing":
        return None
    seats = game["table"]["exposed"]
    return seats[0] if seats else None


def race_message(c: Client, target: int) -> dict[str, Any]:
    action = {"kind": "declare_uno"} if c.seat == target else {"kind": "catch", "target": target}
    return {"type": "action", "id": c.new_id(), "action": action}


async def race(clients: list[Client], target: int, order: list[Client], burst: bool) -> None:
    msgs = [(c, race_message(c, target)) for c in order]
    if burst:  # a true burst: whatever order the room sees is the order that counts
        await asyncio.gather(*(c.send(m) for c, m in msgs))
    else:
        # Each message reaches the room before the next is sent: this arrival order, exactly.
        audit = clients[0].server.audit
        for c, m in msgs:
            await c.send(m)
            await audit.until_answered(c.code, m["id"])
    replies = [await c.until_reply(m["id"]) for c, m in msgs]
    await sync(clients)
    winners = [c for (c, _), r in zip(msgs, replies, strict=True) if r["type"] == "ack"]
    assert len(winners) == 1, replies
    receipt = next(e for e in reversed(clients[0].view["log"]) if e["kind"] == "uno_race")
    arrival = [a["seat"] for a in receipt["attempts"]]
    assert [a["ok"] for a in receipt["attempts"]] == [True] + [False] * (len(order) - 1)
    assert receipt["target"] == target and arrival[0] == winners[0].seat
    assert sorted(arrival) == sorted(c.seat for c in order)  # type: ignore[type-var]
    if not burst:
        assert arrival == [c.seat for c in order]  # the first to arrive wins, the rest are refused
    first = clients[0].view["players"][winners[0].seat]["name"]
    for (_c, _m), r in zip(msgs, replies, strict=True):
        if r["type"] == "error":
            assert r["code"] == "too_late" and first in r["message"], r
            # What the client words the refusal from, in the reader's language (C-12).
            did = "declare" if winners[0].seat == target else "catch"
            assert r["params"] == {"by": winners[0].seat, "did": did, "target": target}, r
    # Only the winner's outcome happened: a catch costs the target exactly two cards.
    table = clients[0].game["table"]
    assert target not in table["exposed"]
    assert (target in table["declared"]) == (winners[0].seat == target)


@pytest.mark.slow
def test_uno_race_every_order_has_one_winner_the_first_to_arrive(server: LiveServer) -> None:
    async def main() -> int:
        rng = random.Random(7)
        code = await create_room(server, "pocket_pizza", 4, target=100_000)
        clients = await seat_players(server, code, 4)
        await start_game(clients)
        orders = list(itertools.permutations(range(4)))
        done = 0
        bursts = 0
        while done < len(orders) or bursts < 6:
            target = exposed(clients)
            if target is not None:
                if done < len(orders):
                    await race(clients, target, [clients[i] for i in orders[done]], burst=False)
                    done += 1
                else:
                    order = clients[:]
                    rng.shuffle(order)
                    await race(clients, target, order, burst=True)
                    bursts += 1
                continue
            if not await puppet_step(clients, rng, hurry=True):
                assert await next_round_or_over(clients), "the match ended before every order was raced"
        return done

    assert asyncio.run(asyncio.wait_for(main(), 150)) == 24
    assert not server.audit.violations


def test_a_seat_repeating_a_late_attempt_adds_it_to_the_receipt_once(server: LiveServer) -> None:
    """C-12: the receipt names each seat's late attempt once, however often it is repeated, so a
    client cannot grow what every socket in the room is sent again."""

    async def main() -> None:
        rng = random.Random(12)
        code = await create_room(server, "pocket_pizza", 3, target=100_000)
        clients = await seat_players(server, code, 3)
        await start_game(clients)
        while (target := exposed(clients)) is None:
            if not await puppet_step(clients, rng, hurry=True):  # cards played: a seat soon holds one
                assert await next_round_or_over(clients)
        winner, late = [c for c in clients if c.seat != target][:2]
        assert (await winner.request(race_message(winner, target)))["type"] == "ack"
        for _ in range(30):
            reply = await late.request(race_message(late, target))
            assert reply["code"] == "too_late", reply
        await sync(clients)
        receipt = next(e for e in reversed(clients[0].view["log"]) if e["kind"] == "uno_race")
        assert [(a["seat"], a["ok"]) for a in receipt["attempts"]] == [(winner.seat, True), (late.seat, False)]

    asyncio.run(main())
