// The other seats around the table: a chip each, in the order play goes round from yours
// (the model's `seats` part: table/model.js), redrawn only when that part changed.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { avatar } from "./avatar.js";
import { changed } from "./table/changed.js";
import { cardName } from "./cards.js";
import { teamName } from "./table/sides.js";
import { botBadgeText } from "./bot_level.js";

// The chip's extra words for a screen reader: partner or team (HR-26), out of the match (HR-30).
function sideLabel(c) {
  const parts = [];
  if (c.partner) parts.push(t("team.partner"));
  else if (c.team !== null && c.team !== undefined) parts.push(teamName(c.team));
  if (c.out) parts.push(t("out.badge"));
  return parts.length ? `, ${parts.join(", ")}` : "";
}

function teamBadge(c) {
  if (c.team === null || c.team === undefined) return null;
  return h("span", { class: `badge badge-team team-${c.team}`, "data-testid": "team-badge", "data-team": c.team,
    text: c.partner ? t("team.partner") : teamName(c.team) });
}

// An open hand's words: its face-up cards by name, then each face-down one as "face-down card".
function openCards(open) {
  const backs = Array.from({ length: open.faceDown }, () => t("card.face_down"));
  return [...open.cards.map(cardName), ...backs].join(", ");
}

function chip(c, before) {
  const change = c.count > before ? " grew" : c.count < before ? " shrank" : "";
  const backs = h("span", { class: "mini-backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(c.count, 7); i += 1) backs.append(h("span", { class: "mini-back" }));
  const presence = c.bot ? t("room.bot") : c.here ? t("room.connected") : t("room.away");
  return h("li", {
    class: `opponent${c.turn ? " turn" : ""}${c.next ? " next" : ""}${c.here ? "" : " away"}${c.exposed ? " exposed" : ""}${c.out ? " out" : ""}${c.team !== null && c.team !== undefined ? ` team-${c.team}` : ""}${c.partner ? " partner" : ""}${change}`,
    "data-testid": "opponent", "data-seat": c.seat, "data-cards": c.count, "data-out": c.out ? "true" : null,
    "aria-label": t("table.opponent_label", { name: c.name, n: c.count, state: presence }) + (c.turn ? `, ${t("table.their_turn")}` : "") + (c.next ? `, ${t("table.plays_next")}` : "") + sideLabel(c),
  },
  h("span", { class: "opp-top" },
    h("span", { class: `dot ${c.here ? "on" : "off"}`, "aria-hidden": "true" }),
    avatar(c.name, { bot: c.bot }),
    h("span", { class: "opp-name", text: c.name }),
    c.dealer ? h("span", { class: "badge badge-dealer", title: t("table.dealer_badge"), text: t("table.dealer_short") }) : null,
    teamBadge(c),
    h("span", { class: "opp-score", text: t("summary.total", { n: c.score }) })),
  h("span", { class: "opp-cards" }, backs, h("span", { class: "opp-count", text: String(c.count) }),
    h("span", { class: "opp-flags" },
      c.out ? h("span", { class: "badge badge-out", "data-testid": "out-badge", text: t("out.badge") }) : null,
      c.turn ? h("span", { class: "badge badge-turn", text: t("table.turn_badge") }) : null,
      c.next ? h("span", { class: "badge badge-next", "data-testid": "next-marker", text: t("table.next_badge") }) : null,
      c.saidUno ? h("span", { class: "badge badge-uno", text: t("table.said_uno") }) : null,
      c.exposed ? h("span", { class: "badge badge-warn", text: t("table.exposed") }) : null,
      c.skips > 0 ? h("span", { class: "badge", text: t("table.skips_owed", { n: c.skips }) }) : null,
      c.bot ? h("span", { class: "badge badge-bot", "data-level": c.level, text: botBadgeText(c.level) }) : c.here ? null : h("span", { class: "badge badge-away", text: t("room.away") }),
      c.auto ? h("span", { class: "badge badge-bot", text: t("room.auto") }) : null)),
  // Open hands (RULES.md HR-31): the cards of a hand small enough, face up for everyone; a card
  // drawn face down (HR-33) is named as one until it turns up (D-13).
  c.open ? h("span", { class: "opp-open", "data-testid": "open-hand", text: t("table.open_hand", { cards: openCards(c.open) }) }) : null);
}

/**
 * The other seats, each with its avatar, cards, score and badges (turn, next, UNO!, away, bot).
 * `state.counts` holds the hand sizes last shown in this round, so a chip can say its hand grew
 * or shrank.
 */
export function showSeats(strip, seats, state) {
  if (!changed(strip, seats)) return;
  if (state.countsRound !== seats.round) { state.counts = null; state.countsRound = seats.round; }
  clear(strip);
  strip.dataset.direction = seats.direction === 1 ? "cw" : "ccw";
  // The way play goes round, at the head of the seats listed in that order (the words are in the centre).
  strip.append(h("li", { class: "order-start", "aria-hidden": "true" }, seats.direction === 1 ? "↻" : "↺"));
  for (const c of seats.chips) strip.append(chip(c, state.counts && state.counts[c.seat] !== undefined ? state.counts[c.seat] : c.count));
  state.counts = Object.fromEntries(seats.chips.map((c) => [c.seat, c.count]));
  showInStrip(strip, strip.querySelector(".opponent.turn") || strip.querySelector(".opponent.next"));
}

/** Scrolls the opponents' strip (never the page) so that `chip` is in view. */
function showInStrip(strip, el) {
  if (!el) return;
  const s = strip.getBoundingClientRect();
  const c = el.getBoundingClientRect();
  if (el === strip.querySelector(".opponent")) strip.scrollLeft = 0; // with the arrow at the head
  else if (c.left < s.left) strip.scrollLeft -= s.left - c.left + 12;
  else if (c.right > s.right) strip.scrollLeft += c.right - s.right + 12;
}
