// Unit tests of static/js/seating.js: the opponents' order on screen and the "next" marker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nextSeat, playOrder } from "../../static/js/seating.js";

test("the others are listed in the order they play after you, clockwise (C-1)", () => {
  assert.deepEqual(playOrder(4, 1, 0), [1, 2, 3]);
  assert.deepEqual(playOrder(4, 1, 2), [3, 0, 1]);
  assert.deepEqual(playOrder(10, 1, 9), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
});

test("after a Reverse the list turns round (C-1)", () => {
  assert.deepEqual(playOrder(4, -1, 0), [3, 2, 1]);
  assert.deepEqual(playOrder(4, -1, 2), [1, 0, 3]);
  assert.deepEqual(playOrder(2, -1, 1), [0]);
});

test("someone watching sees every seat, from seat 1 in the direction of play", () => {
  assert.deepEqual(playOrder(3, 1, null), [0, 1, 2]);
  assert.deepEqual(playOrder(3, -1, null), [0, 2, 1]);
});

test("the next seat follows the direction, and moves when a Reverse flips it (C-1)", () => {
  assert.equal(nextSeat(4, 1, 0), 1);
  assert.equal(nextSeat(4, 1, 3), 0);
  assert.equal(nextSeat(4, -1, 0), 3);
  assert.equal(nextSeat(4, -1, 3), 2);
  assert.equal(nextSeat(2, -1, 0), 1);
});

test("a seat that owes a lost turn is passed over (AW-2 Double Skip)", () => {
  assert.equal(nextSeat(4, 1, 0, [0, 1, 0, 0]), 2);
  assert.equal(nextSeat(4, 1, 0, [0, 1, 1, 0]), 3);
  // Three players, both others owing one: the player plays again (AW-2).
  assert.equal(nextSeat(3, 1, 0, [0, 1, 1]), 0);
});

test("no current seat, no forecast", () => {
  assert.equal(nextSeat(4, 1, null), null);
  assert.equal(nextSeat(1, 1, 0), null);
});
