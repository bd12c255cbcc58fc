// The action bar (Draw, the edition's special draw, UNO!) and the lines above it: the status
// line, the latest move read out, and your own bar (cards, score, turn, UNO! said or armed).
import { t } from "../i18n.js";
import { append, clear, h } from "../dom.js";
import { changed } from "./changed.js";
import { houseRules, teamName } from "./sides.js";

/** The UNO!, Draw and special-draw buttons from the model's `actions` part. */
export function showActions(els, actions) {
  const u = actions.uno;
  els.uno.dataset.unoMode = u.mode;
  els.uno.classList.toggle("hot", u.mode !== "idle");
  els.uno.setAttribute("aria-pressed", u.pressed ? "true" : "false");
  els.uno.disabled = u.disabled;
  els.uno.hidden = !!u.hidden; // HR-18: no UNO! at all
  els.uno.dataset.strict = u.strict ? "true" : "false";
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

/** What the UNO! button says when it has nothing to do: strict UNO! (HR-17) is said after the play. */
export function unoHint(view) {
  return houseRules(view).strict_uno ? "hint.strict_uno" : "hint.no_uno";
}

/**
 * Out of the match (HR-30): a banner over the table, and no hand or action bar (the table
 * class `is-out`), as a spectator's; `watcher` is the model's (null while you are in).
 */
export function showWatcher(els, watcher) {
  els.table.classList.toggle("is-out", !!watcher);
  let banner = els.table.querySelector(":scope > [data-testid=out-banner]");
  if (!watcher) { if (banner) banner.remove(); return; }
  if (!banner) {
    banner = h("div", { class: "watching-banner out-banner", "data-testid": "out-banner", role: "status" });
    els.table.prepend(banner);
  }
  if (!changed(banner, watcher)) return;
  clear(banner).append(h("strong", { text: watcher.title }), " ", h("span", { text: watcher.text }));
}

/** Your own bar: name, cards, score and badges (team, out, turn, next, UNO! said, exposed, armed). */
export function showMe(el, me) {
  if (!changed(el, me)) return;
  clear(el);
  if (!me) return;
  append(el, [h("span", { class: "me-name", text: me.name }),
    h("span", { class: "muted", text: t("table.cards", { n: me.cards }) }),
    h("span", { class: "muted", text: t("summary.total", { n: me.score }) }),
    me.team !== null ? h("span", { class: `badge badge-team team-${me.team}`, "data-testid": "me-team", text: teamName(me.team) }) : null,
    me.out ? h("span", { class: "badge badge-out", "data-testid": "me-out", text: t("out.badge") }) : null,
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
