// A replay's positions: moving across rounds, clamping what a link asks for, and the links.
import { test } from "node:test";
import assert from "node:assert/strict";
import { atEnd, clamp, hands, interval, linkTo, moveCounts, parseLink, shareLink, step } from "../../static/js/replay.js";

const doc = { rounds: [{ steps: [{}, {}, {}] }, { steps: [{}] }, { steps: [{}, {}] }] };
const counts = moveCounts(doc);

test("each round counts its moves, the deal apart", () => {
  assert.deepEqual(counts, [2, 0, 1]);
  assert.deepEqual(moveCounts({}), []);
});

test("stepping forward runs through every round, then stops at the end", () => {
  const seen = [];
  let pos = { round: 1, move: 0 };
  for (let i = 0; i < 8; i += 1) { seen.push(`${pos.round}.${pos.move}`); pos = step(counts, pos, 1); }
  assert.deepEqual(seen, ["1.0", "1.1", "1.2", "2.0", "3.0", "3.1", "3.1", "3.1"]);
  assert.ok(atEnd(counts, { round: 3, move: 1 }));
  assert.ok(!atEnd(counts, { round: 3, move: 0 }));
});

test("stepping back goes to the previous round's last move, and stops at the first deal", () => {
  assert.deepEqual(step(counts, { round: 3, move: 0 }, -1), { round: 2, move: 0 });
  assert.deepEqual(step(counts, { round: 2, move: 0 }, -1), { round: 1, move: 2 });
  assert.deepEqual(step(counts, { round: 1, move: 0 }, -1), { round: 1, move: 0 });
});

test("a position is clamped into the replay", () => {
  assert.deepEqual(clamp(counts, { round: 9, move: 9 }), { round: 3, move: 1 });
  assert.deepEqual(clamp(counts, { round: 0, move: -4 }), { round: 1, move: 0 });
  assert.deepEqual(clamp(counts, { round: "2", move: "x" }), { round: 2, move: 0 });
  assert.deepEqual(clamp(counts, { round: 1.7, move: 1.2 }), { round: 1, move: 1 });
  assert.deepEqual(clamp([], { round: 2, move: 3 }), { round: 1, move: 0 });
});

test("links carry the round and the move, as a query or a fragment", () => {
  assert.deepEqual(parseLink("?round=2&move=17", ""), { round: 2, move: 17 });
  assert.deepEqual(parseLink("?lang=pl&round=3", ""), { round: 3, move: 0 });
  assert.deepEqual(parseLink("", "#r2m17"), { round: 2, move: 17 });
  assert.deepEqual(parseLink("", "#r4"), { round: 4, move: 0 });
  assert.equal(parseLink("?lang=pl", "#top"), null);
  const link = linkTo("http://host:8000/matches/m1?lang=gl#r1m1", { round: 2, move: 5 });
  assert.equal(link, "http://host:8000/matches/m1?lang=gl&round=2&move=5");
  assert.deepEqual(parseLink(new URL(link).search, ""), { round: 2, move: 5 });
  assert.equal(shareLink("http://host/matches/m1?lang=gl&round=1&move=1#x", { round: 3, move: 0 }),
    "http://host/matches/m1?round=3&move=0");
});

test("hands are cards from the card table; speeds are intervals", () => {
  const cards = [{ id: 0, face: "1" }, { id: 1, face: "2" }, { id: 2, face: "3" }];
  assert.deepEqual(hands({ cards }, { hands: [[2, 0], []] }), [[cards[2], cards[0]], []]);
  assert.equal(interval(1), 1200);
  assert.equal(interval(4), 300);
  assert.equal(interval("0.5"), 2400);
  assert.equal(interval("x"), 1200);
});
