// Unit tests of static/js/table/unhinted.js: at a no-hints table (RULES.md HR-32) the frames carry
// no `legal`, and the table offers every move the pending decision could take, from the decision
// and your own hand only, in `legal`'s shape (docs/PROTOCOL.md).
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";

const { loadCatalogue } = await import("../../static/js/i18n.js");
const { hintless, unhinted } = await import("../../static/js/table/unhinted.js");
const { legalOf, cardOptions, unoMode, decisionModel } = await import("../../static/js/table/decision.js");
const { derive } = await import("../../static/js/table/model.js");
const { explainRefusal } = await import("../../static/js/refusal.js");
await loadCatalogue("en");

const card = (id, colour, face) => ({ id, name: `${colour || "wild"} ${face}`, colour, face, value: Number(face) || 20 });
const LOCAL = { choosing: null, armed: false, dismissedReveal: "", code: "ROOM1234" };
const STRICT = { strict_uno: true, uno_penalty: 4, misplay_penalty: true, no_hints: true, forced_play: true, preset: "strict" };

// The card shapes the engine sends (`game.card_rules`, app/engine/card_shapes.py; the engine's
// tests/engine/test_card_shapes.py asserts these very values): a plain card's shape is {}.
const plain = (faces) => Object.fromEntries(faces.map((f) => [f, {}]));
const CLASSIC = { ...plain(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2"]),
  wild: { colour: true }, wild_draw4: { colour: true } };
// HR-6 both, HR-7 chosen; then HR-7 next.
const SEVEN_O = { ...CLASSIC, 7: { target: "always", left: "targets" }, 0: { left: "previous_seats" } };
const SEVEN_NEXT = { ...SEVEN_O, 7: { left: "next_seats" } };
const ALL_WILD = { ...plain(["wild", "wild_reverse", "wild_skip", "wild_draw2", "wild_draw4", "wild_skip2"]),
  wild_targeted_draw2: { target: "always" }, wild_forced_swap: { target: "always", left: "targets" } };

// How a turn's draw goes (`game.turn_draw`) and what a card may answer (`game.penalty_answers`), as the
// engine sends them (app/engine/card_shapes.py; tests/engine/test_table_rules_view.py holds them to
// what the engine judges): C-6's draw, All Wild's (AW-5, AW-6; with HR-14's `no_draw`, HR-15).
const C6 = { draw: "always", special: null, limit: null };
const AW = { draw: "never", special: { hand_of: "wild", next_holds: 1 }, limit: null };
const AW_NO_DRAW_FINISH = { ...AW, draw: "last_card" };

/** A three-seat classic no-hints table (strict preset), Ana (you, seat 0) to play: no `legal`. */
function view({ table = {}, house = STRICT, you = 0, edition = "classic", rules = CLASSIC, draw = C6,
  answers = [], game = {} } = {}) {
  return {
    room: { code: "ROOM1234", name: "Strict", edition, status: "playing", host: 0, house_rules: house, turn_seconds: null },
    you,
    players: [{ seat: 0, name: "Ana", connected: true }, { seat: 1, name: "Bo", connected: true }, { seat: 2, name: "Cy", connected: true }],
    log: [],
    game: {
      edition, round: 1, dealer: 2, scores: [0, 0, 0], house_rules: house, card_rules: rules,
      turn_draw: draw, penalty_answers: answers, ...game,
      table: {
        current: 0, direction: 1, top: card(90, "red", "5"), colour: "red", draw_pile: 80, discard_pile: 3,
        hand_sizes: [3, 5, 4], exposed: [], declared: [], skips_owed: [0, 0, 0], pending: { kind: "turn", seat: 0 },
        hand: [card(3, "red", "7"), card(1, "blue", "2"), card(7, null, "wild")], winner: null,
        ...table,
      },
    },
  };
}

const kinds = (moves) => moves.map((a) => a.kind);

test("HR-32: with no legal list every card in hand is offered on a turn, a wild with each colour, and the draw", () => {
  const v = view();
  assert.equal(hintless(v), true);
  assert.deepEqual(unhinted(v), [
    { kind: "play", card: 3 }, { kind: "play", card: 1 },
    { kind: "play", card: 7, colour: "red" }, { kind: "play", card: 7, colour: "yellow" },
    { kind: "play", card: 7, colour: "green" }, { kind: "play", card: 7, colour: "blue" },
    { kind: "draw" },
  ]);
  // The table reads them where it read `legal`: the blue 2 is offered, though it matches nothing.
  assert.deepEqual(cardOptions(v, 1), [{ kind: "play", card: 1 }]);
  assert.deepEqual(legalOf(v), unhinted(v));
  // A table that sends `legal` is untouched, an empty list included (between moves, watching).
  const hinted = view({ table: { legal: [{ kind: "draw" }] } });
  assert.equal(hintless(hinted), false);
  assert.deepEqual(legalOf(hinted), [{ kind: "draw" }]);
  assert.deepEqual(legalOf(view({ table: { legal: [] } })), []);
});

test("HR-32: nothing is offered to a spectator, between rounds, or while another seat owes a turn", () => {
  assert.deepEqual(unhinted({ ...view(), you: null }), []);
  assert.equal(hintless({ ...view(), you: null }), false); // a spectator's frames never carry legal
  assert.deepEqual(unhinted(view({ table: { winner: 1 } })), []);
  assert.deepEqual(unhinted(view({ table: { current: 1, pending: { kind: "turn", seat: 1 } } })), []);
  // §6 jump-in: any card may be tried while someone else owes a plain turn (a lost jump-in costs nothing, D-7).
  const jump = view({ house: { ...STRICT, jump_in: true }, table: { current: 1, pending: { kind: "turn", seat: 1 } } });
  assert.equal(unhinted(jump).filter((a) => a.kind === "play").length, 6);
});

test("HR-32: the hand lights up no card and calls none playable; the status asks nothing a hint would", () => {
  const m = derive(view(), LOCAL);
  assert.equal(m.hand.every((c) => c.playable && c.plain), true);
  assert.equal(m.hand.some((c) => /playable/.test(c.label)), false);
  const theirs = derive(view({ table: { current: 1, pending: { kind: "turn", seat: 1 } } }), LOCAL);
  assert.equal(theirs.hand.every((c) => !c.playable), true); // not your turn: all alike, dimmed
  // With legal the playable cards are said to be so (unchanged).
  const hinted = derive(view({ table: { legal: [{ kind: "play", card: 3 }] } }), LOCAL);
  assert.equal(hinted.hand.find((c) => c.id === 3).label.endsWith("playable"), true);
  assert.equal(hinted.hand.find((c) => c.id === 3).plain, false);
});

test("HR-32: after a draw the drawn card may be played or kept, whatever it is, and nothing says it is playable", () => {
  const drawn = card(12, "green", "9");
  const v = view({ table: { pending: { kind: "drawn", seat: 0, card: 12 }, drawn, hand: [card(3, "red", "7"), drawn], hand_sizes: [2, 5, 4] } });
  assert.deepEqual(unhinted(v), [{ kind: "play_drawn", card: 12 }, { kind: "keep" }]); // HR-17: no "uno" variant
  const d = decisionModel(v, LOCAL, (s) => `S${s}`);
  assert.equal(d.title, "You drew a card");
  assert.deepEqual(d.options.map((o) => o.option), ["play", "keep"]);
  assert.equal(derive(v, LOCAL).status.text, "You drew a card: play it or keep it.");
});

test("HR-10: forced play still offers the draw; the refusal says why, in the table's words", () => {
  const v = view();
  assert.equal(derive(v, LOCAL).actions.draw.disabled, false);
  assert.equal(explainRefusal("must_play", v, String), "You hold a card you can play: play it, you may not draw.");
  const drawn = view({ table: { pending: { kind: "drawn", seat: 0, card: 3 }, drawn: card(3, "red", "7") } });
  assert.equal(explainRefusal("must_play", drawn, String), "The card you drew can be played: play it, you may not keep it.");
});

test("HR-12: at the hand limit `game.turn_draw` names no draw is offered; the house option is not read", () => {
  const limited = (limit, table = {}) => kinds(unhinted(view({ draw: { ...C6, limit }, table })));
  assert.equal(limited(3).includes("draw"), false); // your own hand's size tells it, not a hint
  assert.equal(limited(4).includes("draw"), true);
  // Face-down cards (HR-33) count: the hand's size, not the face-up cards listed.
  assert.equal(limited(4, { hand_sizes: [4, 5, 4], face_down: 1 }).includes("draw"), false);
  // The option alone decides nothing: the engine puts it in turn_draw.
  assert.equal(kinds(unhinted(view({ house: { ...STRICT, hand_limit: 3 } }))).includes("draw"), true);
  // At the limit All Wild's special draw goes too (AW-6 with HR-12).
  const wilds = { hand: [card(5, null, "wild"), card(6, null, "wild")], hand_sizes: [2, 1, 4] };
  assert.equal(kinds(unhinted(view({ rules: ALL_WILD, draw: AW, table: wilds }))).includes("special_draw"), true);
  assert.equal(kinds(unhinted(view({ rules: ALL_WILD, draw: { ...AW, limit: 2 }, table: wilds }))).includes("special_draw"), false);
});

test("AW-5, AW-6: where a turn must play no draw is offered, but the special draw when `game.turn_draw` allows it", () => {
  const aw = (table, draw = AW, extra = {}) => kinds(unhinted(view({ rules: ALL_WILD, draw, ...extra,
    table: { top: card(90, null, "wild"), colour: null, ...table } }))).filter((k) => k.endsWith("draw"));
  const wilds = [card(5, null, "wild"), card(6, null, "wild")];
  // AW-6: plain Wilds only, and the next seat (seat 1) on one card: the special draw, and no other.
  assert.deepEqual(aw({ hand: wilds, hand_sizes: [2, 1, 4] }), ["special_draw"]);
  assert.deepEqual(aw({ hand: wilds, hand_sizes: [2, 2, 1] }), []); // the one card is not the next seat's
  assert.deepEqual(aw({ hand: [...wilds, card(7, null, "wild_skip")], hand_sizes: [3, 1, 4] }), []); // an action card
  // Counter-clockwise the next seat is seat 2; seats out are passed over (HR-30), and HR-28's order is followed.
  assert.deepEqual(aw({ hand: wilds, hand_sizes: [2, 2, 1], direction: -1 }), ["special_draw"]);
  assert.deepEqual(aw({ hand: wilds, hand_sizes: [2, 0, 1] }, AW, { game: { eliminated: [1] } }), ["special_draw"]);
  assert.deepEqual(aw({ hand: wilds, hand_sizes: [2, 2, 1], seat_order: [0, 2, 1] }), ["special_draw"]);
  // AW-5: one card left and nothing forbids it as the last: no draw; with HR-14's no_draw, HR-15 may: the draw.
  const one = { hand: [card(8, null, "wild_draw2")], hand_sizes: [1, 3, 4] };
  assert.deepEqual(aw(one), []);
  assert.deepEqual(aw(one, AW_NO_DRAW_FINISH), ["draw"]);
  assert.deepEqual(aw({ hand: [...wilds, card(8, null, "wild_draw2")], hand_sizes: [3, 3, 4] }, AW_NO_DRAW_FINISH), []);
  // The edition's name decides nothing: the same rule at a "classic" table offers the same draws.
  const named = kinds(unhinted(view({ draw: AW, table: { hand: wilds, hand_sizes: [2, 1, 4] } })));
  assert.equal(named.includes("special_draw") && !named.includes("draw"), true);
  assert.equal(kinds(unhinted(view({ edition: "all_wild", rules: ALL_WILD, draw: C6 }))).includes("draw"), true);
});

test("HR-17: strict UNO! is said on its own while exposed, never with a play; exposed opponents may be caught", () => {
  const two = view({ table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 5, 1], exposed: [2] } });
  const moves = unhinted(two);
  assert.equal(moves.some((a) => a.uno), false);
  assert.equal(kinds(moves).includes("declare_uno"), false); // no two-card call under HR-17
  assert.deepEqual(moves.filter((a) => a.kind === "catch"), [{ kind: "catch", target: 2 }]);
  const mine = view({ table: { hand: [card(3, "red", "7")], hand_sizes: [1, 5, 4], exposed: [0], current: 1, pending: { kind: "turn", seat: 1 } } });
  assert.deepEqual(unhinted(mine), [{ kind: "declare_uno" }]);
  assert.equal(unoMode(legalOf(mine)).mode, "declare");
  assert.equal(explainRefusal("uno_not_allowed", two, String), "Strict UNO!: say UNO! on its own, once you hold one card.");
});

