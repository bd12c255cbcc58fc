// Unit tests of static/js/table/model.js and decision.js: derive(view, local) → the table
// model, worked out with no DOM from a view shaped as docs/PROTOCOL.md describes it.
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { derive, modeOf, namer } = await import("../../static/js/table/model.js");
const { choiceStillLegal, decisionModel, pickUno, same, unoMode } = await import("../../static/js/table/decision.js");
await loadCatalogue("en");

const card = (id, colour, face) => ({ id, name: `${colour || "wild"} ${face}`, colour, face, value: Number(face) || 20 });
const LOCAL = { choosing: null, armed: false, dismissedReveal: "", code: "ROOM1234" };

/** A two-seat classic table, Ana (you, seat 0) to play, overridden by `table` and `room`. */
function view({ table = {}, room = {}, you = 0, log = [] } = {}) {
  return {
    room: { code: "ROOM1234", name: "Friday", edition: "classic", status: "playing", host: 0, house_rules: {}, turn_seconds: null, ...room },
    you,
    players: [{ seat: 0, name: "Ana", connected: true }, { seat: 1, name: "Bo", connected: true }],
    log,
    game: {
      edition: "classic", round: 2, dealer: 1, scores: [10, 30],
      table: {
        current: 0, direction: 1, top: card(90, "red", "5"), colour: "red", draw_pile: 80, discard_pile: 3,
        hand_sizes: [3, 4], exposed: [], declared: [], skips_owed: [0, 0], pending: { kind: "turn", seat: 0 },
        hand: [card(3, "red", "7"), card(1, "blue", "2"), card(7, null, "wild")],
        legal: [{ kind: "play", card: 3 }, { kind: "play", card: 7, colour: "red" }, { kind: "play", card: 7, colour: "blue" },
          { kind: "play", card: 7, colour: "green" }, { kind: "play", card: 7, colour: "yellow" }, { kind: "draw" }],
        ...table,
      },
    },
  };
}

test("the mode is the waiting room until a game is dealt", () => {
  assert.equal(modeOf({ room: { status: "waiting" }, game: null }), "waiting");
  assert.equal(modeOf(view()), "game");
  const m = derive({ ...view(), game: null, room: { ...view().room, status: "waiting" } }, LOCAL);
  assert.deepEqual(Object.keys(m).sort(), ["mode", "myTurn", "title"]);
});

test("your turn shows in the title, the table's state and your bar", () => {
  const m = derive(view(), LOCAL);
  assert.equal(m.myTurn, true);
  assert.match(m.title, /^● Your turn · Friday/);
  assert.deepEqual(m.table, { edition: "classic", myTurn: true, pendingKind: "turn", handCount: 3, status: "playing" });
  assert.equal(m.me.name, "Ana");
  assert.equal(m.me.turn, true);
  assert.equal(m.me.score, 10);
  const theirs = derive(view({ table: { current: 1, pending: { kind: "turn", seat: 1 } } }), LOCAL);
  assert.equal(theirs.myTurn, false);
  assert.equal(theirs.me.turn, false);
  assert.equal(theirs.status.text.includes("Bo"), true);
});

test("the hand is sorted and each card says whether it can be played", () => {
  const m = derive(view(), LOCAL);
  const byId = Object.fromEntries(m.hand.map((c) => [c.id, c]));
  assert.equal(byId[3].playable, true);
  assert.equal(byId[1].playable, false);
  assert.match(byId[3].label, /playable/);
  assert.doesNotMatch(byId[1].label, /playable/);
  // Between rounds nothing is playable, whatever `legal` says.
  const over = derive(view({ room: { status: "between" } }), LOCAL);
  assert.equal(over.hand.some((c) => c.playable), false);
  assert.equal(over.decision, null);
});

test("the piles: the draw pile, the card on top, who played it", () => {
  const log = [{ n: 4, kind: "play", seat: 1, card: { name: "red 5", colour: "red", face: "5" } }];
  const m = derive(view({ log, table: { top: card(90, "red", "5") } }), LOCAL);
  assert.equal(m.piles.drawCount, 80);
  assert.equal(m.piles.canDraw, true);
  assert.equal(m.piles.topKey, "90/3");
  assert.equal(m.piles.playedBy, 1); // the last play is the top card (log cards carry no id)
  const dealt = derive(view({ log, table: { top: card(91, "blue", "5") } }), LOCAL);
  assert.equal(dealt.piles.playedBy, null);
  assert.equal(m.ticker.n, 4);
  assert.match(m.ticker.text, /Bo/);
});

