// Unit tests of static/js/cues.js: which sound and vibration cues a new view calls for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buzzFor, pickCues } from "../../static/js/cues.js";

const play = (seat) => ({ kind: "play", seat, card: { colour: "red", face: "5" } });

test("a card played by anyone sounds once, however many arrive together", () => {
  assert.deepEqual(pickCues([play(1), play(2)], 0, false, false), ["card"]);
  assert.deepEqual(pickCues([play(1)], null, false, false), ["card"]);
});

test("your turn ticks only when it becomes yours, after the news that led to it", () => {
  assert.deepEqual(pickCues([play(1)], 0, false, true), ["card", "turn"]);
  assert.deepEqual(pickCues([], 0, true, true), []);
  assert.deepEqual(pickCues([], null, false, true), []);
});

test("UNO! said by anyone chimes", () => {
  assert.deepEqual(pickCues([{ kind: "uno", seat: 2, early: false }], 0, false, false), ["uno"]);
});

test("being caught, or having to draw, is a low tone; drawing by choice or others' draws are not", () => {
  const caught = [{ kind: "caught", seat: 0, by: 1 }, { kind: "draw", seat: 0, count: 2, reason: "caught" }];
  assert.deepEqual(pickCues(caught, 0, false, false), ["caught"]);
  assert.deepEqual(pickCues([{ kind: "caught", seat: 1, by: 0 }], 0, false, false), []);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 0, count: 2, reason: "card" }], 0, false, false), ["draw"]);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 0, count: 1, reason: "turn" }], 0, false, false), []);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 1, count: 4, reason: "card" }], 0, false, false), []);
});

test("only your turn and being caught vibrate, and never with reduced motion", () => {
  assert.ok(buzzFor("turn", false));
  assert.ok(buzzFor("caught", false));
  assert.equal(buzzFor("card", false), null);
  assert.equal(buzzFor("turn", true), null);
  assert.equal(buzzFor("caught", true), null);
});
