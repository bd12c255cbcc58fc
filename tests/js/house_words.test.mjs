// The words for a room's house rules before the server's schema (GET /api/house-rules) has come:
// static/js/dom.js names the on/off options that are on from the room's own house_rules object,
// with no list of options of its own (the options are declared once, in app/engine/house/options.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { hasOptions, optionsText } = await import("../../static/js/dom.js");
await loadCatalogue("en");

test("before the schema, every on/off option that is on is named, and the rounds (RULES.md §6, §7)", () => {
  const rules = { stacking: true, stack_only: "off", jump_in: false, rounds: 3, multi_play: true, bomb: true,
    preset: "party" };
  assert.equal(optionsText({ house_rules: rules, turn_seconds: null }),
    "House rules: Stacking, Several of a number, Bomb, 3 rounds");
  assert.equal(hasOptions({ house_rules: { stacking: false, scoring: "winner" }, turn_seconds: null }),
    false);
});
