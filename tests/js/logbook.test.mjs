// The room's log as a person would tell it (issue: "the log reads like a trace"): your own draw
// told once with its cards and reason, races told as who got there first, fairness notes as
// badges to the match page, in every language.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { logLines } = await import("../../static/js/logbook.js");
const { raceText } = await import("../../static/js/narrate.js");

const names = ["Ana", "Ben", "Cleo", "Dan"];
const nameOf = (seat) => names[seat];
const yellow3 = { name: "yellow 3", colour: "yellow", face: "3", value: 3 };
const red7 = { name: "red 7", colour: "red", face: "7", value: 7 };

function tableView(log, priv = [], you = 0) {
  return { you, room: { match_id: "9f1c2a7b" }, log, private: priv };
}

test("your own draw is one line, with the cards you got and why (CL-9)", async () => {
  await loadCatalogue("en");
  const view = tableView(
    [{ n: 1, kind: "play", seat: 1, card: red7 }, { n: 2, kind: "draw", seat: 0, count: 1, reason: "caught" }],
    [{ n: 3, kind: "drew", seat: 0, cards: [yellow3] }],
  );
  const texts = logLines(view, nameOf).map((l) => l.text);
  assert.deepEqual(texts, ["Ben played red 7.", "You drew yellow 3 for not saying UNO!"]);
});

test("another seat's draw says who, how many and why, in one sentence", async () => {
  await loadCatalogue("en");
  const view = tableView([{ n: 4, kind: "draw", seat: 1, count: 2, reason: "caught" }, { n: 5, kind: "draw", seat: 2, count: 1, reason: "turn" }]);
  assert.deepEqual(logLines(view, nameOf).map((l) => l.text), ["Ben drew 2 cards for not saying UNO!", "Cleo drew a card."]);
});

test("a private line replaces only its own public twin", async () => {
  await loadCatalogue("en");
  // The public draw of another seat just before your private "drew" is not yours: both stay.
  const view = tableView([{ n: 6, kind: "draw", seat: 1, count: 1, reason: "turn" }], [{ n: 7, kind: "drew", seat: 0, cards: [red7] }]);
  assert.equal(logLines(view, nameOf).length, 2);
  // Dip Into The Deck (PP-8): the passer and the receiver see the card; the public line goes.
  const passed = tableView([{ n: 8, kind: "pass", seat: 0, to: 1 }], [{ n: 9, kind: "passed", seat: 0, to: 1, card: red7 }], 1);
  assert.deepEqual(logLines(passed, nameOf).map((l) => l.kind), ["passed"]);
  assert.match(logLines(passed, nameOf)[0].text, /red 7/);
});

test("fairness notes are badges linking to the match page, not lines of hex", async () => {
  await loadCatalogue("en");
  const hash = "3f8a3c".padEnd(64, "0");
  const view = tableView([{ n: 1, kind: "commitment", round: 1, commitment: hash }, { n: 2, kind: "secret", round: 1, secret: "ab12" }]);
  const [sealed, revealed] = logLines(view, nameOf);
  assert.equal(sealed.text, "Round 1: shuffle sealed");
  assert.equal(sealed.href, "/matches/9f1c2a7b");
  assert.ok(sealed.title.includes(hash) && !sealed.text.includes("3f8a3c"));
  assert.match(revealed.text, /^Round 1: shuffle revealed/);
  assert.ok(revealed.title.includes("ab12"));
  assert.equal(logLines({ ...view, room: { match_id: null } }, nameOf)[0].href, null);
});

test("a UNO! race says who got there first and who was too late (C-12)", async () => {
  await loadCatalogue("en");
  const caught = { target: 1, attempts: [{ seat: 2, action: "catch", ok: true }, { seat: 1, action: "declare", ok: false }, { seat: 3, action: "catch", ok: false }] };
  assert.equal(raceText(caught, nameOf), "Cleo was quicker and caught Ben. Too late: Ben, Dan.");
  const declared = { target: 1, attempts: [{ seat: 1, action: "declare", ok: true }, { seat: 2, action: "catch", ok: false }] };
  assert.equal(raceText(declared, nameOf), "Ben said UNO! just in time. Too late: Cleo.");
});

for (const lang of ["en", "pl", "sl", "gl"]) {
  test(`every log line is worded in ${lang}, with no key, placeholder or untranslated Item Box`, async () => {
    await loadCatalogue(lang);
    const item = { name: "item box", colour: null, face: "item_box", value: 50 };
    const view = tableView([
      { n: 1, kind: "commitment", round: 1, commitment: "ab" }, { n: 2, kind: "play", seat: 1, card: item },
      { n: 3, kind: "item", seat: 1, card: red7, item: "banana_peel" }, { n: 4, kind: "draw", seat: 0, count: 2, reason: "banana_peel" },
      { n: 6, kind: "timeout", seat: 2 }, { n: 7, kind: "uno_race", target: 1, attempts: [{ seat: 2, action: "catch", ok: true }] },
      { n: 8, kind: "secret", round: 1, secret: "cd" },
    ], [{ n: 5, kind: "drew", seat: 0, cards: [red7, yellow3] }]);
    const lines = logLines(view, nameOf);
    assert.equal(lines.length, 7, "the public draw of n=4 is told by its private twin");
    for (const l of lines) {
      assert.ok(l.text && !/[{}]/.test(l.text) && !/\b(ev|race|why|fair|item)\.\w/.test(l.text), `${lang}: ${l.text}`);
      if (lang !== "en") assert.doesNotMatch(l.text, /Item Box/, `${lang}: ${l.text}`);
    }
  });
}
