// The announcement area beside the piles: the decision box (dialog_view.js), a hand revealed
// to you, an item's flash, and the news of new log entries (UNO! races, challenges) as toasts.
import { t } from "../i18n.js";
import { clear, h, toast } from "../dom.js";
import { cardBackSvg, cardLabel, cardName, cardSvg, itemSvg } from "../cards.js";
import { describe, raceText } from "../narrate.js";
import { showDecision } from "../dialog_view.js";
import { changed } from "./changed.js";

/** The decision box, redrawn only when its model changed (so the focus stays on its button). */
export function showDialog(els, decision, { run, cancel }) {
  if (!changed(els.dialog, decision)) return;
  showDecision(els.dialog, decision, { table: els.table, run, cancel });
}

/** A hand shown to you (a challenge, a Seven-O look), until you close it; `close(key)` is the controller's. */
export function showRevealed(el, revealed, close) {
  if (!revealed) { el.hidden = true; changed(el, null); return; }
  if (!changed(el, revealed.key) && !el.hidden) return;
  const cards = h("div", { class: "mini-hand" });
  for (const c of revealed.cards) cards.append(h("span", { class: "mini-card", role: "img", "aria-label": cardLabel(c) }, cardSvg(c)));
  // D-5: the challenged hand's face-down cards (HR-33), by count only.
  for (let i = 0; i < (revealed.faceDown || 0); i += 1) {
    cards.append(h("span", { class: "mini-card", role: "img", "aria-label": t("card.face_down"), "data-testid": "revealed-face-down" }, cardBackSvg()));
  }
  clear(el).append(h("h2", { text: revealed.title }), cards,
    h("button", { class: "btn btn-small", type: "button", "data-testid": "revealed-close", text: t("dialog.close"), onclick: () => { close(revealed.key); el.hidden = true; } }));
  el.hidden = false;
}

let flashTimer = null;

function flashItem(el, entry, nameOf) {
  if (!el) return;
  showFlash(el, h("div", { class: "flash-card" }, cardSvg(entry.card)),
    h("div", { class: "flash-text" },
      h("strong", {}, itemSvg(entry.item, 26), " ", t(`item.${entry.item}`)),
      h("span", { text: t("item.flipped", { name: nameOf(entry.seat), card: cardName(entry.card) }) }),
      h("span", { class: "muted", text: t(`itemfx.${entry.item}`) })));
}

/** HR-9: a batch of 3 or more went off: its cards, and everyone else drawing 1. */
function flashBomb(el, entry, play, nameOf) {
  if (!el) return;
  const cards = h("div", { class: "flash-cards" });
  for (const c of (play && play.batch) || []) cards.append(h("span", { class: "mini-card" }, cardSvg(c)));
  showFlash(el, cards, h("div", { class: "flash-text" },
    h("strong", { text: t("flash.bomb") }),
    h("span", { text: t("flash.bomb_text", { name: nameOf(entry.seat), count: entry.cards }) })), "bomb");
}

/** HR-20: a misplay, shown to everyone: the card tried, the penalty, the seat (or your card) shaken. */
function flashMisplay(els, entry, you, nameOf) {
  const mine = entry.seat === you;
  if (els.flash) {
    const cards = h("div", { class: "flash-cards" });
    for (const c of entry.cards || []) cards.append(h("span", { class: "mini-card" }, cardSvg(c)));
    showFlash(els.flash, cards, h("div", { class: "flash-text" },
      h("strong", { text: t("flash.misplay") }),
      h("span", { text: t(mine ? "flash.misplay_you" : "flash.misplay_text", { name: nameOf(entry.seat), cards: (entry.cards || []).map(cardName).join(", ") }) })), "misplay");
  }
  const targets = mine && els.hand
    ? [...els.hand.querySelectorAll(".card-btn")].filter((b) => (entry.cards || []).some((c) => b.dataset.face === c.face && b.dataset.colour === (c.colour || "wild")))
    : [els.opponents && els.opponents.querySelector(`.opponent[data-seat="${entry.seat}"]`)];
  for (const el of targets.filter(Boolean)) shake(el);
}

function shake(el) {
  el.classList.remove("misplayed");
  void el.offsetWidth; // restart the animation
  el.classList.add("misplayed");
  setTimeout(() => el.classList.remove("misplayed"), 1600);
}

function showFlash(el, picture, words, kind = "item") {
  clear(el).append(picture, words);
  el.dataset.kind = kind;
  el.hidden = false;
  el.classList.remove("pop");
  void el.offsetWidth; // restart the animation
  el.classList.add("pop");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

/**
 * New log entries drive the transient effects: item flashes, UNO! receipts, bombs (HR-9),
 * misplays (HR-20) and who is out (HR-29).  `els` are the mode's elements (the table's flash
 * area, hand and seats; the waiting room has none).
 */
export class EntryNews {
  constructor() {
    this.seen = null; // entry n -> how many attempts it showed (a race's receipts grow)
  }

  notice(view, els, nameOf) {
    const log = view.log;
    const flashEl = els.flash;
    const first = this.seen === null;
    if (first) this.seen = new Map();
    for (const e of log) {
      const sig = e.attempts ? e.attempts.length : 0;
      const known = this.seen.get(e.n);
      this.seen.set(e.n, sig);
      if (first || known === sig) continue;
      if (e.kind === "uno_race") toast(raceText(e, nameOf), "uno", 5000);
      else if (e.kind === "item") flashItem(flashEl, e, nameOf);
      else if (e.kind === "challenge") toast(describe(e, nameOf), "info");
      else if (e.kind === "bomb") flashBomb(flashEl, e, [...log].reverse().find((x) => x.kind === "play" && x.seat === e.seat && x.n < e.n), nameOf);
      else if (e.kind === "misplay") flashMisplay(els, e, view.you, nameOf);
      else if (e.kind === "eliminated") toast(describe(e, nameOf), "info", 5000);
    }
  }
}
