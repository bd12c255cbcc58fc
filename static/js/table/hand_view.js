// Your hand: one button per card, keyed by card id, so a card keeps its element (and the
// keyboard focus, and its animation) from frame to frame; arrows, Home and End move along it.
import { h } from "../dom.js";
import { cardBackSvg, cardSvg } from "../cards.js";
import { changed } from "./changed.js";

const filled = new WeakSet(); // hands drawn once already: cards new after that slide in

function cardButton(c, onCard, fresh) {
  const el = h("button", { class: `card-btn${fresh ? " enter" : ""}`, type: "button", "data-testid": "card", "data-card-id": c.id,
    "data-face": c.card.face, "data-colour": c.card.colour || "wild", title: c.hint }, cardSvg(c.card));
  // The id, not the card object: a patch may rewrite that object in place into another card.
  const id = c.id;
  el.addEventListener("click", () => onCard(id));
  return el;
}

// A card drawn face down (HR-33): its back, not a button — nothing can be done with it until it
// turns up, when the server sends it as a card and it comes in as a new element.
function faceDownCard(c, fresh) {
  return h("span", { class: `card-btn face-down${fresh ? " enter" : ""}`, role: "img", "data-testid": "face-down-card",
    "data-card-id": c.id, "aria-label": c.label, title: c.label }, cardBackSvg());
}

/**
 * Draws `hand` (the model's list of { id, card, playable, plain, passing, batch, label, hint },
 * and of face-down cards { id < 0, faceDown, label }) into `el`;
 * `onCard(id)` is the controller's. `dialog` is the decision box: a keyboard player there keeps
 * the focus when a card leaves the hand.
 */
export function showHand(el, hand, { empty, onCard, dialog }) {
  if (empty) el.dataset.empty = "true";
  else delete el.dataset.empty;
  el.style.setProperty("--n", String(Math.max(hand.length, 1)));
  if (!changed(el, hand)) return;
  const fresh = filled.has(el);
  filled.add(el);
  const existing = new Map([...el.children].map((b) => [Number(b.dataset.cardId), b]));
  const ids = new Set(hand.map((c) => c.id));
  // A keyboard player whose focused card was just played keeps their place in the hand.
  let refocus = -1;
  for (const [id, b] of existing) {
    if (ids.has(id)) continue;
    if (b === document.activeElement) refocus = [...el.children].indexOf(b);
    b.remove();
  }
  let prev = null;
  for (const c of hand) {
    const b = existing.get(c.id) || (c.faceDown ? faceDownCard(c, fresh) : cardButton(c, onCard, fresh));
    const want = prev ? prev.nextSibling : el.firstChild;
    if (c.faceDown) {
      if (want !== b) el.insertBefore(b, want);
      prev = b;
      continue;
    }
    b.dataset.playable = c.playable ? "true" : "false";
    b.classList.toggle("playable", c.playable && !c.plain); // HR-32: no card lit up at a no-hints table
    b.classList.toggle("dim", !c.playable);
    b.classList.toggle("passing", c.passing);
    // A batch being built (HR-8): its lead lifted, the cards in it marked, those that may join lit.
    if (c.batch) b.dataset.batch = c.batch;
    else delete b.dataset.batch;
    b.setAttribute("aria-label", c.label);
    b.setAttribute("aria-disabled", c.playable ? "false" : "true");
    if (want !== b) el.insertBefore(b, want);
    prev = b;
  }
  if (refocus >= 0 && el.children.length && !dialog.contains(document.activeElement)) {
    el.children[Math.min(refocus, el.children.length - 1)].focus({ preventScroll: true });
  }
}

/** Arrow keys, Home and End move the focus along the hand. */
export function handKeys(ev) {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight" && ev.key !== "Home" && ev.key !== "End") return;
  const cards = [...ev.currentTarget.querySelectorAll("button.card-btn")]; // not the face-down backs
  const i = cards.indexOf(document.activeElement);
  if (!cards.length) return;
  let j = i;
  if (ev.key === "ArrowLeft") j = Math.max(0, i - 1);
  else if (ev.key === "ArrowRight") j = Math.min(cards.length - 1, i + 1);
  else if (ev.key === "Home") j = 0;
  else j = cards.length - 1;
  cards[j].focus();
  ev.preventDefault();
}
