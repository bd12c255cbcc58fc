// What a tap on a card of your hand (or Enter on it) does: play it, begin a choice (colour,
// target, UNO! with the play), or build a batch of one number (HR-8) — the controller's
// commands for cards, kept apart so that the controller stays about the page.  `ctl` is the
// RoomController: its `view`, `ui` (choosing, batch, armed) and `act`, `render`, `send`.
import { t } from "../i18n.js";
import { toast } from "../dom.js";
import { unoSplit } from "../wording.js";
import { cardOptions, pickUno } from "./decision.js";
import { batchMates, batchOffer, batchVariants, toggled } from "./batch.js";
import { hintless } from "./unhinted.js";

/** Play one of `variants` of card `card`: at once, or after UNO!, a colour or a target is chosen. */
export function playVariants(ctl, card, variants) {
  const split = unoSplit(variants);
  ctl.ui.batch = null;
  // UNO! said already on this turn (C-11, the UNO! button pressed before the card): that answers
  // the question, and the play goes out with it, as if armed.
  const said = ctl.view.game.table.predeclared === ctl.view.you;
  if (said) { choose(ctl, card, pickUno(variants, true)); return; }
  if (!ctl.ui.armed && split.withUno.length && split.without.length) {
    // This play can leave one card: offer to say UNO! with it (C-11), before any colour or target.
    ctl.setChoosing({ card, variants, unoChoice: true });
    return;
  }
  choose(ctl, card, pickUno(variants, ctl.ui.armed));
}

/** Play one of `variants` of card `card` (UNO! settled): at once, or after a colour or target. */
export function choose(ctl, card, variants) {
  if (variants.length === 1) ctl.act(variants[0]);
  else ctl.setChoosing({ card, variants });
}

/** A tap on card `id` of your hand. */
export function tapCard(ctl, id) {
  const view = ctl.view;
  const batch = ctl.ui.batch;
  if (batch) {
    // Building a batch: a card that may join it goes in or out; its lead plays it as it stands.
    if (batch.card === id) { playVariants(ctl, id, batchVariants(view, batch)); return; }
    if (batchMates(view, batch.card).includes(id)) { setBatch(ctl, toggled(batch, id)); return; }
    ctl.ui.batch = null; // another card: the batch is dropped, that card speaks for itself
  }
  const options = cardOptions(view, id);
  if (!options.length) {
    const pending = view.game.table.pending;
    // Ask the server why (the engine's refusal, nothing played); the answer's toast explains it.
    // Not at a no-hints table (HR-32: `why` is refused there): no card is yours to play now.
    if (view.you !== null && !hintless(view)) ctl.send({ type: "why", action: { kind: "play", card: id } });
    else if (view.you !== null && pending && pending.seat !== view.you) toast(t("refusal.not_your_turn", { name: ctl.nameOf(pending.seat) }), "info", 2500);
    else toast(t("hint.not_playable"), "info", 2500);
    if (batch) ctl.render();
    return;
  }
  // A number card others of its number may join (HR-8): the table offers them first.
  if (batchOffer(view, id)) { setBatch(ctl, { card: id, picked: [] }); return; }
  playVariants(ctl, id, options);
}

/** A decision's option from a batch (a card going in or out, the batch played), else null. */
export function batchOption(ctl, option) {
  if (option.toggle !== undefined && ctl.ui.batch) { setBatch(ctl, toggled(ctl.ui.batch, option.toggle)); return true; }
  if (option.play) { playVariants(ctl, option.play.card, option.play.variants); return true; }
  return false;
}

function setBatch(ctl, batch) {
  ctl.ui.batch = batch;
  ctl.ui.choosing = null;
  ctl.render();
}
