// The other seats around the table: a chip each, in the order play goes round from yours.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { nextSeat, playOrder } from "./seating.js";
import { avatar } from "./avatar.js";

/**
 * The other seats, in play order from yours, each with its avatar, cards, score and badges
 * (turn, next, UNO!, away, bot); `state.counts` holds the hand sizes last shown, so a chip can
 * say its hand grew or shrank.
 */
export function showSeats(strip, tbl, you, { view, game, nameOf, state }) {
  if (state.countsRound !== game.round) { state.counts = null; state.countsRound = game.round; }
  const playing = view.room.status === "playing";
  const next = playing ? nextSeat(tbl.hand_sizes.length, tbl.direction, tbl.current, tbl.skips_owed) : null;
  clear(strip);
  strip.dataset.direction = tbl.direction === 1 ? "cw" : "ccw";
  // The way play goes round, at the head of the seats listed in that order (the words are in the centre).
  strip.append(h("li", { class: "order-start", "aria-hidden": "true" }, tbl.direction === 1 ? "↻" : "↺"));
  for (const seat of playOrder(tbl.hand_sizes.length, tbl.direction, you)) {
    const p = view.players.find((x) => x.seat === seat) || { name: nameOf(seat), connected: false };
    const count = tbl.hand_sizes[seat];
    const turn = tbl.current === seat && playing;
    const isNext = seat === next;
    const exposed = tbl.exposed.includes(seat);
    const said = tbl.declared.includes(seat);
    const before = state.counts ? state.counts[seat] : count;
    const change = count > before ? " grew" : count < before ? " shrank" : "";
    const backs = h("span", { class: "mini-backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 7); i += 1) backs.append(h("span", { class: "mini-back" }));
    const presence = p.bot ? t("room.bot") : p.connected ? t("room.connected") : t("room.away");
    strip.append(h("li", {
      class: `opponent${turn ? " turn" : ""}${isNext ? " next" : ""}${p.connected || p.bot ? "" : " away"}${exposed ? " exposed" : ""}${change}`,
      "data-testid": "opponent", "data-seat": seat, "data-cards": count,
      "aria-label": t("table.opponent_label", { name: p.name, n: count, state: presence }) + (turn ? `, ${t("table.their_turn")}` : "") + (isNext ? `, ${t("table.plays_next")}` : ""),
    },
    h("span", { class: "opp-top" },
      h("span", { class: `dot ${p.connected || p.bot ? "on" : "off"}`, "aria-hidden": "true" }),
      avatar(p.name, { bot: p.bot }),
      h("span", { class: "opp-name", text: p.name }),
      seat === game.dealer ? h("span", { class: "badge badge-dealer", title: t("table.dealer_badge"), text: t("table.dealer_short") }) : null,
      h("span", { class: "opp-score", text: t("summary.total", { n: game.scores[seat] ?? 0 }) })),
    h("span", { class: "opp-cards" }, backs, h("span", { class: "opp-count", text: String(count) }),
      h("span", { class: "opp-flags" },
        turn ? h("span", { class: "badge badge-turn", text: t("table.turn_badge") }) : null,
        isNext ? h("span", { class: "badge badge-next", "data-testid": "next-marker", text: t("table.next_badge") }) : null,
        said && count === 1 ? h("span", { class: "badge badge-uno", text: t("table.said_uno") }) : null,
        exposed ? h("span", { class: "badge badge-warn", text: t("table.exposed") }) : null,
        tbl.skips_owed && tbl.skips_owed[seat] > 0 ? h("span", { class: "badge", text: t("table.skips_owed", { n: tbl.skips_owed[seat] }) }) : null,
        p.bot ? h("span", { class: "badge badge-bot", text: t("room.bot") }) : p.connected ? null : h("span", { class: "badge badge-away", text: t("room.away") }),
        p.auto && !p.bot ? h("span", { class: "badge badge-bot", text: t("room.auto") }) : null))));
  }
  showInStrip(strip, strip.querySelector(".opponent.turn") || strip.querySelector(".opponent.next"));
}

/** Scrolls the opponents' strip (never the page) so that `chip` is in view. */
function showInStrip(strip, chip) {
  if (!chip) return;
  const s = strip.getBoundingClientRect();
  const c = chip.getBoundingClientRect();
  if (chip === strip.querySelector(".opponent")) strip.scrollLeft = 0; // with the arrow at the head
  else if (c.left < s.left) strip.scrollLeft -= s.left - c.left + 12;
  else if (c.right > s.right) strip.scrollLeft += c.right - s.right + 12;
}

