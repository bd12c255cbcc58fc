// Unit tests of static/js/phone/attention.js: what at the table calls for you, and when a call is new.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AttentionTracker, attentionOf, attentionTitle, catchTarget } from "../../static/js/phone/attention.js";

const view = (pending, { you = 0, status = "playing", legal = [] } = {}) => ({
  you, room: { status, name: "Sofa" }, game: { table: { pending, legal } }, log: [],
});

test("your decision is your turn; a Wild Draw Four to answer is a challenge", () => {
  assert.equal(attentionOf(view({ kind: "turn", seat: 0 })), "turn");
  assert.equal(attentionOf(view({ kind: "drawn", seat: 0 })), "turn");
  assert.equal(attentionOf(view({ kind: "challenge", seat: 0 })), "challenge");
  assert.equal(attentionOf(view({ kind: "turn", seat: 1 })), null);
});

test("someone to catch calls you, but not at a no-hints table, and never a watcher or a finished round", () => {
  const canCatch = [{ kind: "catch", target: 2 }];
  assert.equal(attentionOf(view({ kind: "turn", seat: 1 }, { legal: canCatch })), "catch");
  assert.equal(catchTarget(view({ kind: "turn", seat: 1 }, { legal: canCatch })), 2);
  const hintless = view({ kind: "turn", seat: 1 });
  delete hintless.game.table.legal; // HR-32: frames without `legal`
  assert.equal(attentionOf(hintless), null);
  assert.equal(attentionOf(view({ kind: "turn", seat: 0 }, { you: null })), null);
  assert.equal(attentionOf(view({ kind: "turn", seat: 0 }, { status: "round_over" })), null);
  assert.equal(attentionOf({ you: 0, room: { status: "waiting" }, game: null }), null);
});

test("a call is news once: not on the first view, not again while it lasts, again when it comes back", () => {
  const tracker = new AttentionTracker();
  assert.equal(tracker.update(view({ kind: "turn", seat: 0 })), null); // a page opened on its turn
  assert.equal(tracker.update(view({ kind: "turn", seat: 1 })), null);
  assert.equal(tracker.update(view({ kind: "turn", seat: 0 })), "turn");
  assert.equal(tracker.update(view({ kind: "drawn", seat: 0 })), null); // the same turn, a card drawn
  assert.equal(tracker.update(view({ kind: "challenge", seat: 0 })), "challenge");
  assert.equal(tracker.update(view({ kind: "turn", seat: 1 })), null);
  assert.equal(tracker.update(view({ kind: "turn", seat: 0 })), "turn");
});

test("the tab's title puts the call in front, replacing the table's own mark", () => {
  assert.equal(attentionTitle("Sofa · UNO Table", "Catch them!"), "● Catch them! · Sofa · UNO Table");
  assert.equal(attentionTitle("● Your turn · Sofa · UNO Table", "Accept or challenge"), "● Accept or challenge · Sofa · UNO Table");
  assert.equal(attentionTitle("Sofa · UNO Table", null), "Sofa · UNO Table");
});
