// The hand is shown sorted: by colour (red, yellow, green, blue), wilds last, then by face.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sortHand } from "../../static/js/cards.js";

test("hands sort by colour, then face, wilds last", () => {
  const hand = [
    { id: 1, colour: null, face: "wild_draw4" },
    { id: 2, colour: "blue", face: "3" },
    { id: 3, colour: "red", face: "skip" },
    { id: 4, colour: "red", face: "7" },
    { id: 5, colour: null, face: "wild" },
    { id: 6, colour: "yellow", face: "0" },
  ];
  assert.deepEqual(sortHand(hand).map((c) => c.id), [4, 3, 6, 2, 5, 1]);
  assert.equal(hand[0].id, 1, "the input is not reordered");
});
