// Coming back: the returning player is told what happened while a bot played their seat.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";
const { loadCatalogue } = await import("../../static/js/i18n.js");
const { awayReport } = await import("../../static/js/absence.js");

const names = ["Ana", "Ben", "Cleo"];
const nameOf = (seat) => names[seat];
let n = 0;
const e = (kind, data = {}) => ({ n: ++n, kind, ...data });

test("a return is told: the bot's moves, the round it won for you, who hosts now", async () => {
  await loadCatalogue("en");
  const log = [e("round_start", { round: 2, dealer: 1 }), e("takeover", { seat: 0 }), e("host", { seat: 1 }),
    e("play", { seat: 0 }), e("draw", { seat: 0, count: 1, reason: "turn" }), e("draw", { seat: 0, count: 2, reason: "card" }),
    e("play", { seat: 1 }), e("play", { seat: 0 }), e("round_over", { winner: 0, points: 420 }), e("returned", { seat: 0 })];
  const report = awayReport({ log }, 0, nameOf);
  assert.equal(report.n, log.at(-1).n);
  assert.deepEqual(report.lines, ["A bot made 3 moves for you.", "Ben is the host now.",
    "You won round 2 (420 points), with the bot playing for you."]);
});

test("nothing to tell: no return, another seat's return, or a log that no longer reaches the start", async () => {
  await loadCatalogue("en");
  assert.equal(awayReport({ log: [e("takeover", { seat: 0 }), e("play", { seat: 0 })] }, 0, nameOf), null);
  assert.equal(awayReport({ log: [e("takeover", { seat: 1 }), e("play", { seat: 1 }), e("returned", { seat: 1 })] }, 0, nameOf), null);
  assert.equal(awayReport({ log: [e("play", { seat: 0 }), e("returned", { seat: 0 })] }, 0, nameOf), null);
  assert.equal(awayReport({ log: [e("takeover", { seat: 0 }), e("returned", { seat: 0 })] }, 0, nameOf), null, "nothing happened");
  assert.equal(awayReport({ log: [e("takeover", { seat: 0 }), e("play", { seat: 0 }), e("returned", { seat: 0 })] }, null, nameOf), null, "a spectator");
});

test("one move is told as one", async () => {
  await loadCatalogue("en");
  const log = [e("takeover", { seat: 0 }), e("play", { seat: 0 }), e("returned", { seat: 0 })];
  assert.deepEqual(awayReport({ log }, 0, nameOf).lines, ["A bot made a move for you."]);
});

test("another player's round win and the match's end are told in every language", async () => {
  for (const lang of ["en", "pl", "sl", "gl"]) {
    await loadCatalogue(lang);
    const log = [e("takeover", { seat: 2 }), e("round_over", { winner: 1, points: 80 }), e("match_over", { winner: 1 }), e("returned", { seat: 2 })];
    const { lines } = awayReport({ log }, 2, nameOf);
    assert.equal(lines.length, 2, lang);
    for (const line of lines) assert.ok(line.includes("Ben") && !/[{}]|away\./.test(line), `${lang}: ${line}`);
  }
});