test("C-11 without strict UNO!: a play leaving one card comes with and without UNO!, and UNO! may be said early", () => {
  const two = view({ house: { no_hints: true }, table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 5, 4] } });
  const moves = unhinted(two);
  assert.deepEqual(moves.filter((a) => a.card === 3), [{ kind: "play", card: 3 }, { kind: "play", card: 3, uno: true }]);
  assert.equal(kinds(moves).includes("declare_uno"), true);
  assert.equal(explainRefusal("uno_not_allowed", two, String), null); // the plain words suffice
  // Said already (the view's `predeclared`): not offered twice; the play with UNO! still is.
  const said = view({ house: { no_hints: true }, table: { hand: [card(3, "red", "7"), card(1, "blue", "2")], hand_sizes: [2, 5, 4], predeclared: 0 } });
  assert.equal(kinds(unhinted(said)).includes("declare_uno"), false);
  assert.equal(unhinted(said).some((a) => a.card === 3 && a.uno), true);
});

test("HR-27: a partner is never offered as a catch", () => {
  const teams = view({ house: { ...STRICT, team_play: true },
    table: { hand_sizes: [3, 1, 1, 4], exposed: [1, 2], skips_owed: [0, 0, 0, 0] } });
  assert.deepEqual(unhinted(teams).filter((a) => a.kind === "catch"), [{ kind: "catch", target: 1 }]);
});

