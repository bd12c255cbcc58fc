// The centre of the table: the draw pile, the discard pile (the card played flies to it from
// where it was), the colour in force and the way play goes round.
import { t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { cardLabel, cardSvg, colourBadge } from "../cards.js";
import { changed } from "./changed.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Where a card just played was: a card of your hand, or the seat of the opponent who played it. */
function playedFrom(els, piles) {
  const mine = els.hand.querySelector(`[data-card-id="${piles.top.id}"]`);
  if (mine) return mine;
  return piles.playedBy === null ? null : els.opponents.querySelector(`[data-seat="${piles.playedBy}"]`);
}

/** The card played flies from where it was to the pile (never with reduced motion). */
function travel(centre, card, from) {
  if (!from || reducedMotion.matches || typeof card.animate !== "function") return false;
  const a = from.getBoundingClientRect();
  const b = card.getBoundingClientRect();
  if (!a.width || !b.width) return false;
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const scale = Math.min(1, a.height / b.height);
  centre.classList.add("travelling");
  const flight = card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: 340, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", id: "travel" });
  const done = () => centre.classList.remove("travelling");
  flight.addEventListener("finish", done);
  flight.addEventListener("cancel", done);
  return true;
}

function showDiscard(els, piles) {
  if (!changed(els.discard, piles.topKey)) return;
  const land = !!els.discard.firstChild; // the first card shown was dealt, not played
  const card = h("div", { class: "top-card", role: "img", "aria-label": t("table.top_card", { card: cardLabel(piles.top) }) }, cardSvg(piles.top));
  const from = land ? playedFrom(els, piles) : null; // before the hand lets the card go
  clear(els.discard).append(card);
  if (land && !travel(els.centre, card, from)) card.classList.add("land");
}

function showColour(el, piles) {
  if (!changed(el, [piles.colour, piles.noColours])) return;
  clear(el);
  el.dataset.colour = piles.colour || "";
  if (piles.colour) el.append(colourBadge(piles.colour, 20), h("span", { text: t("table.colour_is", { colour: t(`colour.${piles.colour}`) }) }));
  else el.append(h("span", { class: "muted", text: piles.noColours ? t("table.no_colours") : "" }));
}

function showDirection(el, direction) {
  if (!changed(el, direction)) return;
  // The arrow is a picture of the words beside it: read once, as the words.
  const cw = direction === 1;
  el.dataset.direction = String(direction);
  clear(el).append(
    h("span", { class: `direction ${cw ? "cw" : "ccw"}`, "data-testid": "direction", "aria-hidden": "true" }, cw ? "↻" : "↺"),
    h("span", { class: "direction-label", text: cw ? t("table.clockwise") : t("table.counter_clockwise") }));
}

/** Draws the model's `piles` part into the table's elements. */
export function showPiles(els, piles) {
  els.drawPile.querySelector(".pile-count").textContent = String(piles.drawCount);
  els.drawPile.disabled = !piles.canDraw;
  els.drawPile.setAttribute("aria-label", t("table.draw_pile", { n: piles.drawCount }));
  showDiscard(els, piles);
  showColour(els.colour, piles);
  showDirection(els.turn, piles.direction);
}
