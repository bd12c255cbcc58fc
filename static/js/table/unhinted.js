// The moves the table offers at a no-hints table (RULES.md HR-32), where the server sends no
// `legal` list: every move the pending decision could take, worked out from the decision and your
// own hand only — never from whether a card would be accepted, which is what the rule keeps from
// you.  The entries have the shape of `legal`'s (docs/PROTOCOL.md, app/engine/actions.py), so the
// rest of the table (decision.js, model.js, controller.js) builds its cards and buttons from them
// as from `legal`; the server judges each move, and a refusal is explained (refusal.js) — under
// HR-20 a misplayed card is acked and its player draws one.  What a play of each face takes (a
// colour, a target, the cards it leaves) is read from the view's `game.card_rules`, which the
// engine builds from its own card rules under the room's house rules, and how a turn's draw goes
// and what a card may answer from `game.turn_draw` and `game.penalty_answers`, built the same way:
// no edition's rules are copied here.  Pure: tested under Node.

const COLOURS = ["red", "yellow", "green", "blue"];

// A plain card's shape: a face missing from `game.card_rules`, or a key its shape leaves out, is this.
const PLAIN = { colour: false, target: "never", left: "one_less" };

/**
 * What a play of `card` takes at this table (docs/PROTOCOL.md `game.card_rules`, the engine's
 * CardRule of its face under the room's house rules): `colour` declared (C-7), `target` named
 * ("never", "always", "with_last_card"), the cards it `left`s its player.
 */
function shapeOf(view, card) {
  const rules = view.game.card_rules || {};
  return { ...PLAIN, ...rules[card.face] };
}

/** Does a seat's view come without legal moves (a no-hints table, HR-32)?  (A spectator's never has them.) */
export function hintless(view) {
  const tbl = view && view.game ? view.game.table : null;
  return !!tbl && view.you !== null && view.you !== undefined && !Array.isArray(tbl.legal);
}

/** The seats still in the round other than `seat` (HR-30: eliminated seats are nobody's target). */
function opponents(view, seat) {
  const n = view.game.table.hand_sizes.length;
  const out = new Set(view.game.eliminated || []);
  return [...Array(n).keys()].filter((s) => s !== seat && !out.has(s));
}

function partners(house, n, a, b) {
  return !!house.team_play && a !== b && (((a - b) % n) + n) % n === n / 2; // HR-27, as the engine's
}

/** Does a play of a card of this shape name an opponent (the engine's CardRule.needs_target)? */
function needsTarget(shape, last) {
  // "with_last_card": an Item Box, whose Green Shell can ask no one later (C-13).
  return shape.target === "always" || (last && shape.target === "with_last_card");
}

/**
 * How many cards a play of a card of this shape leaves its player, when that is known from the
 * table (the engine's CardRule.cards_left); null when it depends on the order of play (a Seven-O
 * 0, a 7 swapping with the next seat): UNO! is then said on its own once the hand holds one card.
 */
function cardsLeft(view, shape, target, size) {
  switch (shape.left) {
    case "one_less": return size - 1;
    case "same": return size; // Dip Into The Deck: draw one, pass one on
    case "targets": return view.game.table.hand_sizes[target]; // a swap leaves you the target's hand
    default: return null; // "previous_seats", "next_seats"
  }
}

/** The calls the table allows with a play or on their own (C-11, HR-17 strict, HR-18 none). */
function callsOf(house) {
  return { withPlay: !house.strict_uno && !house.silent_uno, any: !house.silent_uno };
}

/** Every way to play `card` as `kind` (play, play_drawn): colours, targets, UNO! said or not. */
function playOptions(view, kind, card, out) {
  const g = view.game;
  const house = g.house_rules || {};
  const size = (g.table.hand || []).length;
  const last = size === 1;
  const shape = shapeOf(view, card);
  const colours = shape.colour ? COLOURS : [null];
  const targets = needsTarget(shape, last) ? opponents(view, view.you) : [null];
  const withPlay = callsOf(house).withPlay;
  for (const target of targets) {
    const left = last ? 0 : cardsLeft(view, shape, target, size);
    for (const colour of colours) {
      const a = { kind, card: card.id };
      if (colour !== null) a.colour = colour;
      if (target !== null) a.target = target;
      out.push(a);
      if (withPlay && left === 1) out.push({ ...a, uno: true });
    }
  }
}

const NUMBER = /^[0-9]$/;

/**
 * HR-8: the batches your hand could make, as `legal` offers them (house/volume.py `BatchOffer`):
 * one entry per number you hold two or more of — its cards in hand order, any of which may lead
 * (whether the lead may go on the pile is the server's to judge, as for any card here), the
 * opponents its last card names, and the (size, target) pairs UNO! goes with.
 */
function batchOffers(view, out) {
  const g = view.game;
  const house = g.house_rules || {};
  const hand = g.table.hand || [];
  const withPlay = callsOf(house).withPlay;
  const groups = new Map();
  for (const c of hand.filter((c) => NUMBER.test(c.face))) {
    if (!groups.has(c.face)) groups.set(c.face, []);
    groups.get(c.face).push(c);
  }
  for (const cards of groups.values()) {
    if (cards.length < 2) continue;
    const ids = cards.map((c) => c.id);
    const offer = { kind: "batch", cards: ids, leads: ids };
    const shape = shapeOf(view, cards[0]);
    const targets = needsTarget(shape, false) ? opponents(view, view.you) : [];
    if (targets.length) offer.targets = targets;
    const uno = [];
    for (let size = 2; withPlay && size <= cards.length && size < hand.length; size++) {
      for (const target of targets.length ? targets : [null]) {
        if (cardsLeft(view, shape, target, hand.length - size + 1) === 1) uno.push([size, target]);
      }
    }
    if (uno.length) offer.uno = uno;
    out.push(offer);
  }
}

