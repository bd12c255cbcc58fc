// derive(view, local) → the table model: everything the table's regions show, worked out from
// the server's view and the page's local state (a choice begun, UNO! armed, a revealed hand
// closed), with no DOM.  Each region draws its own part of the model and compares it with the
// part it drew last (same()), so nothing keeps hand-made signatures.  Tested under Node.
import { t } from "../i18n.js";
import { cardLabel, sortHand } from "../cards.js";
import { cardHint, pendingText } from "../wording.js";
import { describe } from "../narrate.js";
import { nextSeat, playOrder } from "../seating.js";
import { hasOptions, optionsText } from "../dom.js";
import { cardOptions, choiceStillLegal, decisionModel, legalOf, stackRoles, unoMode } from "./decision.js";
import { batchMates, batchModel, batchOffer, batchRole, batchStillLegal } from "./batch.js";
import { houseRules, outOf, teamOf, watcherModel } from "./sides.js";
import { hintless } from "./unhinted.js";
import { creditedTotal } from "../credit.js";

// Entries the ticker does not read out: bookkeeping, not moves.
const QUIET = new Set(["scores", "final", "joined", "renamed", "left", "kicked", "commitment", "secret", "host"]);

/** A seat's name from the view, or "Seat n" for a seat nobody holds. */
export function namer(view) {
  return (seat) => {
    const p = view && view.players.find((x) => x.seat === seat);
    return p ? p.name : t("room.seat_n", { n: seat + 1 });
  };
}

/** The page's mode: the waiting room until a game is dealt, then the table. */
export function modeOf(view) {
  return view.room.status === "waiting" || !view.game ? "waiting" : "game";
}

// What a card's label adds: playable, passable, joins the batch being built (HR-8), answers or
// deflects a penalty (HR-1 to HR-4), may lead a batch.
function handNote(c, { playable, passing, role, stack, leads }) {
  if (role === "lead") return t("batch.lead_note");
  if (role === "picked") return t("batch.picked_note");
  if (role === "mate") return t("batch.mate_note");
  if (!playable) return "";
  if (passing) return t("table.can_pass");
  if (stack) return t(`stack.note_${stack}`);
  return leads ? t("batch.can_lead") : t("table.playable");
}

function handModel(view, over, batch) {
  const tbl = view.game.table;
  const passing = !!(tbl.pending && tbl.pending.seat === view.you && tbl.pending.kind === "pass");
  // HR-32: at a no-hints table every card is offered alike, and none is lit up or called playable.
  const plain = hintless(view);
  const stacking = !!(tbl.pending && tbl.pending.seat === view.you && tbl.pending.kind === "stack");
  const roles = stacking ? stackRoles(tbl, legalOf(view)) : new Map();
  const mates = batch && !over ? batchMates(view, batch.card) : [];
  const faceUp = sortHand(tbl.hand || []).map((card) => {
    const role = over ? "" : batchRole(batch, mates, card.id);
    const playable = !over && (cardOptions(view, card.id).length > 0 || role !== "");
    const note = plain && !role ? "" : handNote(card, { playable, passing, role, stack: roles.get(card.id), leads: !over && !!batchOffer(view, card.id) });
    return {
      id: card.id, card, playable, plain: playable && plain, passing: playable && passing, hint: cardHint(card, view.game.edition), batch: role,
      label: `${cardLabel(card)}${note ? `, ${note}` : ""}`,
    };
  });
  // HR-33: cards drawn face down are only counted (their faces are hidden from you too): backs, last,
  // keyed by negative ids so that they never meet a real card's.
  const label = t("card.face_down");
  const backs = Array.from({ length: tbl.face_down || 0 }, (_, i) => ({
    id: -1 - i, card: null, faceDown: true, playable: false, passing: false, hint: label, label,
  }));
  return [...faceUp, ...backs];
}

function meModel(view, over, armed, nameOf) {
  const you = view.you;
  if (you === null) return null;
  const tbl = view.game.table;
  const out = outOf(view);
  const next = nextSeat(tbl.hand_sizes.length, tbl.direction, tbl.current, tbl.skips_owed, out);
  return {
    // HX-14: under team play a seat's total is its team's, as everywhere else (credit.js).
    name: nameOf(you), cards: tbl.hand_sizes[you], score: creditedTotal(view.game.teams, view.game.scores, you),
    turn: tbl.current === you && !over, next: next === you && tbl.current !== you && !over,
    declared: tbl.declared.includes(you) || tbl.predeclared === you, exposed: tbl.exposed.includes(you), armed,
    team: teamOf(view, you), out: out.has(you),
  };
}

