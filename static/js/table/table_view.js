// The table's elements, built once when the table appears: the head, the seats' strip, the
// piles, the announcement area, the status line, your bar, the hand and the action bar.  The
// regions (head_view, piles_view, hand_view, action_bar, dialog_view...) fill them in place.
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { cardBackSvg } from "../cards.js";
import { scrollHints } from "../scroll_hint.js";
import { buildMatchClock } from "./match_clock.js";
import { placeDecision } from "./sheet.js";

/** The keyboard shortcuts, listed where everyone can see them (the "?" button or key). */
function buildKeys(close) {
  const rows = [["U", "keys.uno"], ["D", "keys.draw"], ["← →", "keys.move"], ["Home End", "keys.ends"],
    ["Enter", "keys.play"], ["Esc", "keys.cancel"], ["?", "keys.help"]];
  const list = h("dl", { class: "keys-list" });
  for (const [keys, text] of rows) {
    list.append(h("dt", {}, ...keys.split(" ").map((k) => h("kbd", { text: k }))), h("dd", { text: t(text) }));
  }
  return h("section", { class: "keys-help", id: "keys-help", "data-testid": "keys-help", "aria-labelledby": "keys-title", hidden: true },
    h("div", { class: "keys-head" }, h("h2", { id: "keys-title", text: t("keys.title") }),
      h("button", { class: "btn btn-small", type: "button", "data-testid": "keys-close", text: t("dialog.close"), onclick: close })),
    list);
}

/** Shows or hides the shortcuts list (`open` undefined: the other way round). */
export function toggleKeys(els, open) {
  if (!els.keys) return;
  const show = open === undefined ? els.keys.hidden : open;
  els.keys.hidden = !show;
  els.keysToggle.setAttribute("aria-expanded", show ? "true" : "false");
  if (!show && els.keys.contains(document.activeElement)) els.keysToggle.focus({ preventScroll: true });
}

/**
 * Builds the table; `on` = { draw, uno, special, drawer, handKeys } are the controller's commands.
 * Returns the elements by name (`els.table` is the whole of it).
 */
export function buildTable(on) {
  const drawPile = h("button", { class: "pile draw-pile", type: "button", "data-testid": "draw-pile" },
    h("span", { class: "pile-card" }, cardBackSvg()), h("span", { class: "pile-count", "data-testid": "draw-count" }));
  const els = {
    head: h("div", { class: "table-head" }),
    headInfo: h("div", { class: "head-info" }),
    matchClock: buildMatchClock(),
    opponents: h("ol", { class: "opponents", "data-testid": "opponents", "aria-label": t("table.turn_order") }),
    drawPile,
    discard: h("div", { class: "pile discard", "data-testid": "discard" }),
    colour: h("div", { class: "declared", "data-testid": "declared-colour" }),
    turn: h("div", { class: "turn-info", "data-testid": "turn-info" }),
    // The one announcement area: decisions (on a phone a bottom sheet instead: sheet.js), a
    // revealed hand, item flashes, toasts and the shortcuts list, stacked beside the piles,
    // never over them, the hand or the action bar.
    announce: h("div", { class: "announce", "data-testid": "announce" }),
    flash: h("div", { class: "item-flash", "data-testid": "item-flash", role: "status", "aria-live": "polite", hidden: true }),
    status: h("p", { class: "status-line", "data-testid": "status-line", "aria-live": "polite" }),
    clock: h("p", { class: "turn-clock", "data-testid": "turn-clock", hidden: true }),
    // Every move, the other players' too, is read out by screen readers as it happens.
    ticker: h("p", { class: "ticker", "data-testid": "last-event", role: "status", "aria-live": "polite", "aria-atomic": "true" }),
    dialog: h("section", { class: "dialog", "data-testid": "dialog", role: "dialog", "aria-modal": "false", hidden: true }),
    revealed: h("section", { class: "revealed", "data-testid": "revealed", hidden: true }),
    meBar: h("div", { class: "me-bar", "data-testid": "me" }),
    hand: h("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("table.your_hand") }),
    uno: h("button", { class: "btn uno-button", type: "button", "data-testid": "uno-button", "aria-keyshortcuts": "U", text: t("table.uno") }),
    drawBtn: h("button", { class: "btn draw-button", type: "button", "data-testid": "draw-button", "aria-keyshortcuts": "D", text: t("table.draw") }),
    special: h("button", { class: "btn special-button", type: "button", "data-testid": "special-draw", hidden: true, text: t("table.special_draw") }),
    summary: h("section", { class: "summary", "data-testid": "round-summary", role: "dialog", "aria-labelledby": "summary-title", "aria-describedby": "summary-lead", hidden: true }),
  };
  els.keys = buildKeys(() => toggleKeys(els, false));
  els.keysToggle = h("button", { class: "btn btn-small head-button keys-toggle", type: "button", "data-testid": "keys-toggle", "aria-controls": "keys-help", "aria-expanded": "false", "aria-keyshortcuts": "?", "aria-label": t("keys.title"), title: t("keys.title"), text: "?", onclick: () => toggleKeys(els) });
  els.sideToggle = h("button", { class: "btn btn-small head-button side-toggle", type: "button", "data-testid": "side-toggle", "aria-controls": "side-panel", "aria-expanded": "false", text: t("side.toggle"), onclick: () => on.drawer() });
  els.head.append(els.headInfo, els.matchClock, els.keysToggle, els.sideToggle);
  drawPile.addEventListener("click", () => on.draw());
  els.drawBtn.addEventListener("click", () => on.draw());
  els.uno.addEventListener("click", () => on.uno());
  els.special.addEventListener("click", () => on.special());
  els.hand.addEventListener("keydown", on.handKeys);
  els.announce.append(els.dialog, els.revealed, els.flash, els.keys);
  scrollHints(els.announce);
  // The line under the piles: the status, the turn clock, a one-time tip (uno_tip.js), the last event.
  els.info = h("div", { class: "table-info" }, h("div", { class: "status-row" }, els.status, els.clock), els.ticker);
  els.centre = h("div", { class: "centre" },
    h("div", { class: "piles" }, els.drawPile, h("div", { class: "discard-wrap" }, els.discard, els.colour), els.turn),
    els.announce);
  els.table = h("section", { class: "table-area room-table", "data-testid": "table", "aria-label": t("table.label") },
    els.head, els.opponents, els.centre,
    els.info,
    els.meBar, els.hand,
    h("div", { class: "actions" }, els.drawBtn, els.special, els.uno),
    els.summary);
  placeDecision(els); // a bottom sheet on a phone, beside the piles elsewhere (sheet.js)
  return els;
}

/** The table's data attributes (the stylesheet and the browser tests read them). */
export function showTableState(els, m) {
  const d = els.table.dataset;
  d.edition = m.edition;
  d.myTurn = m.myTurn ? "true" : "false";
  d.pendingKind = m.pendingKind;
  d.handCount = String(m.handCount);
  d.status = m.status;
}
