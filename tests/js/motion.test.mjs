// Cards on the move: which card backs fly where, from the log entries of one frame.
import { test } from "node:test";
import assert from "node:assert/strict";

const { flights } = await import("../../static/js/motion.js");

test("a draw flies one back per card to the drawer, three at most", () => {
  assert.deepEqual(flights([{ kind: "draw", seat: 2, count: 1 }], 4), [{ seat: 2, delay: 0 }]);
  assert.deepEqual(flights([{ kind: "draw", seat: 1, count: 4 }], 4).map((f) => f.seat), [1, 1, 1]);
  assert.deepEqual(flights([{ kind: "draw", seat: 1, count: 0 }], 4), []);
});

test("a deal goes round every seat from the dealer's left, one after another", () => {
  const deal = flights([{ kind: "round_start", round: 2, dealer: 2 }], 4);
  assert.deepEqual(deal.map((f) => f.seat), [3, 0, 1, 2]);
  assert.ok(deal.every((f, i) => i === 0 || f.delay > deal[i - 1].delay));
});

test("other entries move nothing", () => {
  assert.deepEqual(flights([{ kind: "play", seat: 0 }, { kind: "uno", seat: 1 }], 3), []);
});
