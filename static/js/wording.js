// What the table asks of a player, worded from the rules the engine implements (RULES.md):
// who may challenge what and what it costs, what a stack adds up to, whom a 7 swaps with.
import { has, t } from "./i18n.js";
import { cardName } from "./cards.js";

/** A card's play variants, split by whether they say UNO! with the play (C-11). */
export function unoSplit(variants) {
  return { withUno: variants.filter((a) => a.uno), without: variants.filter((a) => !a.uno) };
}

/** The title of the dialog that asks for an opponent for `card`. */
export function targetTitle(card) {
  const face = card && card.face;
  // A Seven-O 7 and a Forced Swap swap hands with the one chosen (RULES.md 6, AW-2).
  if (face === "7" || face === "wild_forced_swap") return t("dialog.target_swap", { card: cardName(card) });
  if (face === "wild_targeted_draw2") return t("dialog.target_draw2", { card: cardName(card) });
  return t("dialog.target", { card: cardName(card) });
}

/**
 * The challenge dialog's text: when the card was legal, and what each outcome costs.
 * Classic (CL-5, CL-6) and Mario Kart (MK-4): a Wild Draw Four is legal only without a card of
 * the colour it replaced (in Mario Kart, an Item Box counts as one); guilty, the player draws the
 * penalty; innocent, the challenger draws it plus 2 (6 for one Wild Draw Four; RULES.md 6.1 for
 * stacks).  Pocket Pizza (PP-5, PP-6): a Wild Draw 2 is legal only without another playable card.
 */
export function challengeText(edition, pending, top, nameOf) {
  const n = pending.penalty ?? 0;
  const p = { name: nameOf(pending.challenged), card: cardName(top), n, m: n + 2 };
  const colour = pending.replaced_colour;
  if (edition === "pocket_pizza") return t("dialog.challenge_wd2", p);
  if (colour && (edition === "classic" || edition === "mario_kart")) {
    return t(edition === "mario_kart" ? "dialog.challenge_wd4_mk" : "dialog.challenge_wd4", { ...p, colour: t(`colour.${colour}`) });
  }
  return t("dialog.challenge_text", p);
}

/** The status line for the decision the table waits for from you. */
export function pendingText(edition, pending) {
  // AW-5: in All Wild a turn is a play; there is no voluntary draw.
  if (pending.kind === "turn" && edition === "all_wild") return t("pending.mine.turn_all_wild");
  return t(`pending.mine.${pending.kind}`);
}

/**
 * What a card's symbol means, for its tooltip: All Wild's action symbols (AW-2) and the item
 * a Mario Kart card shows (MK-2: it fires only when an Item Box turns the card, MK-5..MK-10).
 * Null where the face says it all.
 */
export function cardHint(card, edition) {
  if (!card) return null;
  if (card.item && has(`itemfx.${card.item}`)) {
    return t("facefx.item", { item: t(`item.${card.item}`), effect: t(`itemfx.${card.item}`) });
  }
  if (edition === "all_wild" && has(`facefx.${card.face}`)) return t(`facefx.${card.face}`);
  return null;
}
