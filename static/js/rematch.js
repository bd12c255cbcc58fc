// The rematch, decided by the table (app/rooms/rematch.py): each player says "play again" or
// leaves; it starts when everyone still here is ready, or when the host's countdown runs out.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { houseRulesForm } from "./house_rules_form.js";
import { describe } from "./narrate.js";

// Notes after which the table is not the one a rematch was refused for any more.
const TABLE_CHANGED = new Set(["joined", "left", "kicked", "bot_added", "next_match", "started"]);

/** The `rematch_stopped` note (why the table cannot be dealt in: HR-26's teams, too few) while
 * the table is still as it was then, else null. */
export function stoppedNote(view) {
  const log = view.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    if (log[i].kind === "rematch_stopped") return log[i];
    if (TABLE_CHANGED.has(log[i].kind)) return null;
  }
  return null;
}

/** Who is still to answer: people at the table who are not ready (bots always are). */
export function waitingFor(view) {
  return view.players.filter((p) => !p.bot && !p.ready).map((p) => p.name);
}

/**
 * The controls under the podium for this reader: play again / leave for a seat, the host's
 * start (a countdown, or at once when asked again), a line saying what the table waits for, and
 * for the host the choice of the next match's game.
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
  const stopped = counting ? null : stoppedNote(view);
  const tick = () => {
    const at = view.room.rematch_at;
    const left = at ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : null;
    const who = waiting.length ? t("rematch.waiting_for", { names: waiting.join(", ") }) : "";
    // Why no rematch comes (a countdown stopped, or all ready in vain) comes before who is awaited.
    const why = stopped ? describe(stopped, () => "") : "";
    line.textContent = left !== null ? [t("rematch.starts_in", { n: left }), who].filter(Boolean).join(" ") : [why, who].filter(Boolean).join(" ");
  };
  tick();
  clearInterval(timer.id);
  if (counting) timer.id = setInterval(tick, 1000);
  return [row, line, host ? nextMatchForm(view, send) : null];
}

const EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"];

/**
 * The host's choice of the next match's game (folded): edition, target score, house rules.
 * Sent as `next_match`; the server checks it (its refusal is shown like any other) and the
 * table is asked again.
 */
export function nextMatchForm(view, send) {
  const room = view.room;
  const edition = h("select", { name: "variant", "data-testid": "next-edition" },
    EDITIONS.map((e) => h("option", { value: e, selected: e === room.edition, text: t(`edition.${e}`) })));
  const target = h("input", { type: "number", name: "target", min: 1, max: 100000, inputmode: "numeric",
    "data-testid": "next-target", value: room.target ?? "", placeholder: t("next.target_default") });
  const house = h("fieldset", { class: "house-rules", "data-testid": "next-house-rules" }, h("legend", { text: t("home.house_rules") }));
  // The room's rules as they are, every option the server plays (house_rules_form.js).
  const rules = houseRulesForm(house, { edition: () => edition.value, turnSeconds: () => room.turn_seconds, initial: room.house_rules });
  edition.addEventListener("change", rules.sync);
  const form = h("form", { class: "next-match", "data-testid": "next-match-form" },
    h("label", { class: "field" }, h("span", { text: t("home.edition") }), edition),
    h("label", { class: "field" }, h("span", { text: t("home.target") }), target),
    house,
    h("button", { class: "btn", type: "submit", "data-testid": "next-apply", text: t("next.apply") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const score = target.value.trim() ? Number(target.value) : null;
    send({ type: "next_match", variant: edition.value, target_score: Number.isInteger(score) ? score : null, house_rules: rules.houseRules() || {} });
  });
  return h("details", { class: "next-match-box", "data-testid": "next-match" },
    h("summary", { text: t("next.title") }), form);
}
