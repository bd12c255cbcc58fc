// The house-rules form's and labels' logic against the server's own schema (GET /api/house-rules,
// built here by app/web/house_rules.py itself): HX-1's needs and conflicts, the editions' refusals,
// the labels, and a preset's changes (D-2).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import "./catalogues.mjs";

const root = new URL("../../", import.meta.url);
const schema = JSON.parse(execFileSync("uv", ["run", "--frozen", "python", "-c",
  "import json; from app.web.house_rules import schema; print(json.dumps(schema()))"], { cwd: root, encoding: "utf8" }));
const { loadCatalogue } = await import("../../static/js/i18n.js");
const { allOptions, presetLabel, ruleLabel, rulesOn } = await import("../../static/js/house_rules_badges.js");
const { reasonFor } = await import("../../static/js/house_rules_form.js");
await loadCatalogue("en");

const byKey = Object.fromEntries(allOptions(schema).map((o) => [o.key, o]));
const defaults = () => Object.fromEntries(allOptions(schema).map((o) => [o.key, o.default]));
const why = (values, key, value, edition = "classic", timer = null) =>
  reasonFor({ byKey, values: { ...defaults(), ...values } }, key, value, edition, timer);

test("an option that needs another says so until it is on (HX-1)", () => {
  assert.equal(why({}, "cross_stack", "both"), "Needs Stacking");
  assert.equal(why({ stacking: true }, "cross_stack", "both"), null);
  assert.equal(why({}, "bomb", true), "Needs Several of a number");
  assert.equal(why({}, "fast_mode", true), "Needs a turn timer");
  assert.equal(why({}, "fast_mode", true, "classic", 30), null);
});

test("an option that cannot go with another says which, from either side (HX-1)", () => {
  assert.equal(why({ stacking: true, cross_stack: "up" }, "stack_only", "small"), "Not with Cross-stack");
  assert.equal(why({ stacking: true, stack_only: "big" }, "cross_stack", "up"), "Not with One kind only");
  assert.equal(why({ silent_uno: true }, "uno_penalty", 4), "Not with No UNO!");
  assert.equal(why({ uno_penalty: 6 }, "silent_uno", true), "Not with Catch penalty");
  // Only the named values clash: a 7 to the next seat cannot go with "only the 0 exchanges".
  assert.equal(why({ seven_o: true, seven_o_cards: "zero" }, "seven_target", "next"), "Not with Which cards exchange");
  assert.equal(why({ seven_o: true, seven_o_cards: "seven" }, "seven_target", "next"), null);
  assert.equal(why({ seven_o: true, seven_target: "next" }, "seven_o_cards", "zero"), "Not with Swap with whom");
  assert.equal(why({ seven_o: true, seven_target: "next" }, "seven_o_cards", "seven"), null);
  assert.equal(why({ rounds: 3 }, "single_round", true), "Not with Fixed rounds");
});

test("what an edition refuses says which edition (HX-1)", () => {
  assert.equal(why({}, "no_challenge", true, "all_wild"), "Not in All Wild");
  assert.equal(why({}, "no_challenge", true, "classic"), null);
  assert.equal(why({ seven_o: true }, "seven_o_cards", "zero", "pocket_pizza"), "Not in Pocket Pizza");
  assert.equal(why({ seven_o: true }, "seven_o_cards", "seven", "pocket_pizza"), null);
  assert.equal(why({}, "finish_with", "number", "all_wild"), "Not in All Wild");
  assert.equal(why({}, "finish_with", "no_draw", "all_wild"), null);
});

test("the labels of what is on, in the order of RULES.md 7, and a preset's changes (HR-34, D-2)", () => {
  const stored = { ...defaults(), stacking: true, seven_o: true, jump_in: true, draw_until_playable: true, preset: "party" };
  assert.deepEqual(rulesOn(schema, stored).map(({ option, value }) => ruleLabel(option, value)),
    ["Stacking", "Seven-O", "Jump-In", "Draw until playable"]);
  assert.equal(presetLabel(schema, stored, "classic"), "Party");
  assert.equal(presetLabel(schema, { ...stored, jump_in: false, revenge: true }, "classic"), "Party + 2 changes");
  const more = { ...defaults(), rounds: 3, blitz_seconds: 300, cross_stack: "both", hand_limit: 20 };
  assert.deepEqual(rulesOn(schema, more).map(({ option, value }) => ruleLabel(option, value)),
    ["3 rounds", "Cross-stack: Both ways", "Hand limit: 20 cards", "Blitz: 5 min"]);
  assert.equal(presetLabel(schema, more, "classic"), null);
});