function statusModel(view, mine, over, nameOf) {
  const pending = view.game.table.pending;
  let text = "";
  if (over) text = "";
  else if (mine && pending.kind === "drawn" && hintless(view)) text = t("pending.mine.drawn_unhinted"); // HR-32
  else if (mine && pending.kind === "stack" && !legalOf(view).some((a) => a.kind === "play")) text = t("pending.mine.stack_take");
  else if (mine) text = pendingText(view.game.edition, pending);
  else if (pending) text = t(`pending.other.${pending.kind}`, { name: nameOf(pending.seat) });
  if (view.you === null) text = `${t("room.watching")} ${text}`;
  return { text, mine: !!mine && !over };
}

/** When a turn may draw at this table (`game.turn_draw.draw`, docs/PROTOCOL.md): "always" (C-6) unless told. */
const turnDraw = (view) => (view.game.turn_draw && view.game.turn_draw.draw) || "always";

function actionsModel(view, over, armed, nameOf) {
  const legal = legalOf(view);
  const spectator = view.you === null || outOf(view).has(view.you); // HR-30: out of the match, you watch
  // UNO! already said before this play (C-11): the button shows it said, and nothing asks again.
  const said = view.you !== null && view.game.table.predeclared === view.you;
  const u = said && unoMode(legal).mode === "arm" ? { mode: "idle" } : unoMode(legal);
  const canDraw = legal.some((a) => a.kind === "draw");
  const rules = houseRules(view);
  return {
    uno: {
      // HR-18: nobody says UNO! and nobody is caught, so there is no button; HR-17: said only
      // on its own, once a play has left you one card (the button declares then, never arms).
      mode: u.mode, action: u.action || null, pressed: armed || said, disabled: spectator || over, hidden: !!rules.silent_uno,
      strict: !!rules.strict_uno,
      label: u.mode === "catch" ? t("table.uno_catch", { name: nameOf(u.action.target) }) : u.mode === "declare" ? t("table.uno_declare") : t("table.uno_label"),
      text: u.mode === "catch" ? t("table.uno_catch_short") : t("table.uno"),
    },
    // AW-5: where a turn must play (`game.turn_draw`), no Draw button, but when a draw is legal:
    // a last card that may not finish the round (HR-14, HR-15) is drawn past.
    draw: { disabled: !canDraw || over, hidden: spectator || (turnDraw(view) !== "always" && !canDraw) },
    special: { hidden: !legal.some((a) => a.kind === "special_draw") || over },
    unoTip: !over && !said && legal.some((a) => a.uno),
  };
}

/**
 * The seat whose play put `top` on the pile: the log's last play, when its card is the top
 * card's face and colour (log cards carry no id), else null (a deal, a flip, a reshuffle).
 */
function playedBy(log, top) {
  const entry = [...log].reverse().find((e) => e.kind === "play");
  const c = entry && entry.card;
  return c && c.face === top.face && (c.colour ?? null) === (top.colour ?? null) ? entry.seat : null;
}

/** The other seats in the order play goes round from yours, each with what its chip shows. */
function seatsModel(view) {
  const g = view.game;
  const tbl = g.table;
  const playing = view.room.status === "playing";
  const out = outOf(view);
  const next = playing ? nextSeat(tbl.hand_sizes.length, tbl.direction, tbl.current, tbl.skips_owed, out) : null;
  const mine = view.you === null ? null : teamOf(view, view.you);
  const nameOf = namer(view);
  const chips = playOrder(tbl.hand_sizes.length, tbl.direction, view.you).map((seat) => {
    const p = view.players.find((x) => x.seat === seat) || { name: nameOf(seat), connected: false };
    const count = tbl.hand_sizes[seat];
    return {
      seat, name: p.name, count, score: creditedTotal(g.teams, g.scores, seat), dealer: seat === g.dealer,
      turn: tbl.current === seat && playing, next: seat === next,
      exposed: tbl.exposed.includes(seat), saidUno: tbl.declared.includes(seat) && count === 1,
      skips: (tbl.skips_owed && tbl.skips_owed[seat]) || 0,
      bot: !!p.bot, level: p.bot ? p.level : null, here: !!(p.connected || p.bot), auto: !!(p.auto && !p.bot),
      open: openHand(tbl, seat), // HR-31: a small hand shown face up to all
      team: teamOf(view, seat), partner: mine !== null && teamOf(view, seat) === mine, // HR-26
      out: out.has(seat), // HR-30: out of the match, passed over
    };
  });
  return { round: g.round, direction: tbl.direction, chips };
}

