// Unit tests of the table's model under house rules (RULES.md §7): a penalty's ways out
// (HR-3, HR-4), UNO! under strict and silent rules (HR-17, HR-18), teams (HR-26, HR-27) and
// elimination (HR-29, HR-30); derive(view, local) from views shaped as docs/PROTOCOL.md says.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { derive } = await import("../../static/js/table/model.js");
const { teamsModel, watcherModel } = await import("../../static/js/table/sides.js");
const { places, teamStandings } = await import("../../static/js/podium.js");
const { nextSeat } = await import("../../static/js/seating.js");
const { logLines } = await import("../../static/js/logbook.js");
await loadCatalogue("en");

const card = (id, colour, face) => ({ id, name: `${colour || "wild"} ${face}`, colour, face, value: Number(face) || 20 });
const LOCAL = { choosing: null, batch: null, armed: false, dismissedReveal: "", code: "ROOM1234" };
const PLAYERS = ["Ana", "Bo", "Cy", "Di"].map((name, seat) => ({ seat, name, connected: true, bot: seat > 0 }));

/** Four seats, Ana (seat 0) to play; `game` and `table` override the defaults. */
function view({ game = {}, table = {}, rules = {}, you = 0 } = {}) {
  return {
    room: { code: "ROOM1234", name: "Friday", edition: "classic", status: "playing", host: 0, house_rules: rules },
    you, players: PLAYERS, log: [],
    game: {
      edition: "classic", round: 1, dealer: 3, scores: [10, 20, 30, 5], house_rules: rules, ...game,
      table: {
        current: 0, direction: 1, top: card(90, "red", "draw2"), colour: "red", draw_pile: 60, discard_pile: 2,
        hand_sizes: [4, 7, 7, 7], exposed: [], declared: [], skips_owed: [0, 0, 0, 0], pending: { kind: "turn", seat: 0 },
        hand: [card(1, "red", "reverse"), card(2, "red", "skip"), card(3, "blue", "draw2"), card(4, "green", "3")],
        legal: [{ kind: "draw" }], ...table,
      },
    },
  };
}

test("a penalty coming says every way out the hand has: answer, Reverse, Skip, or take (HR-3, HR-4)", () => {
  const legal = [{ kind: "play", card: 1 }, { kind: "play", card: 2 }, { kind: "play", card: 3 }, { kind: "accept" }];
  const m = derive(view({ table: { pending: { kind: "stack", seat: 0, penalty: 4 }, legal } }), LOCAL);
  assert.equal(m.decision.kind, "stack");
  assert.equal(m.decision.title, "4 cards coming your way");
  assert.equal(m.decision.text, "Answer with a Draw card to pass them all on. Deflect them with a Reverse. Deflect them with a Skip. Or take all 4.");
  // The take first (the focus's safe choice), then every answering card, as a tap on it in the
  // hand (a phone's decision sheet lies over the hand): in the hand's order.
  assert.deepEqual(m.decision.options.map((o) => o.option), ["accept", "card-2", "card-1", "card-3"]);
  assert.deepEqual(m.decision.options.slice(1).map((o) => o.tap), [2, 1, 3]);
  const byId = Object.fromEntries(m.hand.map((c) => [c.id, c]));
  assert.deepEqual([byId[1].playable, byId[2].playable, byId[3].playable, byId[4].playable], [true, true, true, false]);
  assert.match(byId[1].label, /deflects the draw/);
  assert.match(byId[3].label, /answers the draw/);
  // Only a Reverse deflects (HR-3 without HR-4 or stacking): the box says just that.
  const reverse = derive(view({ table: { pending: { kind: "stack", seat: 0, penalty: 2 }, legal: [{ kind: "play", card: 1 }, { kind: "accept" }] } }), LOCAL);
  assert.equal(reverse.decision.text, "Deflect them with a Reverse. Or take all 2.");
  const none = derive(view({ table: { pending: { kind: "stack", seat: 0, penalty: 2 }, legal: [{ kind: "accept" }] } }), LOCAL);
  assert.equal(none.decision.text, "Nothing in your hand answers it: take the 2 cards.");
  assert.equal(none.status.text, "Nothing answers the draw: take the cards.");
  assert.equal(m.status.text, "Answer the draw from your hand, or take the cards.");
});

test("strict UNO! declares on its own, never arms; silent UNO! has no button (HR-17, HR-18)", () => {
  const strict = { strict_uno: true };
  const exposed = derive(view({ rules: strict, table: { exposed: [0], hand_sizes: [1, 7, 7, 7], legal: [{ kind: "declare_uno" }] } }), LOCAL);
  assert.equal(exposed.actions.uno.mode, "declare");
  assert.equal(exposed.actions.uno.strict, true);
  assert.equal(exposed.actions.uno.hidden, false);
  // Two cards left and a play that leaves one: strict UNO! lists no `uno: true`, so no tip, no arming.
  const before = derive(view({ rules: strict, table: { legal: [{ kind: "play", card: 4 }, { kind: "draw" }] } }), LOCAL);
  assert.equal(before.actions.unoTip, false);
  assert.equal(before.actions.uno.mode, "idle");
  const silent = derive(view({ rules: { silent_uno: true } }), LOCAL);
  assert.equal(silent.actions.uno.hidden, true);
  assert.equal(derive(view(), LOCAL).actions.uno.hidden, false);
});

