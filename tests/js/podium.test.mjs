// The match's end: places with ties shared ("1, 2, 2, 4"), the match winner first.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.document = { documentElement: { lang: "en" } };
const { places } = await import("../../static/js/podium.js");

const row = (seat, score) => ({ seat, name: `P${seat}`, score });
const shape = (standing) => standing.map((p) => [p.place, p.players.map((x) => x.seat)]);

test("players tied on a score share their place, and the next place counts them all", () => {
  const table = [row(2, 512), row(0, 0), row(1, 0), row(3, -0)];
  assert.deepEqual(shape(places(table, 2)), [[1, [2]], [2, [0, 1, 3]]]);
  const five = [row(0, 530), row(1, 120), row(2, 120), row(3, 40), row(4, 0)];
  assert.deepEqual(shape(places(five, 0)), [[1, [0]], [2, [1, 2]], [4, [3]], [5, [4]]]);
});

test("the match winner is first and alone, whatever order the table came in", () => {
  const table = [row(1, 300), row(0, 500), row(2, 300)];
  assert.deepEqual(shape(places(table, 0)), [[1, [0]], [2, [1, 2]]]);
  // An equal score never shares the winner's place (the winner reached the target first).
  assert.deepEqual(shape(places([row(0, 500), row(1, 500)], 1)), [[1, [1]], [2, [0]]]);
});

test("no table, no places", () => {
  assert.deepEqual(places(undefined, 0), []);
});

test("under penalty scoring (HR-23) the lowest total stands first, the winner first of all", () => {
  const table = [{ seat: 0, score: 120 }, { seat: 1, score: 30 }, { seat: 2, score: 75 }, { seat: 3, score: 30 }];
  assert.deepEqual(shape(places(table, 1, true)), [[1, [1]], [2, [3]], [3, [2]], [4, [0]]]);
  assert.deepEqual(shape(places(table, 0)), [[1, [0]], [2, [2]], [3, [1, 3]]]);
});
