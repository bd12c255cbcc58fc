// The one narrator: every entry kind and every error code worded from the catalogues, in each
// of the four languages, with no placeholder or key left over and no English where a
// translation exists.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { describe, KINDS } = await import("../../static/js/narrate.js");
const { errorText } = await import("../../static/js/errors.js");
const { challengeText, targetTitle, pendingText } = await import("../../static/js/wording.js");

const names = ["Ana", "Bo", "Cy", "Di"];
const nameOf = (seat) => names[seat];
const card = { name: "red 7", colour: "red", face: "7", value: 7 };
// One entry of each kind, with the data the server sends (docs/PROTOCOL.md).
const SAMPLES = {
  play: { seat: 0, card, colour: null }, draw: { seat: 1, count: 2, reason: "caught" }, drew: { seat: 0, cards: [card] }, turned_up: { seat: 0, cards: [card] },
  passed: { seat: 0, card, to: 1 }, pass: { seat: 0, to: 1 }, hand_revealed: { seat: 1, cards: [card] },
  skipped: { seat: 1 }, uno: { seat: 0 }, exposed: { seat: 0 }, caught: { seat: 0, by: 2 }, keep: { seat: 0 },
  accept: { seat: 1 }, eliminated: { seat: 2 }, deflect: { seat: 1, to: 2, penalty: 4 },
  misplay: { seat: 0, cards: [{ colour: "red", face: "5" }] }, challenge: { seat: 1, against: 0, guilty: true }, colour: { seat: 0, colour: "blue" },
  reverse: { seat: 0, direction: -1 }, swap: { seat: 0, target: 2 }, jump_in: { seat: 2, skipped: 1 },
  hands_passed: { seat: 0, direction: 1 }, limit_pass: { seat: 1, limit: 15 }, dead_round: { hand_sizes: [15, 16] }, bomb: { seat: 0, cards: 3 },
  item: { seat: 0, card, item: "mushroom" }, reshuffle: { cards: 40 },
  first_card: { card }, first_card_returned: { card }, dealer_draw: { draws: [{ seat: 0, card }] },
  dealer_chosen: { dealer: 1 }, round_start: { round: 2, dealer: 1 }, round_over: { winner: 0, points: 87 },
  scores: { scores: [87, 0] }, match_over: { winner: 0 }, final: { winner: 0 }, joined: { seat: 1, name: "Bo" },
  left: { seat: 3, name: "Zed" }, kicked: { seat: 0, by: 0, name: "Zed" }, renamed: { seat: 1, old: "Bob", name: "Bo" },
  started: { match: 2 }, next_match: { seat: 0, edition: "mario_kart", target: null }, rematch_stopped: { reason: "bad_teams", seated: 3 }, bot_added: { seat: 2, bot: "Bot 1", by: 0 }, takeover: { seat: 1 }, returned: { seat: 1 },
  timeout: { seat: 1 }, host: { seat: 1 }, blitz_expiry: { seat: 1, hand_sizes: [3, 2] }, commitment: { round: 1, commitment: "ab" }, secret: { round: 1, secret: "cd" },
  uno_race: { target: 0, attempts: [{ seat: 1, action: "catch", ok: true }, { seat: 0, action: "declare", ok: false }] },
};

for (const lang of ["en", "pl", "sl", "gl"]) {
  test(`every entry kind has words in ${lang}`, async () => {
    await loadCatalogue(lang);
    assert.deepEqual([...KINDS].sort(), Object.keys(SAMPLES).sort(), "a sample for every kind");
    for (const kind of KINDS) {
      const text = describe({ n: 1, kind, ...SAMPLES[kind] }, nameOf);
      assert.ok(text && !/[{}]/.test(text) && !/\b(ev|err|race|why|colour|item)\.\w/.test(text), `${lang} ${kind}: ${text}`);
    }
    if (lang !== "en") {
      // Translated, not English: the kinds the old narrator left to the server's English text.
      await loadCatalogue("en");
      const english = Object.fromEntries(["jump_in", "hands_passed", "kicked", "left", "renamed"].map((k) => [k, describe({ kind: k, ...SAMPLES[k] }, nameOf)]));
      await loadCatalogue(lang);
      for (const [k, en] of Object.entries(english)) assert.notEqual(describe({ kind: k, ...SAMPLES[k] }, nameOf), en, `${lang} ${k}`);
    }
  });
}

test("the blitz expiry says whose fewest cards won the round, or that the match ends between rounds (HR-25, D-8)", async () => {
  await loadCatalogue("en");
  assert.equal(describe({ kind: "blitz_expiry", seat: 1, hand_sizes: [3, 2] }, nameOf),
    "Time! The match clock ran out; Bo had the fewest cards and wins the round.");
  assert.equal(describe({ kind: "blitz_expiry", seat: null }, nameOf), "Time! The match clock ran out between rounds; the match ends here.");
  assert.equal(describe({ kind: "round_over", winner: 1, points: 40, blitz: true }, nameOf), "Bo scores 40 points.");
  for (const lang of ["pl", "sl", "gl"]) {
    await loadCatalogue(lang);
    const text = describe({ kind: "blitz_expiry", seat: null }, nameOf);
    assert.ok(text && !/[{}]/.test(text) && !text.startsWith("Time!"), `${lang}: ${text}`);
    assert.ok(!/[{}]/.test(describe({ kind: "round_over", winner: 1, points: 40, blitz: true }, nameOf)), lang);
  }
});