test("partners share a team on the chips, the scores panel totals the teams (HR-26, HR-27)", () => {
  const game = { teams: [[0, 2], [1, 3]], team_scores: [40, 25] };
  const m = derive(view({ game, rules: { team_play: true } }), LOCAL);
  const chips = Object.fromEntries(m.seats.chips.map((c) => [c.seat, c]));
  assert.deepEqual([chips[1].team, chips[2].team, chips[3].team], [1, 0, 1]);
  assert.deepEqual([chips[1].partner, chips[2].partner, chips[3].partner], [false, true, false]);
  assert.equal(m.me.team, 0);
  const v = view({ game });
  const nameOf = (s) => PLAYERS[s].name;
  assert.deepEqual(teamsModel(v, nameOf).map((r) => [r.team, r.names, r.score, r.mine]), [[0, "Ana & Cy", 40, true], [1, "Bo & Di", 25, false]]);
  // Under penalty scoring (HR-23) the lower total leads.
  assert.deepEqual(teamsModel(view({ game, rules: { scoring: "penalty" } }), nameOf).map((r) => r.team), [1, 0]);
  assert.equal(teamsModel(view(), nameOf), null);
  assert.equal(derive(view(), LOCAL).seats.chips[0].team, null);
});

test("the podium stands the teams, the winner's team first (HR-27)", () => {
  const nameOf = (s) => PLAYERS[s].name;
  const summary = { match_winner: 2, table: [] };
  const teams = teamStandings(summary, { teams: [[0, 2], [1, 3]], team_scores: [120, 130] }, nameOf);
  assert.equal(teams.winner, 0);
  const standing = places(teams.table, teams.winner);
  assert.deepEqual(standing.map((p) => [p.place, p.players[0].name]), [[1, "Team 1: Ana & Cy"], [2, "Team 2: Bo & Di"]]);
  assert.equal(teamStandings(summary, { scores: [1, 2] }, nameOf), null);
});

test("a seat out of the match is marked and passed over; its own table watches (HR-29, HR-30)", () => {
  const game = { eliminated: [1] };
  const table = { hand_sizes: [4, 0, 7, 7] };
  const m = derive(view({ game, table, rules: { elimination: "cards" } }), LOCAL);
  const chips = Object.fromEntries(m.seats.chips.map((c) => [c.seat, c]));
  assert.equal(chips[1].out, true);
  assert.equal(chips[2].out, false);
  assert.equal(chips[2].next, true); // seat 1 is passed over
  assert.equal(m.watcher, null);
  assert.equal(nextSeat(4, 1, 0, [0, 0, 0, 0], new Set([1])), 2);
  assert.equal(nextSeat(4, -1, 3, [0, 0, 0, 0], new Set([2, 1])), 0);
  // Bo's own table: a watcher's, with no actions.
  const bo = view({ game, table: { ...table, hand: [], legal: [] }, you: 1 });
  const theirs = derive(bo, LOCAL);
  assert.equal(theirs.watcher.title, "You are out of the match.");
  assert.match(theirs.watcher.text, /3 players still in/);
  assert.equal(theirs.me.out, true);
  assert.equal(theirs.actions.draw.hidden, true);
  assert.equal(theirs.actions.uno.disabled, true);
  assert.equal(watcherModel(view()), null);
});

test("the log tells bombs, batches, misplays, hand-limit passes and who is out (HR-8, HR-9, HR-12, HR-20, HR-29)", () => {
  const seven = (colour) => ({ name: `${colour} 7`, colour, face: "7" });
  const log = [
    { n: 1, kind: "play", seat: 0, card: seven("green"), batch: [seven("red"), seven("blue"), seven("green")] },
    { n: 2, kind: "bomb", seat: 0, cards: 3 },
    { n: 3, kind: "draw", seat: 1, count: 1, reason: "bomb" },
    { n: 4, kind: "misplay", seat: 2, cards: [{ name: "blue 4", colour: "blue", face: "4" }] },
    { n: 5, kind: "draw", seat: 2, count: 1, reason: "misplay" },
    { n: 6, kind: "limit_pass", seat: 3, limit: 15 },
    { n: 7, kind: "eliminated", seat: 1 },
  ];
  const lines = logLines({ log, private: [], room: { match_id: null } }, (s) => PLAYERS[s].name).map((l) => l.text);
  assert.deepEqual(lines, [
    "Ana played 3 cards at once: red 7, blue 7, green 7.",
    "Boom! Ana's batch of 3 cards is a bomb: everyone else draws 1.",
    "Bo drew a card from the bomb.",
    "Cy tried to play blue 4, which could not be played there.",
    "Cy drew a card for a misplay.",
    "Di holds 15 cards or more and nothing to play: the turn passes.",
    "Bo is out of the match.",
  ]);
});
