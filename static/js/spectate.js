// Spectators on the room page: the offer to watch a room that is full or already playing,
// the "You are watching" banner (hand sizes only: no hand, no action bar), the watcher count
// players see, and the host's spectator options (chat, delay).  Room.js calls `updateSpectating`
// after every render; everything here is built from the view alone.
import { t } from "./i18n.js";
import { changed } from "./table/changed.js";
import { clear, h } from "./dom.js";

export const DELAYS = [0, 5, 10, 15, 30]; // seconds the host may hold spectators' frames back

/** True when a visitor without a seat can only watch: the room is full, or its match has started. */
export function onlyWatch(summary) {
  return summary.status !== "waiting" || summary.seats_free <= 0;
}

/** Whether this page asked to watch (the invite link with ?watch). */
export function wantsToWatch() {
  return new URLSearchParams(location.search).has("watch");
}

/** For a visitor who cannot take a seat: why, and a button to watch instead. */
export function watchOffer(summary, onWatch) {
  const why = summary.status === "waiting" ? t("watch.full", { max: summary.max_seats })
    : summary.status === "over" ? t("watch.over") : t("watch.started");
  return h("section", { class: "panel watch-offer", "data-testid": "watch-offer" },
    h("h1", { text: summary.name }),
    h("p", { class: "edition-line", text: `${t(`edition.${summary.variant}`)} · ${t("room.players_count", { n: summary.seats_taken, max: summary.max_seats })}` }),
    h("p", { class: "watch-reason", "data-testid": "watch-reason", role: "status", text: why }),
    h("div", { class: "button-row" },
      h("button", { class: "btn btn-primary", type: "button", "data-testid": "watch-offer-button", text: t("watch.button"), onclick: onWatch }),
      h("a", { class: "btn btn-ghost", href: "/", text: t("nav.home") })));
}

/** Before a delayed room's first frame reaches a new spectator: why the table is not there yet. */
export function delayNote(summary) {
  const n = summary && summary.spectator_delay;
  return n ? h("p", { class: "panel watch-delay", "data-testid": "watch-delay", role: "status", text: t("watch.delay_wait", { n }) }) : null;
}

/** Whether the viewer may write in the chat: a seat, or a spectator when the host allows it. */
export function canChat(view) {
  return !!view && (view.you !== null || !!view.room.spectator_chat);
}

/** A chat line's author: a seat's name, or the numbered spectator. */
export function chatAuthor(line) {
  if (line.spectator) return line.watcher ? t("chat.watcher_name", { n: line.watcher }) : line.name;
  return line.name;
}

function watchersText(n) {
  return t("watch.count", { n });
}

const state = { options: null };

/**
 * After each render: the banner for spectators (and `is-watching` on the root, which hides the
 * hand and the action bar), the watcher count for everyone, the host's spectator options.
 *   root    the page's root (its first child's first child is the mode's main column)
 *   side    the side panel's element (kept across modes)
 *   send    how to send a message to the room
 */
export function updateSpectating(view, root, side, send) {
  const watching = view.you === null;
  root.classList.toggle("is-watching", watching);
  const main = root.querySelector(".room-layout > :first-child");
  if (main) {
    let banner = main.querySelector(":scope > [data-testid=watching-banner]");
    if (watching && !banner) {
      banner = h("p", { class: "watching-banner", "data-testid": "watching-banner", role: "status" });
      main.prepend(banner);
    }
    if (banner && !watching) banner.remove();
    if (banner) {
      const delay = view.room.spectator_delay || 0;
      const text = delay > 0 ? `${t("watch.banner")} ${t("watch.delayed", { n: delay })}` : t("watch.banner");
      if (banner.textContent !== text) banner.textContent = text;
    }
    // Players (and spectators) see how many watch, at the top of the table or the waiting room.
    const n = view.room.watchers || 0;
    let count = main.querySelector("[data-testid=watcher-count]");
    if (!count) {
      count = h("span", { class: "watcher-count", "data-testid": "watcher-count" });
      const head = main.querySelector(".table-head") || main.querySelector(".edition-line");
      if (head) head.append(count);
    }
    count.hidden = n === 0;
    count.dataset.count = String(n);
    const words = watchersText(n);
    if (count.textContent !== words) count.textContent = words;
  }
  renderOptions(view, side, send);
}

function renderOptions(view, side, send) {
  if (!side) return;
  if (!state.options || !side.contains(state.options)) {
    // Folded: the scores and the chat keep the side panel's height; the watchers' count shows.
    state.options = h("details", { class: "side-block spectator-block", "data-testid": "spectator-options" });
    side.append(state.options);
  }
  const room = view.room;
  const host = view.you !== null && view.you === room.host;
  if (!changed(state.options, [host, room.spectator_chat, room.spectator_delay, room.watchers])) return;
  const box = clear(state.options);
  box.append(h("summary", { class: "spectator-toggle", "data-testid": "spectator-options-toggle" },
    h("h2", { text: t("watch.options") }), h("span", { class: "muted", "data-testid": "watcher-total", text: watchersText(room.watchers || 0) })));
  if (host) {
    const chat = h("input", { type: "checkbox", "data-testid": "spectator-chat-toggle", checked: !!room.spectator_chat });
    chat.addEventListener("change", () => send({ type: "options", spectator_chat: chat.checked }));
    const delay = h("select", { "data-testid": "spectator-delay" },
      ...DELAYS.map((n) => h("option", { value: n, selected: n === room.spectator_delay, text: n ? t("watch.delay_n", { n }) : t("watch.delay_none") })));
    delay.addEventListener("change", () => send({ type: "options", spectator_delay: Number(delay.value) }));
    box.append(h("label", { class: "check-field" }, chat, h("span", { text: t("watch.allow_chat") })),
      h("label", { class: "field" }, h("span", { text: t("watch.delay_label") }), delay));
  } else {
    box.append(h("p", { class: "muted", text: room.spectator_chat ? t("watch.chat_on") : t("watch.chat_off") }));
    if (room.spectator_delay) box.append(h("p", { class: "muted", text: t("watch.delay_is", { n: room.spectator_delay }) }));
  }
}
