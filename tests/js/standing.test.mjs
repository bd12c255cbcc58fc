// Where a player stands on a leaderboard, or what is left before they are on it, in words.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";
const { loadCatalogue } = await import("../../static/js/i18n.js");
const { standingText } = await import("../../static/js/standing.js");

const entry = (over) => ({ ranked: false, rank: null, ranked_players: null, matches_left: 0, opponents_left: 0, ...over });

test("what is left is said as a player would say it, one and many", async () => {
  await loadCatalogue("en");
  assert.equal(standingText(entry({ matches_left: 2, opponents_left: 1 })), "Ranked after 2 more rated matches against 1 more player.");
  assert.equal(standingText(entry({ matches_left: 1 })), "Ranked after 1 more rated match.");
  assert.equal(standingText(entry({ opponents_left: 2 })), "Ranked after a rated match against 2 more players.");
  assert.equal(standingText(entry({ ranked: true, rank: 3, ranked_players: 12 })), "No. 3 of 12 ranked players.");
});

test("every language words every case, with nothing left unfilled", async () => {
  const cases = [entry({ matches_left: 2, opponents_left: 1 }), entry({ matches_left: 1, opponents_left: 2 }),
    entry({ matches_left: 3 }), entry({ opponents_left: 1 }), entry({ ranked: true, rank: 1, ranked_players: 4 })];
  for (const lang of ["en", "pl", "sl", "gl"]) {
    await loadCatalogue(lang);
    for (const c of cases) {
      const text = standingText(c);
      assert.ok(text && !/[{}]|players\.[a-z]/.test(text), `${lang}: ${text}`);
    }
  }
});
