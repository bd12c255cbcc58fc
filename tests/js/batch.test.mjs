// Unit tests of static/js/table/batch.js: several cards of one number in one move (RULES.md
// HR-8) and the bomb (HR-9), from views shaped as docs/PROTOCOL.md describes them.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { batchMates, batchModel, batchOffer, batchRole, batchStillLegal, batchVariants, bombs, toggled } = await import("../../static/js/table/batch.js");
const { cardOptions, choiceStillLegal } = await import("../../static/js/table/decision.js");
const { derive } = await import("../../static/js/table/model.js");
await loadCatalogue("en");

const card = (id, colour, face) => ({ id, name: `${colour} ${face}`, colour, face, value: Number(face) });
const LOCAL = { choosing: null, batch: null, armed: false, dismissedReveal: "", code: "ROOM1234" };

/** Ana (seat 0) on a red 5 holds red 7, blue 7, green 7 and yellow 2: the 7s make batches. */
function view({ bomb = true, legal } = {}) {
  // As the engine offers them (house/volume.py): the group of 7s once, the red one to lead.
  const plays = [{ kind: "play", card: 3 }, { kind: "draw" }, { kind: "batch", cards: [3, 5, 8], leads: [3] }];
  return {
    room: { code: "ROOM1234", name: "Friday", edition: "classic", status: "playing", host: 0, house_rules: { multi_play: true, bomb } },
    you: 0,
    players: [{ seat: 0, name: "Ana", connected: true }, { seat: 1, name: "Bo", connected: true }],
    log: [],
    game: {
      edition: "classic", round: 1, dealer: 1, scores: [0, 0], house_rules: { multi_play: true, bomb },
      table: {
        current: 0, direction: 1, top: card(90, "red", "5"), colour: "red", draw_pile: 80, discard_pile: 1,
        hand_sizes: [4, 7], exposed: [], declared: [], skips_owed: [0, 0], pending: { kind: "turn", seat: 0 },
        hand: [card(3, "red", "7"), card(5, "blue", "7"), card(8, "green", "7"), card(9, "yellow", "2")],
        legal: legal || plays,
      },
    },
  };
}

test("a card's own plays leave its batches out; the batches are the table's to build (HR-8)", () => {
  const v = view();
  assert.deepEqual(cardOptions(v, 3), [{ kind: "play", card: 3 }]);
  assert.deepEqual(batchOffer(v, 3), { kind: "batch", cards: [3, 5, 8], leads: [3] });
  assert.equal(batchOffer(v, 5), null);
  assert.deepEqual(batchMates(v, 3), [5, 8]);
  assert.deepEqual(batchMates(v, 5), []); // the blue 7 cannot lead: not playable on a red 5
});

test("the batch as picked is the legal play whose last card is the last one picked (HR-8)", () => {
  const v = view();
  assert.deepEqual(batchVariants(v, { card: 3, picked: [] }), [{ kind: "play", card: 3 }]);
  assert.deepEqual(batchVariants(v, { card: 3, picked: [8] }), [{ kind: "play", card: 3, more: [8] }]);
  assert.deepEqual(batchVariants(v, { card: 3, picked: [8, 5] }), [{ kind: "play", card: 3, more: [8, 5] }]);
  assert.deepEqual(batchVariants(v, { card: 3, picked: [5, 8] }), [{ kind: "play", card: 3, more: [5, 8] }]);
  assert.deepEqual(batchVariants(v, { card: 3, picked: [9] }), [], "a 2 never joins a 7");
  assert.deepEqual(toggled({ card: 3, picked: [5, 8] }, 5), { card: 3, picked: [8] });
  assert.deepEqual(toggled({ card: 3, picked: [8] }, 5), { card: 3, picked: [8, 5] });
});

test("a 7's batch names each target once, with UNO! where the offer says it goes (HR-8, HR-7, C-11)", () => {
  const offer = { kind: "batch", cards: [3, 5, 8], leads: [3], targets: [1, 2], uno: [[2, 2], [3, 2]] };
  const v = view({ legal: [{ kind: "play", card: 3, target: 1 }, { kind: "play", card: 3, target: 2 }, offer] });
  assert.deepEqual(batchVariants(v, { card: 3, picked: [8] }), [
    { kind: "play", card: 3, target: 1, more: [8] },
    { kind: "play", card: 3, target: 2, more: [8] }, { kind: "play", card: 3, target: 2, more: [8], uno: true }]);
  assert.equal(batchVariants(v, { card: 3, picked: [8, 5] }).length, 3);
  // A hoarding hand's offer is one entry however many batches it stands for.
  assert.equal(v.game.table.legal.filter((a) => a.kind === "batch").length, 1);
});

