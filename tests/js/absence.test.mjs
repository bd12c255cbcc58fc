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

test("the server's tally says what the bot did: cards played, drawn, penalties, a Seven-O swap, where you stand", async () => {
  await loadCatalogue("en");
  const away = { played: 3, drew: 2, penalty: 4, caught: 1, swaps: [{ by: 0, with: 2 }, { by: 1, with: 1 }], passed: 1,
    rounds: [{ round: 2, winner: 1, points: 56 }] };
  const view = { room: { status: "playing" }, game: { table: { hand_sizes: [6, 3, 2] }, scores: [12, 56, 0] },
    log: [e("play", { seat: 1 }), e("returned", { seat: 0, away })] };
  const report = awayReport(view, 0, nameOf);
  assert.equal(report.n, view.log.at(-1).n);
  assert.deepEqual(report.lines, ["The bot played 3 of your cards.", "It drew 2 cards on your turns.",
    "You had to take 4 cards from Draw cards and penalties.", "You were caught not saying UNO! once.",
    "The bot swapped your whole hand with Cleo.", "Ben swapped hands with you: your whole hand changed.",
    "Every hand was passed on once: your hand changed.", "Ben won round 2 (56 points).",
    "Now you hold 6 cards and have 12 points."]);
  // A tally with nothing in it tells nothing, even if the log the page holds is empty of moves.
  assert.equal(awayReport({ log: [e("returned", { seat: 0, away: {} })] }, 0, nameOf), null);
});

test("the tally's every line is worded in every language", async () => {
  const away = { played: 3, drew: 1, penalty: 2, caught: 2, swaps: [{ by: 0, with: 2 }, { by: 2, with: 2 }], passed: 2,
    earlier_rounds: 4, rounds: [{ round: 7, winner: 0, points: 9 }], matches: [1], host: 1 };
  const view = { room: { status: "playing" }, game: { table: { hand_sizes: [1, 3, 2] }, scores: [9, 0, 0] },
    log: [e("returned", { seat: 0, away })] };
  for (const lang of ["en", "pl", "sl", "gl"]) {
    await loadCatalogue(lang);
    const { lines } = awayReport(view, 0, nameOf);
    assert.equal(lines.length, 12, lang);
    for (const line of lines) assert.ok(!/[{}]|away\./.test(line), `${lang}: ${line}`);
    assert.ok(lines.some((l) => l.includes("Cleo")), lang);
  }
});