test("a wild from the hand asks for a colour; the choice is dropped once it is no longer legal", () => {
  const variants = view().game.table.legal.filter((a) => a.card === 7);
  const choosing = { card: 7, variants };
  const m = derive(view(), { ...LOCAL, choosing });
  assert.equal(m.decision.kind, "colour");
  assert.deepEqual(m.decision.options.map((o) => o.option), ["red", "blue", "green", "yellow"]);
  assert.equal(m.decision.cancel, true);
  assert.equal(m.staleChoice, false);
  // The turn moved on: the choice cannot be made, and derive says so without changing `local`.
  const local = { ...LOCAL, choosing };
  const moved = derive(view({ table: { pending: { kind: "turn", seat: 1 }, legal: [] } }), local);
  assert.equal(moved.staleChoice, true);
  assert.equal(moved.decision, null);
  assert.equal(local.choosing, choosing);
});

test("a play that can leave one card offers UNO! with it, the safe choice first in focus (C-11)", () => {
  const legal = [{ kind: "play", card: 3 }, { kind: "play", card: 3, uno: true }];
  const v = view({ table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 4], legal } });
  const d = decisionModel(v, { ...LOCAL, choosing: { card: 3, variants: legal, unoChoice: true } }, namer(v));
  assert.equal(d.kind, "uno");
  const primary = d.options.find((o) => o.primary);
  assert.equal(primary.option, "play-uno");
  assert.deepEqual(primary.choose, { card: 3, variants: [{ kind: "play", card: 3, uno: true }] });
  assert.deepEqual(pickUno(legal, true), [{ kind: "play", card: 3, uno: true }]);
  assert.deepEqual(pickUno(legal, false), [{ kind: "play", card: 3 }]);
  assert.equal(unoMode(legal).mode, "arm");
  assert.equal(derive(v, LOCAL).actions.unoTip, true);
});

test("UNO! said before the play answers the question: the button shows it said, no tip, no arming (C-11)", () => {
  const legal = [{ kind: "play", card: 3 }, { kind: "play", card: 3, uno: true }];
  const v = view({ table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 4], legal, predeclared: 0 } });
  const m = derive(v, LOCAL);
  assert.equal(m.actions.uno.mode, "idle");
  assert.equal(m.actions.uno.pressed, true);
  assert.equal(m.actions.unoTip, false);
  assert.equal(m.me.declared, true);
  // Another seat's early UNO! changes nothing for you.
  const other = derive(view({ table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 4], legal, predeclared: 1 } }), LOCAL);
  assert.equal(other.actions.uno.mode, "arm");
  assert.equal(other.actions.unoTip, true);
});

test("a challenge decision names the replaced colour and offers accept and challenge (CL-6)", () => {
  const legal = [{ kind: "accept" }, { kind: "challenge" }];
  const v = view({ table: { top: card(95, null, "wild_draw4"), pending: { kind: "challenge", seat: 0, penalty: 4, replaced_colour: "green", by: 1 }, legal } });
  const d = derive(v, LOCAL).decision;
  assert.equal(d.kind, "challenge");
  assert.equal(d.replaced, "green");
  assert.deepEqual(d.options.map((o) => o.option), ["accept", "challenge"]);
  assert.deepEqual(d.options[0].action, { kind: "accept" });
});

test("the UNO! button declares, catches or idles from the legal moves", () => {
  assert.equal(unoMode([{ kind: "declare_uno" }]).mode, "declare");
  assert.deepEqual(unoMode([{ kind: "catch", target: 1 }]), { mode: "catch", action: { kind: "catch", target: 1 } });
  assert.equal(unoMode([{ kind: "draw" }]).mode, "idle");
  const m = derive(view({ table: { legal: [{ kind: "catch", target: 1 }] } }), LOCAL);
  assert.equal(m.actions.uno.mode, "catch");
  assert.match(m.actions.uno.label, /Bo/);
  const watching = derive(view({ you: null, table: { hand: undefined, legal: undefined } }), LOCAL);
  assert.equal(watching.me, null);
  assert.equal(watching.actions.uno.disabled, true);
  assert.equal(watching.actions.draw.hidden, true);
});

test("AW-5, HR-15: where a turn must play, the Draw button shows only when a draw is legal", () => {
  const mustPlay = (legal, draw = "last_card") => {
    const v = view({ table: { legal } });
    return derive({ ...v, game: { ...v.game, turn_draw: { draw } } }, LOCAL);
  };
  assert.equal(mustPlay([{ kind: "play", card: 3 }], "never").actions.draw.hidden, true); // AW-5
  assert.equal(mustPlay([{ kind: "play", card: 3 }]).actions.draw.hidden, true);
  const past = mustPlay([{ kind: "draw" }]); // HR-15: a last card that may not finish is drawn past
  assert.equal(past.actions.draw.hidden, false);
  assert.equal(past.actions.draw.disabled, false);
  // C-6: at a table where a turn may always draw, the button is there, greyed when not legal.
  const c6 = mustPlay([{ kind: "play", card: 3 }], "always").actions.draw;
  assert.deepEqual([c6.hidden, c6.disabled], [false, true]);
});

