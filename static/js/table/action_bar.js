// The action bar (Draw, the edition's special draw, UNO!) and the lines above it: the status
// line, the latest move read out, and your own bar (cards, score, turn, UNO! said or armed).
import { t } from "../i18n.js";
import { append, clear, h } from "../dom.js";
import { changed } from "./changed.js";

/** The UNO!, Draw and special-draw buttons from the model's `actions` part. */
export function showActions(els, actions) {
  const u = actions.uno;
  els.uno.dataset.unoMode = u.mode;
  els.uno.classList.toggle("hot", u.mode !== "idle");
  els.uno.setAttribute("aria-pressed", u.pressed ? "true" : "false");
  els.uno.disabled = u.disabled;
  els.uno.setAttribute("aria-label", u.label);
  els.uno.textContent = u.text;
  els.drawBtn.disabled = actions.draw.disabled;
  els.drawBtn.hidden = actions.draw.hidden;
  els.special.hidden = actions.special.hidden;
}

/** The status line (what is asked, of whom) and the ticker, a live region read only on news. */
export function showStatus(els, status, ticker) {
  els.status.textContent = status.text;
  els.status.classList.toggle("mine", status.mine);
  if (changed(els.ticker, ticker.n)) els.ticker.textContent = ticker.text;
}

/** Your own bar: name, cards, score and badges (turn, next, UNO! said, exposed, armed). */
export function showMe(el, me) {
  if (!changed(el, me)) return;
  clear(el);
  if (!me) return;
  append(el, [h("span", { class: "me-name", text: me.name }),
    h("span", { class: "muted", text: t("table.cards", { n: me.cards }) }),
    h("span", { class: "muted", text: t("summary.total", { n: me.score }) }),
    me.turn ? h("span", { class: "badge badge-turn", text: t("table.your_turn") }) : null,
    me.next ? h("span", { class: "badge badge-next", "data-testid": "me-next", text: t("table.you_next") }) : null,
    me.declared ? h("span", { class: "badge badge-uno", text: t("table.said_uno") }) : null,
    me.exposed ? h("span", { class: "badge badge-warn", text: t("table.exposed_me") }) : null,
    me.armed ? h("span", { class: "badge badge-uno", text: t("table.armed") }) : null]);
}

/** The turn clock: seconds left on the pending decision, and the ring round the seat to play. */
export function showClock(els, room, pending) {
  const el = els.clock;
  const at = room.status === "playing" ? room.turn_deadline : null;
  if (!at) { el.textContent = ""; el.hidden = true; return; }
  const left = Math.max(0, Math.ceil(at - Date.now() / 1000));
  el.hidden = false;
  el.textContent = t("table.time_left", { n: left });
  el.classList.toggle("urgent", left <= 5);
  // The ring around the seat whose turn it is empties as its time runs out.
  const seconds = room.turn_seconds || 0;
  const chip = pending && els.opponents.querySelector(`.opponent[data-seat="${pending.seat}"]`);
  if (chip && seconds) {
    chip.classList.add("clocked");
    chip.classList.toggle("urgent", left <= 5);
    chip.style.setProperty("--left", String(Math.min(1, Math.max(0, (at - Date.now() / 1000) / seconds))));
  }
}