test("HX-3: a pending penalty offers accept (and challenge), and every card as an answer only where `game.penalty_answers` names its kind", () => {
  const stack = view({ answers: ["small", "big"], table: { pending: { kind: "stack", seat: 0, penalty: 2, draw_kind: "small" } } });
  assert.deepEqual(kinds(unhinted(stack)), ["accept", "play", "play", "play", "play", "play", "play"]);
  // Without the stacking family a challenge has no draw_kind, and nothing answers it.
  const challenge = view({ table: { pending: { kind: "challenge", seat: 0, penalty: 4 } } });
  assert.deepEqual(unhinted(challenge), [{ kind: "accept" }, { kind: "challenge" }]);
  const big = { pending: { kind: "challenge", seat: 0, penalty: 4, draw_kind: "big" } };
  const answered = view({ answers: ["small", "big"], table: big });
  assert.equal(unhinted(answered).filter((a) => a.kind === "play").length, 6);
  // HR-1 (only small Draws stack): a big Draw's challenge takes no answer.
  assert.deepEqual(unhinted(view({ answers: ["small"], table: big })), [{ kind: "accept" }, { kind: "challenge" }]);
  // The house options alone decide nothing: the engine sends what they allow.
  assert.deepEqual(unhinted(view({ house: { ...STRICT, stacking: true, skip_deflect: "all" }, table: big })),
    [{ kind: "accept" }, { kind: "challenge" }]);
  assert.deepEqual(decisionModel(challenge, LOCAL, String).options.map((o) => o.option), ["accept", "challenge"]);
});

