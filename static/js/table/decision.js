// What the table asks of you now, as data: the legal moves a card or a button stands for, the
// UNO! button's mode, and the decision box's model.  No DOM and no state of its own: the same
// view and local state always give the same answer (tested under Node in tests/js/).
import { t } from "../i18n.js";
import { cardLabel, cardName, sortHand } from "../cards.js";
import { challengeText, targetTitle, unoSplit } from "../wording.js";
import { hintless, unhinted } from "./unhinted.js";

/** Deep equality of plain data (views, actions, models): what changed, without signatures. */
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
}

/**
 * The moves the server says you may make now (none when watching or between rounds); at a
 * no-hints table (HR-32), whose frames carry no `legal`, every move the decision could take.
 */
export function legalOf(view) {
  const tbl = view && view.game ? view.game.table : null;
  if (!tbl) return [];
  return Array.isArray(tbl.legal) ? tbl.legal : unhinted(view);
}

/** The actions that play card `id` on its own now (a play, a drawn card's play, or a pass); a
 *  batch led by it (HR-8, offered as a `batch` entry) is table/batch.js's. */
export function cardOptions(view, id) {
  const tbl = view.game.table;
  const pending = tbl.pending;
  const legal = legalOf(view);
  if (pending && pending.seat === view.you && pending.kind === "pass") {
    return legal.filter((a) => a.kind === "pass_card" && a.card === id);
  }
  return legal.filter((a) => (a.kind === "play" || a.kind === "play_drawn") && a.card === id);
}

/** UNO! said in advance (`armed`) picks the variants that declare with the play. */
export function pickUno(variants, armed) {
  const { withUno, without } = unoSplit(variants);
  return armed && withUno.length ? withUno : without.length ? without : withUno;
}

/** What the UNO! button does now: declare, catch someone, arm the next play, or nothing. */
export function unoMode(legal) {
  const declare = legal.find((a) => a.kind === "declare_uno");
  if (declare) return { mode: "declare", action: declare };
  const catches = legal.filter((a) => a.kind === "catch");
  if (catches.length) return { mode: "catch", action: catches[0] };
  if (legal.some((a) => a.uno)) return { mode: "arm" };
  return { mode: "idle" };
}

/** Whether a choice begun from the hand (`local.choosing`) can still be made: every variant legal. */
export function choiceStillLegal(view, choosing) {
  if (!choosing) return false;
  const legal = legalOf(view);
  return choosing.variants.every((v) => offered(legal, v));
}

/** Whether `legal` offers `action`: listed there, or a batch (HR-8, with `more`) one of its `batch`
 *  entries covers (docs/PROTOCOL.md; the engine's BatchOffer.covers). */
export function offered(legal, action) {
  if (!(action.more && action.more.length)) return legal.some((a) => same(a, action));
  return legal.some((o) => o.kind === "batch" && covers(o, action));
}

function covers(offer, a) {
  if (a.kind !== "play" || a.colour != null || !offer.leads.includes(a.card)) return false;
  if (new Set(a.more).size !== a.more.length || !a.more.every((c) => c !== a.card && offer.cards.includes(c))) return false;
  const target = a.target ?? null;
  if (offer.targets ? !offer.targets.includes(target) : target !== null) return false;
  return !a.uno || (offer.uno || []).some(([size, to]) => size === a.more.length + 1 && to === target);
}

// An option either sends `action`, or goes on to `choose` among variants of one card's play.
const colourOption = (action) => ({ label: t(`colour.${action.colour}`), colour: action.colour, option: action.colour, action });

function targetOption(tbl, nameOf) {
  return (action) => {
    const n = tbl.hand_sizes[action.target];
    return { label: nameOf(action.target), sub: t("table.cards", { n }), count: n,
      option: `seat-${action.target}`, action };
  };
}

function fromHand(view, choosing, nameOf) {
  const tbl = view.game.table;
  const { card, variants, unoChoice } = choosing;
  const c = (tbl.hand || []).find((x) => x.id === card) || tbl.drawn;
  if (unoChoice) {
    const { withUno, without } = unoSplit(variants);
    return {
      kind: "uno", title: cardName(c), text: t("tip.uno_title"), card: c, cancel: true,
      options: [
        { label: t("dialog.play_it"), option: "play", choose: { card, variants: without } },
        { label: t("dialog.play_uno"), option: "play-uno", primary: true, choose: { card, variants: withUno } },
      ],
    };
  }
  if (variants.some((v) => v.colour)) return { kind: "colour", title: t("dialog.colour"), card: c, options: variants.map(colourOption), cancel: true };
  return { kind: "target", title: targetTitle(c), card: c, options: variants.map(targetOption(tbl, nameOf)), cancel: true };
}

function drawnCard(tbl, pending, legal, armed, plain) {
  const plays = legal.filter((a) => a.kind === "play_drawn");
  const keep = legal.find((a) => a.kind === "keep");
  const drawn = tbl.drawn;
  const options = [];
  if (plays.length) {
    // A drawn card whose play leaves one card can be played with UNO! said (C-11).
    const { withUno, without } = unoSplit(plays);
    const card = drawn ? drawn.id : plays[0].card;
    options.push({ label: t("dialog.play_it"), option: "play", choose: { card, variants: pickUno(plays, armed) } });
    if (withUno.length && without.length) {
      options.push({ label: t("dialog.play_uno"), option: "play-uno", primary: true, choose: { card, variants: withUno } });
    }
  }
  if (keep) options.push({ label: t("dialog.keep"), option: "keep", action: keep });
  // At a no-hints table (HR-32) every draw on a turn asks: the card may not be playable.
  const title = pending.kind === "special" ? "dialog.special_title" : plain ? "dialog.drawn_title_unhinted" : "dialog.drawn_title";
  return { kind: pending.kind, title: t(title), text: drawn ? cardLabel(drawn) : "", card: drawn, options };
}