/** A seat's open hand (HR-31): its face-up `cards`, and its face-down ones (HR-33) as a count of
 * backs, `faceDown`, the same for everyone (D-13); null while the hand is not open. */
function openHand(tbl, seat) {
  const cards = tbl.open_hands && tbl.open_hands[seat];
  if (!cards) return null;
  return { cards, faceDown: (tbl.open_face_down && tbl.open_face_down[seat]) || 0 };
}

function revealedModel(tbl, dismissed, nameOf) {
  const r = tbl.revealed;
  if (!r) return null;
  const key = `${r.seat}:${r.cards.map((c) => c.id).join(",")}`;
  if (key === dismissed) return null;
  return { key, title: t("dialog.revealed", { name: nameOf(r.seat) }), cards: sortHand(r.cards), faceDown: r.face_down || 0 };
}

function tickerModel(log, nameOf) {
  // The latest move, in words (the full log is in the side panel, below the table on phones).
  const last = [...log].reverse().find((e) => !QUIET.has(e.kind));
  return last ? { n: last.n, text: describe(last, nameOf) } : { n: null, text: "" };
}

/**
 * The table model for `view` (mode "game") and `local` = { choosing, batch, armed, dismissedReveal, code }.
 * `staleChoice` and `staleBatch` say that `local.choosing` or `local.batch` can no longer be
 * made (the controller drops it).
 */
export function derive(view, local) {
  const nameOf = namer(view);
  const mode = modeOf(view);
  const tbl = view.game ? view.game.table : null;
  const you = view.you;
  const myTurn = !!(tbl && tbl.pending && tbl.pending.seat === you && view.room.status === "playing");
  const title = `${myTurn ? `● ${t("table.your_turn")} · ` : ""}${view.room.name} · ${t("app.name")}`;
  if (mode !== "game") return { mode, myTurn, title };
  const g = view.game;
  const pending = tbl.pending;
  const mine = !!(pending && pending.seat === you);
  const over = view.room.status !== "playing";
  const legal = legalOf(view);
  const actions = actionsModel(view, over, local.armed, nameOf);
  const batch = !over && !local.choosing && batchStillLegal(view, local.batch) ? local.batch : null;
  return {
    mode, myTurn, title, over,
    table: { edition: g.edition, myTurn: mine && !over, pendingKind: mine ? pending.kind : "", handCount: (tbl.hand ? tbl.hand.length : 0) + (tbl.face_down || 0), status: view.room.status },
    head: {
      edition: g.edition, editionName: t(`edition.${g.edition}`), round: t("table.round", { n: g.round }),
      dealer: t("table.dealer", { name: nameOf(g.dealer) }), code: local.code,
      options: hasOptions(view.room) ? optionsText(view.room) : null,
    },
    piles: {
      drawCount: tbl.draw_pile, canDraw: legal.some((a) => a.kind === "draw") && !over,
      top: tbl.top, topKey: `${tbl.top.id}/${tbl.discard_pile}`,
      colour: tbl.colour || null, noColours: g.edition === "all_wild", direction: tbl.direction,
      playedBy: playedBy(view.log, tbl.top),
    },
    seats: seatsModel(view),
    status: statusModel(view, mine, over, nameOf),
    ticker: tickerModel(view.log, nameOf),
    me: meModel(view, over, local.armed, nameOf),
    hand: handModel(view, over, batch),
    empty: !((tbl.hand || []).length + (tbl.face_down || 0)) && you !== null,
    actions,
    decision: over ? null : batch ? batchModel(view, batch) : decisionModel(view, local, nameOf),
    staleChoice: !!local.choosing && !choiceStillLegal(view, local.choosing),
    staleBatch: !!local.batch && !batchStillLegal(view, local.batch),
    watcher: watcherModel(view),
    revealed: revealedModel(tbl, local.dismissedReveal, nameOf),
  };
}
