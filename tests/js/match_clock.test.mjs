// HR-25's match clock in the table's head: mm:ss left, only while a blitz match is on.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { clockText, matchSecondsLeft } = await import("../../static/js/table/match_clock.js");

test("the match clock reads minutes and two-digit seconds, never below zero (HR-25)", () => {
  assert.equal(clockText(300), "5:00");
  assert.equal(clockText(299.2), "5:00"); // a second started is a second left
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(9), "0:09");
  assert.equal(clockText(-3), "0:00");
});

test("the match clock runs through rounds and breaks, and stops with the match (HR-25, D-8)", () => {
  const now = 1_000_000;
  const room = (status, deadline) => ({ status, blitz_deadline: deadline });
  assert.equal(matchSecondsLeft(room("playing", now + 120), now), 120);
  assert.equal(matchSecondsLeft(room("between", now + 42), now), 42);
  assert.equal(matchSecondsLeft(room("playing", now - 5), now), 0);
  assert.equal(matchSecondsLeft(room("over", now + 42), now), null);
  assert.equal(matchSecondsLeft(room("waiting", now + 42), now), null);
  assert.equal(matchSecondsLeft(room("playing", null), now), null); // no blitz
  assert.equal(matchSecondsLeft(null, now), null);
});
