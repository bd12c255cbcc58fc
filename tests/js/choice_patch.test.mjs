// A choice begun from the hand under the frames that follow it: in Mario Kart, during a jump-in
// race (RULES.md §6 jump_in, HR-6 Seven-O), Ana taps her 7 out of turn and the box asks whom to
// swap with; the next frame (someone else jumped in first) changes her legal moves.  Patched in
// place, the moves the choice held became plain plays with no `target`, the choice still looked
// legal and the box offered "seat-undefined" twice.  The choice must be dropped instead.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { derive } = await import("../../static/js/table/model.js");
const { applyPatch } = await import("../../static/js/sync.js");
const { cardOptions } = await import("../../static/js/table/decision.js");
await loadCatalogue("en");

const card = (id, colour, face) => ({ id, name: `${colour} ${face}`, colour, face, value: Number(face) || 20 });
const PLAYERS = ["Ana", "Bo", "Cy"].map((name, seat) => ({ seat, name, connected: true, bot: seat > 0 }));
const RULES = { seven_o: true, jump_in: true };
const LOCAL = { choosing: null, batch: null, armed: false, dismissedReveal: "", code: "ROOM1234" };

function raceView() {
  return {
    room: { code: "ROOM1234", name: "Friday", edition: "mario_kart", status: "playing", host: 0, house_rules: RULES },
    you: 0, players: PLAYERS, log: [],
    game: {
      edition: "mario_kart", round: 1, dealer: 2, scores: [0, 0, 0], house_rules: RULES,
      table: {
        current: 1, direction: 1, top: card(50, "red", "7"), colour: "red", draw_pile: 60, discard_pile: 3,
        hand_sizes: [3, 5, 6], exposed: [], declared: [], skips_owed: [0, 0, 0], pending: { kind: "turn", seat: 1 },
        hand: [card(7, "red", "7"), card(12, "blue", "2"), card(13, "green", "4")],
        // Bo owes a turn; Ana may jump in with her twin of the top card, swapping with Bo or Cy.
        legal: [{ kind: "play", card: 7, target: 1 }, { kind: "play", card: 7, target: 2 }],
      },
    },
  };
}

test("a Seven-O jump-in's choice of whom to swap with names the seats, and is dropped once a frame takes it away", () => {
  const view = raceView();
  const local = { ...LOCAL, choosing: { card: 7, variants: cardOptions(view, 7) } };
  const asked = derive(view, local);
  assert.equal(asked.decision.kind, "target");
  assert.deepEqual(asked.decision.options.map((o) => o.option), ["seat-1", "seat-2"]);
  // The race is lost: Bo played a blue 2, and now Ana owes her turn.  The frame says so as the
  // server's differ makes it: the same entries of `legal`, turned into other moves.
  const next = applyPatch(view, [
    { op: "replace", path: "/game/table/top", value: card(51, "blue", "2") },
    { op: "remove", path: "/game/table/legal/0/target" },
    { op: "replace", path: "/game/table/legal/0/card", value: 12 },
    { op: "remove", path: "/game/table/legal/1/target" },
    { op: "replace", path: "/game/table/legal/1/card", value: 13 },
    { op: "replace", path: "/game/table/pending", value: { kind: "turn", seat: 0 } },
  ]);
  const after = derive(next, local);
  assert.equal(after.staleChoice, true, "the 7's plays are gone: the choice cannot be made");
  const options = after.decision ? after.decision.options.map((o) => o.option) : [];
  assert.ok(!options.some((o) => o.includes("undefined")), `no seat-undefined: ${options}`);
  assert.deepEqual(local.choosing.variants, [{ kind: "play", card: 7, target: 1 }, { kind: "play", card: 7, target: 2 }]);
});