test("colour and target decisions offer the four colours and the opponents still in (HR-30)", () => {
  const colour = view({ table: { pending: { kind: "colour", seat: 0 } } });
  assert.deepEqual(unhinted(colour).map((a) => a.colour), ["red", "yellow", "green", "blue"]);
  const target = view({ table: { pending: { kind: "target", seat: 0 } }, game: { eliminated: [2] } });
  assert.deepEqual(unhinted(target), [{ kind: "choose_target", target: 1 }]);
});

test("cards that name an opponent are offered once per opponent: a Seven-O 7 (HR-7), All Wild's Forced Swap", () => {
  const seven = view({ house: { ...STRICT, seven_o: true, seven_o_cards: "both", seven_target: "chosen" },
    rules: SEVEN_O });
  assert.deepEqual(unhinted(seven).filter((a) => a.card === 3), [{ kind: "play", card: 3, target: 1 }, { kind: "play", card: 3, target: 2 }]);
  const next = view({ house: { ...STRICT, seven_o: true, seven_target: "next" }, rules: SEVEN_NEXT });
  assert.deepEqual(unhinted(next).filter((a) => a.card === 3), [{ kind: "play", card: 3 }]);
  const aw = view({ edition: "all_wild", house: { no_hints: true }, rules: ALL_WILD, draw: AW,
    table: { hand: [card(4, null, "wild_forced_swap"), card(5, null, "wild")], hand_sizes: [2, 1, 4], top: card(90, null, "wild"), colour: null } });
  const moves = unhinted(aw);
  // The swap leaves you the target's hand: UNO! goes with it only toward a one-card hand (C-11).
  assert.deepEqual(moves.filter((a) => a.card === 4), [{ kind: "play", card: 4, target: 1 }, { kind: "play", card: 4, target: 1, uno: true },
    { kind: "play", card: 4, target: 2 }]);
  assert.deepEqual(moves.filter((a) => a.card === 5), [{ kind: "play", card: 5 }, { kind: "play", card: 5, uno: true }]); // AW-1: no colour
  assert.equal(kinds(moves).includes("draw"), false); // AW-5: no voluntary draw
});