test("an unknown kind reads as a neutral sentence, never a raw kind or English text", async () => {
  await loadCatalogue("pl");
  assert.equal(describe({ kind: "from_the_future", text: "English" }, nameOf), "Coś się wydarzyło przy stole.");
});

test("errors are worded from their code and params (C-12)", async () => {
  await loadCatalogue("en");
  assert.equal(errorText("too_late", { by: 1, did: "catch", target: 0 }, nameOf), "Too late: Bo caught Ana first.");
  assert.equal(errorText("too_late", { by: 0, did: "declare", target: 0 }, nameOf), "Too late: Ana said UNO! first.");
  assert.equal(errorText("name_taken", { name: "Ana" }, nameOf), "Someone here is already called Ana.");
  assert.equal(errorText("not_your_turn", { seat: 2, decision: "colour" }, nameOf), "It is not your turn. Cy is choosing a colour.");
  assert.equal(errorText("bad_target", null, nameOf, { http: true }), "The target score must be between 1 and 100,000.");
  assert.equal(errorText("bad_target", null, nameOf), "Choose one of your opponents.");
  assert.equal(errorText("no_such_code_yet", null, nameOf), "Something went wrong. Please try again.");
  await loadCatalogue("gl");
  assert.equal(errorText("too_late", { by: 1, did: "catch", target: 0 }, nameOf), "Tarde de máis: Bo pillou primeiro a Ana.");
});

test("the challenge names the colour replaced and what each outcome costs (CL-5, CL-6, MK-4, PP-5, PP-6)", async () => {
  await loadCatalogue("en");
  const wd4 = { name: "wild_draw4", colour: null, face: "wild_draw4", value: 50 };
  const pending = { kind: "challenge", seat: 1, challenged: 0, penalty: 4, replaced_colour: "green" };
  const classic = challengeText("classic", pending, wd4, nameOf);
  assert.match(classic, /over green\. It is legal only if they held no green card\./);
  assert.match(classic, /they draw 4 and you draw nothing; if not, you draw 6\./);
  assert.doesNotMatch(classic, /another card/);
  assert.match(challengeText("mario_kart", pending, wd4, nameOf), /no green card and no Item Box/);
  const stacked = challengeText("classic", { ...pending, penalty: 8 }, wd4, nameOf);
  assert.match(stacked, /they draw 8 .* you draw 10\./); // RULES.md 6.1
  const wd2 = { name: "wild_draw2", colour: null, face: "wild_draw2", value: 50 };
  assert.match(challengeText("pocket_pizza", { ...pending, penalty: 2, replaced_colour: "red" }, wd2, nameOf),
    /no other card they could play.*they draw 2 .* you draw 4\./);
});

test("a 7 asks whom to swap with; All Wild does not offer a draw (AW-5)", async () => {
  await loadCatalogue("en");
  assert.equal(targetTitle({ colour: "blue", face: "7" }), "blue 7: swap hands with whom?");
  assert.equal(targetTitle({ colour: null, face: "wild_forced_swap" }), "Wild Forced Swap: swap hands with whom?");
  assert.doesNotMatch(pendingText("all_wild", { kind: "turn" }), /or draw/);
  assert.match(pendingText("classic", { kind: "turn" }), /or draw/);
});

test("All Wild's symbols and Mario Kart's items explain themselves (AW-2, MK-2)", async () => {
  const { cardHint } = await import("../../static/js/wording.js");
  await loadCatalogue("en");
  assert.equal(cardHint({ colour: null, face: "wild_skip2" }, "all_wild"), "Double Skip: the next two opponents lose their turns.");
  assert.match(cardHint({ colour: "yellow", face: "5", item: "banana_peel" }, "mario_kart"), /^Item: Banana Peel\. It fires only when an Item Box turns this card: /);
  assert.equal(cardHint({ colour: null, face: "wild" }, "classic"), null, "a classic Wild chooses a colour: no All Wild hint");
  await loadCatalogue("sl");
  assert.match(cardHint({ colour: null, face: "wild_forced_swap" }, "all_wild"), /^Prisilna zamenjava/);
});

test("a challenged hand's face-down cards are told by count only; turned-up cards are named (HR-33, D-5)", async () => {
  await loadCatalogue("en");
  const nameOf = (s) => ["Ana", "Bo"][s];
  const shown = describe({ kind: "hand_revealed", seat: 1, cards: [card], face_down: 2 }, nameOf);
  assert.match(shown, /Bo's hand: .*, and 2 face down\./);
  assert.match(describe({ kind: "turned_up", seat: 0, cards: [card] }, nameOf), /^Your face-down cards turned up: /);
});

test("a replay names whose face-down cards turned up (HR-33)", async () => {
  await loadCatalogue("en");
  const { narrate } = await import("../../static/js/replay_view.js");
  const text = narrate({ kind: "turned_up", seat: 1, cards: [card], private: [1] }, (s) => ["Ana", "Bo"][s]);
  assert.match(text, /^Bo's face-down cards turned up: /);
});