test("a revealed hand shows until closed, by its key", () => {
  const v = view({ table: { revealed: { seat: 1, cards: [card(5, "blue", "9"), card(4, "red", "1")] } } });
  const m = derive(v, LOCAL);
  assert.equal(m.revealed.key, "1:5,4");
  assert.match(m.revealed.title, /Bo/);
  assert.equal(derive(v, { ...LOCAL, dismissedReveal: "1:5,4" }).revealed, null);
});

test("same() compares plain data deeply; a choice is legal only while all its variants are", () => {
  assert.equal(same({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
  assert.equal(same({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }), false);
  assert.equal(same({ a: 1 }, { a: 1, b: undefined }), false);
  assert.equal(same([1], { 0: 1 }), false);
  const v = view();
  assert.equal(choiceStillLegal(v, { card: 3, variants: [{ kind: "play", card: 3 }] }), true);
  assert.equal(choiceStillLegal(v, { card: 1, variants: [{ kind: "play", card: 1 }] }), false);
  assert.equal(choiceStillLegal(v, null), false);
});

test("the same view and local state give the same model (derive is pure)", () => {
  const v = view();
  const before = structuredClone(v);
  assert.deepEqual(derive(v, LOCAL), derive(v, LOCAL));
  assert.deepEqual(v, before);
});

test("the seats come in play order from yours, with the turn and the next player marked (C-1)", () => {
  const players = ["Ana", "Bo", "Cy", "Di"].map((name, seat) => ({ seat, name, connected: seat !== 2, bot: seat === 3 }));
  const v = { ...view({ table: { hand_sizes: [3, 4, 1, 5], current: 1, declared: [2], skips_owed: [0, 0, 0, 0], pending: { kind: "turn", seat: 1 } } }), players };
  const seats = derive(v, LOCAL).seats;
  assert.deepEqual(seats.chips.map((c) => c.seat), [1, 2, 3]);
  assert.deepEqual(seats.chips.map((c) => [c.turn, c.next]), [[true, false], [false, true], [false, false]]);
  assert.equal(seats.chips[1].saidUno, true);
  assert.equal(seats.chips[1].here, false); // away
  assert.equal(seats.chips[2].here, true); // a bot is always here
  assert.equal(seats.chips[1].open, null); // hands are hidden unless the room opens them
  const open = [null, null, [{ id: 7, colour: "red", face: "5" }], null];
  const shown = derive({ ...v, game: { ...v.game, table: { ...v.game.table, open_hands: open } } }, LOCAL).seats;
  assert.deepEqual(shown.chips.map((c) => c.open), [null, { cards: open[2], faceDown: 0 }, null]); // HR-31: Cy's one card, face up
  // D-13: a face-down card (HR-33) in an open hand comes as a count of backs, never a face.
  const blind = { ...v.game.table, open_hands: [null, null, [], null], open_face_down: [null, null, 1, null] };
  const backs = derive({ ...v, game: { ...v.game, table: blind } }, LOCAL).seats;
  assert.deepEqual(backs.chips[1].open, { cards: [], faceDown: 1 });
  const reversed = derive({ ...v, game: { ...v.game, table: { ...v.game.table, direction: -1 } } }, LOCAL).seats;
  assert.deepEqual(reversed.chips.map((c) => c.seat), [3, 2, 1]);
  // Counter-clockwise from Bo (seat 1) comes Ana (you, seat 0): no other chip says next.
  assert.equal(reversed.chips.some((c) => c.next), false);
});

test("face-down cards are backs at the end of your hand, never playable, labelled as such (HR-33)", () => {
  const m = derive(view({ table: { face_down: 2, hand_sizes: [5, 4] } }), LOCAL);
  const backs = m.hand.filter((c) => c.faceDown);
  assert.equal(backs.length, 2);
  assert.deepEqual(m.hand.slice(-2), backs);
  for (const b of backs) {
    assert.equal(b.id < 0, true);
    assert.equal(b.playable, false);
    assert.equal(b.card, null);
    assert.equal(b.label, "face-down card");
  }
  assert.equal(m.table.handCount, 5);
  const onlyBacks = derive(view({ table: { hand: [], face_down: 1, legal: [{ kind: "draw" }] } }), LOCAL);
  assert.equal(onlyBacks.empty, false);
  const revealed = derive(view({ table: { revealed: { seat: 1, cards: [card(5, "red", "1")], face_down: 1 } } }), LOCAL);
  assert.equal(revealed.revealed.faceDown, 1); // D-5: by count only
});
