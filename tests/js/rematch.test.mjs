// Playing again (static/js/rematch.js): why a rematch is not coming stays in view while the
// table is as it was when the server said so (HR-26's teams, too few at the table).
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { stoppedNote } = await import("../../static/js/rematch.js");

const note = { n: 9, kind: "rematch_stopped", reason: "bad_teams", seated: 3 };

test("a stopped rematch's reason stands until the table changes (HR-26)", () => {
  assert.equal(stoppedNote({ log: [] }), null);
  assert.deepEqual(stoppedNote({ log: [{ n: 1, kind: "left", seat: 3, name: "Di" }, note] }), note);
  assert.deepEqual(stoppedNote({ log: [note, { n: 10, kind: "uno_race" }] }), note); // unrelated notes pass
  for (const kind of ["joined", "left", "next_match", "started", "bot_added"]) {
    assert.equal(stoppedNote({ log: [note, { n: 10, kind, seat: 1 }] }), null, kind);
  }
});