test("HR-8 with HR-32: every group the hand could batch is offered once, any of its cards to lead", () => {
  const hand = [card(1, "red", "4"), card(2, "blue", "4"), card(3, "green", "4"), card(4, "red", "9")];
  const v = view({ house: { no_hints: true, multi_play: true }, table: { hand, hand_sizes: [4, 5, 4] } });
  const offers = unhinted(v).filter((a) => a.kind === "batch");
  // The 4s make one offer; a 9 joins no batch of 4s.  Three of four cards laid leave one: UNO! goes with
  // those (C-11; not under strict UNO!).
  assert.deepEqual(offers, [{ kind: "batch", cards: [1, 2, 3], leads: [1, 2, 3], uno: [[3, null]] }]);
  assert.equal(unhinted(view({ table: { hand, hand_sizes: [4, 5, 4] } })).some((a) => a.kind === "batch"), false, "multi_play off: none");
  const sevens = [card(1, "red", "7"), card(2, "blue", "7"), card(4, "red", "9")];
  const seven = view({ house: { no_hints: true, multi_play: true, seven_o: true }, rules: SEVEN_O,
    table: { hand: sevens, hand_sizes: [3, 1, 4] } });
  // A 7 names its target: the targets once, UNO! where the swap leaves one card (seat 1 holds one).
  assert.deepEqual(unhinted(seven).filter((a) => a.kind === "batch"),
    [{ kind: "batch", cards: [1, 2], leads: [1, 2], targets: [1, 2], uno: [[2, 1]] }]);
});

test("HR-32: the offers follow the card shapes the view carries (game.card_rules), not the edition", () => {
  const sevenOf = (moves) => moves.filter((a) => a.card === 3);
  const wildOf = (moves) => moves.filter((a) => a.card === 7);
  const two = { hand: [card(3, "red", "7"), card(7, null, "wild")], hand_sizes: [2, 1, 4] };
  const house = { no_hints: true };
  const offers = (rules, edition = "classic") => unhinted(view({ house, table: two, rules, edition }));
  // The same table and hand; only the shapes change, and with them the offers.
  const base = offers(CLASSIC);
  assert.deepEqual(sevenOf(base), [{ kind: "play", card: 3 }, { kind: "play", card: 3, uno: true }]);
  assert.equal(wildOf(base).length, 8); // four colours, each with and without UNO!
  // A swap leaves the target's hand: UNO! goes with it only toward seat 1's one card.
  assert.deepEqual(sevenOf(offers({ ...CLASSIC, 7: { target: "always", left: "targets" } })), [
    { kind: "play", card: 3, target: 1 }, { kind: "play", card: 3, target: 1, uno: true },
    { kind: "play", card: 3, target: 2 }]);
  // What it leaves depends on the order of play: UNO! is said on its own.
  assert.deepEqual(sevenOf(offers({ ...CLASSIC, 7: { left: "next_seats" } })), [{ kind: "play", card: 3 }]);
  // The hand stays at two (a dip's shape): no UNO! with the play.
  assert.deepEqual(sevenOf(offers({ ...CLASSIC, 7: { left: "same" } })), [{ kind: "play", card: 3 }]);
  const coloured = offers({ ...CLASSIC, 7: { colour: true }, wild: {} });
  const colours = sevenOf(coloured).filter((a) => !a.uno).map((a) => a.colour);
  assert.deepEqual(colours, ["red", "yellow", "green", "blue"]);
  assert.deepEqual(wildOf(coloured), [{ kind: "play", card: 7 }, { kind: "play", card: 7, uno: true }]);
  // A face the shapes leave out is a plain card's: no colour, no one named.
  assert.deepEqual(wildOf(offers({})), wildOf(coloured));
  // The edition's name decides nothing: Mario Kart's with the classic shapes offers the classic moves.
  assert.deepEqual(offers(CLASSIC, "mario_kart"), base);
});

test("HR-32: a face naming someone only with the last card (an Item Box) asks a target only then", () => {
  const rules = { ...CLASSIC, item_box: { target: "with_last_card" } };
  const box = card(9, "red", "item_box");
  const boxOf = (hand) => unhinted(view({ rules, table: { hand, hand_sizes: [hand.length, 5, 4] } }))
    .filter((a) => a.card === 9);
  // Strict UNO! (HR-17): no UNO! with the play from two cards.
  assert.deepEqual(boxOf([box, card(1, "blue", "2")]), [{ kind: "play", card: 9 }]);
  const last = [{ kind: "play", card: 9, target: 1 }, { kind: "play", card: 9, target: 2 }];
  assert.deepEqual(boxOf([box]), last);
  // HR-8: a batch's targets come from its cards' shape too.
  const fours = [card(1, "red", "4"), card(2, "blue", "4"), card(4, "red", "9")];
  const batch = (r) => unhinted(view({ house: { no_hints: true, multi_play: true }, rules: r,
    table: { hand: fours, hand_sizes: [3, 5, 4] } })).filter((a) => a.kind === "batch");
  assert.equal(batch(CLASSIC)[0].targets, undefined);
  assert.deepEqual(batch({ ...CLASSIC, 4: { target: "always", left: "targets" } })[0].targets, [1, 2]);
});
