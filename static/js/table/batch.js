// Several cards of one number in one move (RULES.md HR-8, and HR-9's bomb at 3 or more), as
// data.  `legal` offers a seat's batches compactly, one `{kind: "batch"}` entry per number it
// holds several of (docs/PROTOCOL.md): the group's `cards`, the `leads` that may go first, the
// `targets` its last card may name and the `[size, target]` pairs UNO! goes with.  A batch begins
// from a tapped card that may lead; the others of the group are lit in the hand and listed in the
// decision box, each a toggle; the last card added is the one that acts (its colour is the colour
// to match).  The batch the table is building is the page's local state (`local.batch` =
// { card, picked: [ids] }); here only what it means now.  No DOM; tested under Node
// (tests/js/batch.test.mjs).
import { t } from "../i18n.js";
import { cardName } from "../cards.js";
import { cardOptions, legalOf } from "./decision.js";

const BOMB = 3; // HR-9: a batch of this many cards or more bombs

/** The batch offer (HR-8) that card `id` may lead, or null. */
export function batchOffer(view, id) {
  return legalOf(view).find((a) => a.kind === "batch" && a.leads.includes(id)) || null;
}

/** The cards of your hand that may join a batch led by `lead`, in hand order. */
export function batchMates(view, lead) {
  const offer = batchOffer(view, lead);
  return offer ? offer.cards.filter((c) => c !== lead) : [];
}

/**
 * The actions that lay the batch `lead` + `picked` (in the order picked: its last card acts):
 * one per target its offer names, each with its UNO! twin where the offer lets UNO! go with that
 * many cards at that target.  No card picked: the lead's own plays.
 */
export function batchVariants(view, batch) {
  if (!batch.picked.length) return cardOptions(view, batch.card);
  const mates = batchMates(view, batch.card);
  if (new Set(batch.picked).size !== batch.picked.length || !batch.picked.every((c) => mates.includes(c))) return [];
  const offer = batchOffer(view, batch.card);
  const size = 1 + batch.picked.length;
  const out = [];
  for (const target of offer.targets || [null]) {
    const a = { kind: "play", card: batch.card };
    if (target !== null) a.target = target;
    a.more = [...batch.picked];
    out.push(a);
    if ((offer.uno || []).some(([n, to]) => n === size && to === target)) out.push({ ...a, uno: true });
  }
  return out;
}

/** Whether the batch being built can still be played (it is still your turn, its cards still join). */
export function batchStillLegal(view, batch) {
  if (!batch || view.room.status !== "playing") return false;
  const mates = new Set(batchMates(view, batch.card));
  return mates.size > 0 && batch.picked.every((c) => mates.has(c)) && batchVariants(view, batch).length > 0;
}

/** `batch` with card `id` added (at the end: it acts) or taken back out. */
export function toggled(batch, id) {
  const picked = batch.picked.includes(id) ? batch.picked.filter((c) => c !== id) : [...batch.picked, id];
  return { card: batch.card, picked };
}

/** Whether the house rules bomb (HR-9) a batch of `size` cards. */
export function bombs(view, size) {
  const rules = (view.game && view.game.house_rules) || view.room.house_rules || {};
  return !!rules.bomb && size >= BOMB;
}

/**
 * The decision box for the batch being built: the lead card, every card that may join it as a
 * toggle (pressed: in the batch), and the play of the batch as it stands (primary: a tap plays
 * the lead alone, as it always did).  The words say what a bomb does once the batch is one.
 */
export function batchModel(view, batch) {
  const hand = view.game.table.hand || [];
  const byId = new Map(hand.map((c) => [c.id, c]));
  const lead = byId.get(batch.card);
  const size = 1 + batch.picked.length;
  const bomb = bombs(view, size);
  const toggles = batchMates(view, batch.card).map((id) => {
    const c = byId.get(id);
    const pressed = batch.picked.includes(id);
    return { label: t(pressed ? "batch.remove" : "batch.add", { card: cardName(c) }), card: c, option: `mate-${id}`, pressed, toggle: id };
  });
  const play = {
    label: size === 1 ? t("batch.play_one", { card: cardName(lead) }) : t("batch.play_n", { n: size }),
    option: "play-batch", primary: true, play: { card: batch.card, variants: batchVariants(view, batch) },
  };
  // `hint` points at the hand, which a phone's sheet covers (its toggles are the sheet's buttons
  // there, dialog_view.js leaves it out); `text` is what the batch does as it stands.
  const hint = t("batch.text", { face: lead.face });
  const words = [];
  const last = byId.get(batch.picked[batch.picked.length - 1]);
  if (size > 1) words.push(t("batch.last_acts", { card: cardName(last) }));
  if (bomb) words.push(t("batch.bomb"));
  return { kind: "batch", title: t("batch.title", { face: lead.face }), hint, text: words.join(" "),
    card: lead, bomb, options: [...toggles, play], cancel: true };
}

/** How a card of the hand stands to the batch being built: "lead", "picked", "mate" or "". */
export function batchRole(batch, mates, id) {
  if (!batch) return "";
  if (batch.card === id) return "lead";
  if (batch.picked.includes(id)) return "picked";
  return mates.includes(id) ? "mate" : "";
}