/** The seat after `seat` in the order of play: this round's (HR-28), the seats out left out (HR-30). */
function nextSeat(view, seat) {
  const g = view.game;
  const tbl = g.table;
  const out = new Set(g.eliminated || []);
  const order = (tbl.seat_order || [...Array(tbl.hand_sizes.length).keys()]).filter((s) => !out.has(s));
  const n = order.length;
  return order[(((order.indexOf(seat) + tbl.direction) % n) + n) % n];
}

// A turn's draw where the view says nothing of it: C-6's, on any turn, and no limit.
const OPEN_DRAW = { draw: "always", special: null, limit: null };

/**
 * The draws a `turn` offers, as `game.turn_draw` tells them (docs/PROTOCOL.md): C-6's draw on any
 * turn, or — where a turn must play (AW-5) — only with one card, when a last card may be forbidden
 * (HR-15); the special draw (AW-6) with a hand of its face only and the next seat on its count; none
 * at the hand limit (HR-12).  All of it is read off your own hand and the hands' sizes, not a hint.
 */
function draws(view, out) {
  const tbl = view.game.table;
  const rule = { ...OPEN_DRAW, ...view.game.turn_draw };
  const held = tbl.hand_sizes[view.you]; // face-down cards (HR-33) count toward the limit too
  if (rule.limit !== null && held >= rule.limit) return;
  const special = rule.special;
  const hand = tbl.hand || [];
  if (special && hand.every((c) => c.face === special.hand_of)
      && tbl.hand_sizes[nextSeat(view, view.you)] === special.next_holds) {
    out.push({ kind: "special_draw" }); // the draw the rule allows then, in place of any other
  } else if (rule.draw === "always" || (rule.draw === "last_card" && held === 1)) {
    out.push({ kind: "draw" });
  }
}

/** May a card answer this pending penalty at this table (HX-3: `game.penalty_answers` names its kind)? */
function answerable(view, pending) {
  return (view.game.penalty_answers || []).includes(pending.draw_kind);
}

function decisionMoves(view, out) {
  const g = view.game;
  const tbl = g.table;
  const house = g.house_rules || {};
  const hand = tbl.hand || [];
  const pending = tbl.pending;
  const everyCard = () => { for (const c of hand) playOptions(view, "play", c, out); };
  switch (pending.kind) {
    case "turn":
      everyCard();
      draws(view, out);
      if (house.multi_play) batchOffers(view, out); // after the actions, as `legal` lists them
      break;
    case "drawn":
    case "special": {
      const drawn = tbl.drawn || hand.find((c) => c.id === pending.card);
      if (drawn) playOptions(view, "play_drawn", drawn, out);
      if (pending.kind === "drawn") out.push({ kind: "keep" });
      break;
    }
    case "challenge":
      out.push({ kind: "accept" }, { kind: "challenge" });
      if (answerable(view, pending)) everyCard();
      break;
    case "stack":
      out.push({ kind: "accept" });
      if (answerable(view, pending)) everyCard(); // always so: a stack is owed only where answers exist
      break;
    case "colour":
      for (const colour of COLOURS) out.push({ kind: "choose_colour", colour });
      break;
    case "target":
      for (const target of opponents(view, view.you)) out.push({ kind: "choose_target", target });
      break;
    case "pass": {
      const uno = hand.length === 2 && callsOf(house).withPlay;
      for (const c of hand) {
        out.push({ kind: "pass_card", card: c.id });
        if (uno) out.push({ kind: "pass_card", card: c.id, uno: true });
      }
      break;
    }
    default:
      break;
  }
}

/** UNO! said on its own and catches, from what the table shows (C-11, C-12, HR-17, HR-27). */
function unoMoves(view, out) {
  const g = view.game;
  const tbl = g.table;
  const house = g.house_rules || {};
  if (!callsOf(house).any) return; // HR-18: nobody is ever exposed
  const you = view.you;
  const exposed = tbl.exposed || [];
  const pending = tbl.pending;
  // C-11: on your turn with two cards UNO! may be said early, except under strict UNO! (HR-17).
  const early = callsOf(house).withPlay && pending.kind === "turn" && pending.seat === you
    && (tbl.hand || []).length === 2 && !(tbl.declared || []).includes(you) && tbl.predeclared !== you;
  if (exposed.includes(you) || early) out.push({ kind: "declare_uno" });
  const n = tbl.hand_sizes.length;
  for (const target of [...exposed].sort((a, b) => a - b)) {
    if (target !== you && !partners(house, n, you, target)) out.push({ kind: "catch", target });
  }
}

/**
 * The candidate moves of `view`'s seat, in the shape of `legal`'s entries: the decision's own
 * (every card in hand as a play or an answer, a draw, keep, accept, challenge, the colours, the
 * opponents), then a jump-in with any card while someone else owes a turn (§6 jump_in), then
 * UNO! calls.  None while watching, between rounds, or for a seat out of the match.
 */
export function unhinted(view) {
  const g = view && view.game;
  const tbl = g ? g.table : null;
  const you = view ? view.you : null;
  if (!tbl || you === null || you === undefined || !tbl.pending || (tbl.winner !== null && tbl.winner !== undefined)) return [];
  if ((g.eliminated || []).includes(you) || (view.room && view.room.status !== "playing")) return [];
  const out = [];
  const house = g.house_rules || {};
  if (tbl.pending.seat === you) decisionMoves(view, out);
  else if (tbl.pending.kind === "turn" && house.jump_in) {
    for (const c of tbl.hand || []) playOptions(view, "play", c, out);
  }
  unoMoves(view, out);
  return out;
}
