// The big screen's table, during play: a head line (room, edition, round, code), the seats around
// an ellipse (seats.js), the piles large in the middle with the colour in force, the direction
// and whose turn it is in words, the narrator's latest line as a caption, and the round summary,
// scores, podium and rematch vote over it all between rounds (summary_view.js, as at the table).
// The piles are drawn by the table's own piles_view.js: a card played flies from its seat.
import { t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { avatar } from "../avatar.js";
import { cardBackSvg } from "../cards.js";
import { EMOTES, fresh } from "../reactions.js";
import { showPiles } from "../table/piles_view.js";
import { showSummary } from "../summary_view.js";
import { changed } from "../table/changed.js";
import { popReaction, showRing, showScreenSeats } from "./seats.js";

/** The table's elements, built once when the deal is first shown. */
export function buildBoard() {
  const drawPile = h("div", { class: "pile draw-pile", "data-testid": "draw-pile" },
    h("span", { class: "pile-card" }, cardBackSvg()), h("span", { class: "pile-count", "data-testid": "draw-count" }));
  const els = {
    head: h("header", { class: "sc-head", "data-testid": "screen-head" }),
    opponents: h("ol", { class: "sc-seats", "data-testid": "screen-seats", "aria-label": t("table.turn_order") }),
    drawPile,
    discard: h("div", { class: "pile discard", "data-testid": "discard" }),
    colour: h("div", { class: "declared sc-colour", "data-testid": "declared-colour" }),
    turn: h("div", { class: "turn-info sc-direction", "data-testid": "turn-info" }),
    now: h("p", { class: "sc-now", "data-testid": "screen-now", "aria-live": "polite" }),
    caption: h("p", { class: "sc-caption", "data-testid": "screen-caption", role: "status", "aria-live": "polite" }),
    corner: h("div", { class: "sc-corner-reactions" }),
    hand: h("div"), // (the piles look for a card played from a hand: a screen has none)
    summary: h("section", { class: "summary sc-summary", "data-testid": "round-summary", role: "dialog", "aria-labelledby": "summary-title", hidden: true }),
  };
  els.centre = h("div", { class: "sc-centre centre" },
    h("div", { class: "piles sc-piles" }, els.drawPile, els.discard),
    h("div", { class: "sc-state" }, els.colour, els.turn),
    els.now);
  els.table = h("section", { class: "sc-board", "data-testid": "screen-board", "aria-label": t("table.label") },
    els.head,
    h("div", { class: "sc-felt" }, els.opponents, els.centre, els.corner),
    h("footer", { class: "sc-foot" }, els.caption),
    els.summary);
  return els;
}

function showHead(el, view, model) {
  const room = view.room;
  const key = [room.name, model.head.editionName, model.head.round, room.code];
  if (!changed(el, key)) return;
  clear(el).append(
    h("span", { class: "sc-room-name", text: room.name }),
    h("span", { class: "sc-edition", text: `${model.head.editionName} · ${model.head.round}` }),
    h("span", { class: "sc-code", "data-testid": "screen-code" }, h("span", { text: t("screen.code") }), h("strong", { text: room.code })));
}

/** Whose turn it is, in words and with the player's avatar, under the piles. */
function showNow(el, view, nameOf) {
  const pending = view.game.table.pending;
  const playing = view.room.status === "playing";
  const key = playing && pending ? [pending.seat, pending.kind, nameOf(pending.seat)] : null;
  if (!changed(el, key)) return;
  clear(el);
  if (!key) return;
  const name = nameOf(pending.seat);
  const words = pending.kind === "turn" ? t("screen.turn", { name }) : t(`pending.other.${pending.kind}`, { name });
  el.append(avatar(name, { bot: !!(view.players.find((p) => p.seat === pending.seat) || {}).bot }), h("span", { text: words }));
}

export class Board {
  constructor() {
    this.els = null;
    this.seen = null; // the last reaction shown (those there before the page opened are not news)
    this.summaryState = { shown: "", countdown: null, rematchTimer: { id: null } };
  }

  /** Builds the board into `root` (once). */
  mount(root) {
    if (!this.els) this.els = buildBoard();
    if (this.els.table.parentElement !== root) clear(root).append(this.els.table);
  }

  render(view, model, nameOf) {
    const els = this.els;
    els.table.dataset.status = view.room.status;
    els.table.dataset.edition = view.game.edition;
    showHead(els.head, view, model);
    showScreenSeats(els.opponents, model.seats);
    showPiles(els, model.piles);
    showNow(els.now, view, nameOf);
    if (changed(els.caption, model.ticker.n)) els.caption.textContent = model.ticker.text;
    this.reactions(view, nameOf);
    showSummary(els.summary, view, { you: null, send: () => Promise.resolve(null), nameOf, state: this.summaryState });
    this.tick(view);
  }

  reactions(view, nameOf) {
    const news = fresh(view, this.seen ?? Infinity);
    const newest = (view.reactions || []).reduce((m, r) => Math.max(m, r.n), this.seen ?? 0);
    this.seen = newest;
    for (const r of news) {
      const label = t(`react.${r.emote}`);
      const who = r.seat === null || r.seat === undefined ? r.name : nameOf(r.seat);
      popReaction(this.els.opponents, this.els.corner, r, EMOTES[r.emote], r.seat === null || r.seat === undefined ? `${who}: ${label}` : label);
    }
  }

  tick(view) {
    if (!this.els || !view || !view.game) return;
    showRing(this.els.opponents, view.room, view.room.status === "playing" ? view.game.table.pending : null);
  }
}