function passCard(tbl, you, legal, nameOf) {
  const passes = legal.filter((a) => a.kind === "pass_card");
  const byCard = new Map();
  // A pass that leaves one card says UNO! with it (C-11, C-12): nothing is left to catch.
  for (const a of passes) {
    if (!byCard.has(a.card)) byCard.set(a.card, unoSplit(passes.filter((x) => x.card === a.card)).withUno[0] || a);
  }
  const n = tbl.hand_sizes.length;
  const next = (you + tbl.direction + n) % n;
  return {
    kind: "pass", title: t("dialog.pass_title", { name: nameOf(next) }),
    text: passes.some((a) => a.uno) ? t("dialog.pass_uno") : "",
    options: sortHand(tbl.hand || []).filter((c) => byCard.has(c.id)).map((c) => ({ label: cardLabel(c), card: c, option: `card-${c.id}`, action: byCard.get(c.id) })),
  };
}

// Which cards answer a pending penalty (HR-1, HR-2, §6.1 stacking) and which deflect it (HR-3, HR-4).
const DEFLECTS = { reverse: "reverse", wild_reverse: "reverse", skip: "skip", wild_skip: "skip" };

/** What each card of the hand does to the pending penalty: "answer", "reverse", "skip" (by id). */
export function stackRoles(tbl, legal) {
  const faces = new Map((tbl.hand || []).map((c) => [c.id, c.face]));
  const roles = new Map();
  for (const a of legal) {
    if (a.kind === "play" && faces.has(a.card)) roles.set(a.card, DEFLECTS[faces.get(a.card)] || "answer");
  }
  return roles;
}

/**
 * The cards of your hand that answer or deflect a pending penalty, as the box's options too: a
 * tap on one is a tap on that card of the hand (`tap`: its id), so the box answers for the hand
 * where the hand is out of sight (a phone's decision sheet lies over it, sheet.js).
 */
function answerOptions(tbl, legal) {
  const roles = stackRoles(tbl, legal);
  return sortHand(tbl.hand || []).filter((c) => roles.has(c.id))
    .map((c) => ({ label: cardLabel(c), card: c, option: `card-${c.id}`, tap: c.id }));
}

/** A penalty coming your way: how many, and every way out the hand offers, or the take. */
function stackModel(tbl, pending, legal) {
  const accept = legal.find((a) => a.kind === "accept");
  const n = pending.penalty ?? "";
  const ways = new Set(stackRoles(tbl, legal).values());
  const lines = ["answer", "reverse", "skip"].filter((w) => ways.has(w)).map((w) => t(`stack.way_${w}`));
  lines.push(t(lines.length ? "stack.or_take" : "stack.only_take", { n }));
  return {
    kind: "stack", title: t("stack.coming", { n }), text: lines.join(" "), ways: [...ways].sort(),
    options: [...(accept ? [{ label: t("dialog.take_cards", { n }), option: "accept", action: accept }] : []),
      ...answerOptions(tbl, legal)],
  };
}

/**
 * The decision box's model — { kind, title, text?, replaced?, card?, options[], cancel? } — or
 * null: a choice begun from the hand (`local.choosing`, when still legal), else the decision the
 * server has pending for your seat.  It only reads `local`; the controller drops a stale choice.
 */
export function decisionModel(view, local, nameOf) {
  const tbl = view.game.table;
  if (view.room.status !== "playing") return null;
  if (local.choosing && choiceStillLegal(view, local.choosing)) return fromHand(view, local.choosing, nameOf);
  const you = view.you;
  const pending = tbl.pending;
  if (!pending || pending.seat !== you) return null;
  const legal = legalOf(view);
  const reason = pending.reason ? t(`reason.${pending.reason}`) : "";
  switch (pending.kind) {
    case "colour":
      return { kind: "colour", title: t("dialog.colour"), text: reason, options: legal.filter((a) => a.kind === "choose_colour").map(colourOption) };
    case "target":
      return { kind: "target", title: t("dialog.target_plain"), text: reason, options: legal.filter((a) => a.kind === "choose_target").map(targetOption(tbl, nameOf)) };
    case "challenge": {
      const accept = legal.find((a) => a.kind === "accept");
      const challenge = legal.find((a) => a.kind === "challenge");
      return {
        kind: "challenge", title: t("dialog.challenge_title"),
        text: challengeText(view.game.edition, pending, tbl.top, nameOf),
        replaced: pending.replaced_colour || null,
        card: tbl.top,
        options: [
          accept && { label: t("dialog.accept", { n: pending.penalty ?? "" }), option: "accept", action: accept },
          challenge && { label: t("dialog.challenge"), option: "challenge", action: challenge },
          ...answerOptions(tbl, legal), // stacking on the Wild Draw card instead (§6.1)
        ].filter(Boolean),
      };
    }
    case "drawn":
    case "special":
      return drawnCard(tbl, pending, legal, local.armed, hintless(view));
    case "pass":
      return passCard(tbl, you, legal, nameOf);
    case "stack":
      return stackModel(tbl, pending, legal);
    default:
      return null;
  }
}
