// The seats around the big screen's table: each seat at a fixed place on an ellipse (seat 0 at the
// foot, the others clockwise, as play goes round with direction 1), with its avatar inside the
// turn clock's ring, its name, its card count, its UNO! state and an open hand (HR-31); the
// current player's seat lit up and labelled, readable from across the room.
import { t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { avatar } from "../avatar.js";
import { cardSvg } from "../cards.js";
import { changed } from "../table/changed.js";
import { botBadgeText } from "../bot_level.js";

/** Where seat `seat` of `n` sits, in percent of the table's box: `{ x, y }` (pure; unit-tested). */
export function seatPlace(seat, n) {
  const angle = Math.PI + (seat * 2 * Math.PI) / Math.max(1, n); // from the foot, clockwise on the screen
  // A wide ellipse: the seats keep clear of the piles in the middle and of the box's edges.
  return { x: 50 + 41 * Math.sin(angle), y: 50 - 39 * Math.cos(angle) };
}

function flags(c) {
  const out = [];
  if (c.saidUno) out.push(h("span", { class: "sc-flag sc-uno", "data-testid": "screen-uno", text: t("table.said_uno") }));
  if (c.exposed) out.push(h("span", { class: "sc-flag sc-exposed", text: t("table.exposed") }));
  if (c.next) out.push(h("span", { class: "sc-flag sc-next", "data-testid": "next-marker", text: t("table.next_badge") }));
  if (c.out) out.push(h("span", { class: "sc-flag", text: t("out.badge") }));
  if (c.bot) out.push(h("span", { class: "sc-flag sc-bot", text: botBadgeText(c.level) }));
  else if (!c.here) out.push(h("span", { class: "sc-flag sc-away", text: t("room.away") }));
  if (c.auto) out.push(h("span", { class: "sc-flag sc-bot", text: t("room.auto") }));
  return out;
}

function openHand(open) {
  if (!open) return null;
  const backs = Array.from({ length: open.faceDown }, () => h("span", { class: "sc-open-back", title: t("card.face_down") }));
  return h("span", { class: "sc-open", "data-testid": "open-hand", "aria-label": t("screen.open_hand") },
    ...open.cards.map((card) => h("span", { class: "sc-open-card" }, cardSvg(card))), ...backs);
}

function seatEl(c, n) {
  const place = seatPlace(c.seat, n);
  const el = h("li", {
    class: `sc-seat${place.y < 50 ? " upper" : ""}${c.turn ? " turn" : ""}${c.next ? " next" : ""}${c.here ? "" : " away"}${c.count === 1 ? " last-card" : ""}${c.out ? " out" : ""}`,
    "data-testid": "opponent", "data-seat": c.seat, "data-cards": c.count, "data-turn": c.turn ? "true" : "false",
    "aria-label": t("table.opponent_label", { name: c.name, n: c.count, state: c.here ? t("room.connected") : t("room.away") })
      + (c.turn ? `, ${t("table.their_turn")}` : ""),
  },
  h("span", { class: "sc-ring", "data-testid": "turn-ring" }, avatar(c.name, { bot: c.bot })),
  h("span", { class: "sc-text" },
    h("span", { class: "sc-name", text: c.name }),
    h("span", { class: "sc-cards" },
      h("span", { class: "sc-count", "data-testid": "screen-count", text: String(c.count) }),
      h("span", { class: "sc-cards-word", text: c.count === 1 ? t("screen.card") : t("screen.cards") })),
    h("span", { class: "sc-flags" }, ...flags(c))),
  c.turn ? h("span", { class: "sc-turn-label", "data-testid": "screen-turn-label", text: t("screen.plays_now") }) : null,
  openHand(c.open));
  el.style.setProperty("--x", `${place.x}%`);
  el.style.setProperty("--y", `${place.y}%`);
  return el;
}

/** Draws the model's `seats` part (table/model.js) into `list`, when it changed. */
export function showScreenSeats(list, seats) {
  if (!changed(list, seats)) return;
  const n = seats.chips.length;
  clear(list);
  list.dataset.seats = String(n);
  list.dataset.direction = seats.direction === 1 ? "cw" : "ccw";
  for (const c of [...seats.chips].sort((a, b) => a.seat - b.seat)) list.append(seatEl(c, n));
}

/** The turn clock's ring on the current seat: the share of the turn left (run every 250 ms). */
export function showRing(list, room, pending) {
  const ring = list.querySelector(".sc-seat.turn .sc-ring");
  const deadline = room.turn_deadline;
  for (const other of list.querySelectorAll(".sc-ring.timed")) if (other !== ring) other.classList.remove("timed");
  if (!ring || !pending || !deadline || !room.turn_seconds) { if (ring) ring.classList.remove("timed"); return; }
  const left = Math.max(0, Math.min(1, (deadline - Date.now() / 1000) / room.turn_seconds));
  ring.classList.add("timed");
  ring.classList.toggle("low", left < 0.25);
  ring.style.setProperty("--left", left.toFixed(3));
}

/** A reaction, large, at its sender's seat (a spectator's at the foot of the screen) for 3 s. */
export function popReaction(list, corner, r, face, label) {
  const seat = r.seat === null || r.seat === undefined ? null : list.querySelector(`.sc-seat[data-seat="${r.seat}"]`);
  const bubble = h("span", { class: `sc-react${face ? "" : " sticker"}`, "data-testid": "screen-reaction", "aria-label": label,
    text: face || label });
  (seat || corner).append(bubble);
  setTimeout(() => bubble.remove(), 3000);
}
