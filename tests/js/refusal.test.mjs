// A refused move is explained from the engine's refusal code and the table in the view.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadCatalogue } from "../../static/js/i18n.js";
import { explainRefusal } from "../../static/js/refusal.js";

globalThis.fetch = async (url) => {
  const lang = String(url).match(/i18n\/(\w+)\.json/)[1];
  const text = readFileSync(new URL(`../../static/i18n/${lang}.json`, import.meta.url), "utf8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};

const names = ["Ana", "Ben"];
const nameOf = (seat) => names[seat];

function view(table, you = 0) {
  return { you, game: { table: { top: { colour: "red", face: "5" }, colour: "red", pending: { kind: "turn", seat: 0 }, ...table } } };
}

test("a card that does not match names the colour and the face to match", async () => {
  await loadCatalogue("en");
  assert.equal(explainRefusal("card_not_playable", view({})), "It must match the red colour or the 5.");
  // A wild on top: only the colour chosen for it counts.
  const wild = view({ top: { colour: null, face: "wild" }, colour: "blue" });
  assert.equal(explainRefusal("card_not_playable", wild, nameOf), "It must match the blue colour chosen for the wild card.");
});

test("out of turn names who plays now", async () => {
  await loadCatalogue("en");
  const v = view({ pending: { kind: "turn", seat: 1 } });
  assert.equal(explainRefusal("not_your_turn", v, nameOf), "Not your turn — Ben plays now.");
});

test("a pending Draw Two or Wild Draw Four says how to answer it", async () => {
  await loadCatalogue("en");
  const stack = view({ top: { colour: "red", face: "draw2" }, pending: { kind: "stack", seat: 0 } });
  assert.equal(explainRefusal("illegal_action", stack, nameOf), "You must answer the Draw Two: stack or take the cards.");
  assert.equal(explainRefusal("card_not_playable", stack, nameOf), "You must answer the Draw Two: stack or take the cards.");
  const challenge = view({ top: { colour: null, face: "wild_draw4" }, pending: { kind: "challenge", seat: 0 } });
  assert.equal(explainRefusal("wrong_action", challenge, nameOf),
    "You must answer the Wild Draw Four: accept the penalty or challenge it.");
});

test("other codes fall back to the server's words, and the languages are all there", async () => {
  await loadCatalogue("en");
  assert.equal(explainRefusal("too_late", view({}), nameOf), null);
  assert.equal(explainRefusal("card_not_playable", { you: null, game: null }, nameOf), null);
  await loadCatalogue("pl");
  assert.equal(explainRefusal("card_not_playable", view({}), nameOf), "Karta musi pasować kolorem (czerwony) albo znakiem (5).");
  await loadCatalogue("gl");
  assert.equal(explainRefusal("not_your_turn", view({ pending: { kind: "turn", seat: 1 } }), nameOf), "Non é a túa quenda — agora xoga Ben.");
});
