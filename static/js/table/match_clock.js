// HR-25's match clock in the table's head: minutes and seconds until the blitz ends the match.
// It counts down through rounds and the breaks between them, from the deadline every view
// carries (room.blitz_deadline, epoch seconds); the turn clock (action_bar.js) is apart from it.
import { t } from "../i18n.js";
import { h } from "../dom.js";

const URGENT = 30; // seconds: the last half minute stands out

/** "4:05", "0:09": minutes and seconds, the seconds always two digits. */
export function clockText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The element, built once with the head (hidden unless the room plays a blitz). */
export function buildMatchClock() {
  return h("span", { class: "match-clock", "data-testid": "match-clock", role: "timer", hidden: true });
}

/** Seconds left on the match clock now, or null when it does not run (no blitz, no match on). */
export function matchSecondsLeft(room, now = Date.now() / 1000) {
  const on = room && (room.status === "playing" || room.status === "between");
  return on && room.blitz_deadline ? Math.max(0, room.blitz_deadline - now) : null;
}

/** Shows the time left (called with every view and on the table's tick). */
export function showMatchClock(el, room) {
  const left = matchSecondsLeft(room);
  if (left === null) { el.hidden = true; el.textContent = ""; return; }
  const time = clockText(left);
  el.hidden = false;
  if (el.dataset.time !== time) {
    el.dataset.time = time;
    el.textContent = t("table.match_clock", { time });
    el.setAttribute("aria-label", t("table.match_clock_label", { time }));
    el.title = t("table.match_clock_label", { time });
  }
  el.classList.toggle("urgent", left <= URGENT);
}
