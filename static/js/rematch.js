// The rematch, decided by the table (app/rooms/rematch.py): each player says "play again" or
// leaves; it starts when everyone still here is ready, or when the host's countdown runs out.
import { t } from "./i18n.js";
import { h } from "./dom.js";

/** Who is still to answer: people at the table who are not ready (bots always are). */
export function waitingFor(view) {
  return view.players.filter((p) => !p.bot && !p.ready).map((p) => p.name);
}

/**
 * The controls under the podium for this reader: play again / leave for a seat, the host's
 * start (a countdown, or at once when asked again), and a line saying what the table waits for.
 * `timer` keeps the countdown's interval between rebuilds.
 */
export function rematchControls(view, you, send, timer) {
  const row = h("div", { class: "button-row rematch-row" });
  const mine = view.players.find((p) => p.seat === you);
  const host = you !== null && you === view.room.host;
  const counting = view.room.rematch_at !== null && view.room.rematch_at !== undefined;
  if (host) {
    // The host's "play again" is the start: a countdown for the others, or at once if asked again.
    row.append(h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "rematch-button", text: t(counting ? "rematch.start_now" : "rematch.start"), onclick: () => send({ type: "rematch" }) }));
  } else if (mine && !mine.ready) {
    row.append(h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "ready-button", text: t("rematch.ready"), onclick: () => send({ type: "ready", ready: true }) }));
  } else if (mine) {
    row.append(h("button", { class: "btn btn-big", type: "button", "data-testid": "ready-button", "aria-pressed": "true", disabled: true, text: t("rematch.ready_waiting") }));
  }
  if (mine) row.append(h("button", { class: "btn btn-ghost btn-small", type: "button", "data-testid": "leave-button", text: t("room.leave"), onclick: () => send({ type: "leave" }) }));
  const waiting = waitingFor(view);
  const line = h("p", { class: "muted rematch-status", "data-testid": "waiting-rematch", "aria-live": "polite" });
  const tick = () => {
    const at = view.room.rematch_at;
    const left = at ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : null;
    const who = waiting.length ? t("rematch.waiting_for", { names: waiting.join(", ") }) : "";
    line.textContent = left !== null ? [t("rematch.starts_in", { n: left }), who].filter(Boolean).join(" ") : who;
  };
  tick();
  clearInterval(timer.id);
  if (counting) timer.id = setInterval(tick, 1000);
  return [row, line];
}
