// Team credit (HR-26, HR-27, HX-14): the log, the round summary, the replay and the match page
// name the team a round's points and the match went to, with its total, in every language.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { describe } = await import("../../static/js/narrate.js");
const { creditedTotal, matchWinnerLine, roundLine, teamIndex, teamsOf } = await import("../../static/js/credit.js");

const names = ["Ana", "Bo", "Cy", "Di"];
const nameOf = (seat) => names[seat];
const teams = [[0, 2], [1, 3]];

test("the partners share a team and its total, from a match's configuration (HR-26, HX-14)", () => {
  assert.deepEqual(teamsOf({ seats: 4, house: { team_play: true } }), teams);
  assert.equal(teamsOf({ seats: 4, house: {} }), null);
  assert.equal(teamIndex(teams, 2), 0);
  assert.equal(creditedTotal(teams, [0, 30, 162, 10], 0), 162); // the seat that went out holds 0 of it
  assert.equal(creditedTotal(null, [0, 30, 162, 10], 0), 0);
});

for (const lang of ["en", "pl", "sl", "gl"]) {
  test(`the log credits the team with the round and the match in ${lang} (HR-27)`, async () => {
    await loadCatalogue(lang);
    const over = describe({ kind: "round_over", winner: 0, points: 14, team: [0, 2] }, nameOf);
    assert.match(over, /Ana/);
    assert.match(over, /\(Ana & Cy\)/);
    assert.match(over, /14/);
    const scores = describe({ kind: "scores", scores: [14, 0, 0, 0], teams, team_scores: [14, 0] }, nameOf);
    assert.match(scores, /\(Ana & Cy\) 14, .*\(Bo & Di\) 0/);
    const won = describe({ kind: "match_over", winner: 0, team: [0, 2] }, nameOf);
    assert.match(won, /\(Ana & Cy\)/);
    assert.equal(roundLine(teams, 0, 14, nameOf), over);
    assert.equal(matchWinnerLine(teams, 2, nameOf), won); // either partner names the same team
    assert.doesNotMatch(over + scores + won, /\{|\}/);
  });
}

for (const lang of ["en", "pl", "sl", "gl"]) {
  test(`under penalty scoring the round's points are the others' own, not the winner's, in ${lang} (HR-23)`, async () => {
    await loadCatalogue(lang);
    const over = describe({ kind: "round_over", winner: 0, points: 25, penalty: true }, nameOf);
    assert.equal(roundLine(null, 0, 25, nameOf, true), over);
    assert.notEqual(over, describe({ kind: "round_over", winner: 0, points: 25 }, nameOf));
    assert.match(over, /Ana.*25/);
  });
}