test("a batch stays while it can be played; not once the turn has gone or a card left (HR-8)", () => {
  const v = view();
  assert.equal(batchStillLegal(v, { card: 3, picked: [5] }), true);
  assert.equal(batchStillLegal(v, null), false);
  assert.equal(batchStillLegal(view({ legal: [{ kind: "play", card: 3 }, { kind: "draw" }] }), { card: 3, picked: [] }), false);
  assert.equal(batchStillLegal(v, { card: 3, picked: [9] }), false); // a 2 never joins a 7
  const between = { ...v, room: { ...v.room, status: "between" } };
  assert.equal(batchStillLegal(between, { card: 3, picked: [] }), false);
});

test("the decision box offers every 7 as a toggle and the batch as it stands; three make a bomb (HR-8, HR-9)", () => {
  const v = view();
  const alone = batchModel(v, { card: 3, picked: [] });
  assert.equal(alone.kind, "batch");
  assert.equal(alone.title, "More 7s with it?");
  assert.deepEqual(alone.options.map((o) => o.option), ["mate-5", "mate-8", "play-batch"]);
  assert.deepEqual(alone.options.map((o) => o.pressed ?? null), [false, false, null]);
  assert.equal(alone.options[2].label, "Play red 7 alone");
  assert.equal(alone.options[2].primary, true);
  assert.equal(alone.bomb, false);
  const three = batchModel(v, { card: 3, picked: [8, 5] });
  assert.equal(three.options[2].label, "Play 3 cards");
  assert.deepEqual(three.options[2].play, { card: 3, variants: [{ kind: "play", card: 3, more: [8, 5] }] });
  assert.equal(three.options[0].label, "Take blue 7 back");
  assert.equal(three.bomb, true);
  assert.match(three.text, /Last on top: blue 7, its colour counts\. Three or more: a bomb/);
  // Without the bomb rule three 7s are just three 7s.
  assert.equal(batchModel(view({ bomb: false }), { card: 3, picked: [8, 5] }).bomb, false);
  assert.equal(bombs(view(), 2), false);
});

test("the hand lights what may join the batch being built, and the table shows the batch box (HR-8)", () => {
  const m = derive(view(), { ...LOCAL, batch: { card: 3, picked: [8] } });
  const byId = Object.fromEntries(m.hand.map((c) => [c.id, c]));
  assert.deepEqual([byId[3].batch, byId[8].batch, byId[5].batch, byId[9].batch], ["lead", "picked", "mate", ""]);
  assert.equal(byId[5].playable, true); // a mate can be tapped, though not playable alone
  assert.match(byId[5].label, /can join the batch/);
  assert.match(byId[8].label, /in the batch/);
  assert.equal(m.decision.kind, "batch");
  assert.equal(m.staleBatch, false);
  // Before any batch: the lead says it may take others of its number.
  const before = derive(view(), LOCAL);
  assert.match(before.hand.find((c) => c.id === 3).label, /with others of its number/);
  assert.equal(before.decision, null);
  // Once the turn has moved on, the batch is stale and the controller drops it.
  const gone = view({ legal: [] });
  gone.game.table.pending = { kind: "turn", seat: 1 };
  assert.equal(derive(gone, { ...LOCAL, batch: { card: 3, picked: [] } }).staleBatch, true);
  assert.equal(batchRole(null, [], 3), "");
});

test("a batch's UNO! or target choice stays open while its offer covers it (HR-8)", () => {
  const offer = { kind: "batch", cards: [3, 5, 8], leads: [3], targets: [1, 2], uno: [[2, 2]] };
  const v = view({ legal: [{ kind: "play", card: 3, target: 1 }, { kind: "play", card: 3, target: 2 }, offer] });
  const variants = batchVariants(v, { card: 3, picked: [8] });
  assert.equal(choiceStillLegal(v, { card: 3, variants }), true);
  assert.equal(choiceStillLegal(v, { card: 3, variants: [{ kind: "play", card: 3, target: 1, more: [8], uno: true }] }), false);
  assert.equal(choiceStillLegal(view({ legal: [{ kind: "draw" }] }), { card: 3, variants }), false);
});
