// The room page: waiting room, table, round summary and podium, all from one view that
// RoomSync keeps in step with the server.  The DOM is built once per mode and updated in
// place (the hand is keyed by card id), so focus stays put and nothing jumps.
import { RoomSync } from "../sync.js";
import { loadCatalogue, t } from "../i18n.js";
import { api, append, clear, forgetSeat, h, hasOptions, initLanguagePicker, loadSeat, optionsText, rememberName, saveSeat, storedName, toast } from "../dom.js";
import { cardBackSvg, cardLabel, cardName, cardSvg, colourBadge, installDefs, itemSvg, sortHand } from "../cards.js";
import { describe, raceText } from "../narrate.js";
import { SidePanel } from "../side_panel.js";
import { showWaiting, waitingRoom } from "../waiting_view.js";
import { showSeats } from "../seats_view.js";
import { buildSummary } from "../summary_view.js";
import { AbsenceNotice } from "../absence.js";
import { Reactions } from "../reactions.js";
import { TableMotion } from "../motion.js";
import { frameText } from "../errors.js";
import { cardHint, challengeText, pendingText, stackText, targetTitle, unoSplit } from "../wording.js";
import { maybeUnoTip } from "../uno_tip.js";
import { nextSeat } from "../seating.js";
import { fitText, limitInput, NAME_MAX } from "../text.js";
import { canChat, chatAuthor, delayNote, onlyWatch, updateSpectating, wantsToWatch, watchOffer } from "../spectate.js";
import { explainRefusal } from "../refusal.js";
import { Cues } from "../cues.js";
import { decisionSig, showDecision } from "../dialog_view.js";

const code = document.body.dataset.code;
const root = document.getElementById("room-root");
const banner = document.getElementById("conn-banner");

let seatInfo = loadSeat(code);
let sync = null;
let view = null;
const cues = new Cues(); // sound and vibration, off unless turned on
const ui = {
  mode: null, // "waiting" | "game"
  els: {}, // the elements of the current mode
  side: null,
  choosing: null, // a card whose play needs a colour or a target: { card, variants, kind }
  armed: false, // UNO! said in advance for the next play that leaves one card
  dialogSig: "",
  summarySig: "",
  seenEntries: null, // log entry n -> signature, to notice new ones (item flashes, race receipts)
  lastTop: null,
  handIds: null,
  dismissedReveal: "",
  flashTimer: null,
  countdown: null,
  inflight: 0, // turn actions sent and not yet answered
  rematchTimer: { id: null }, // the rematch countdown's ticker (rematch.js)
};

// ------------------------------------------------------------------ helpers

const absence = new AbsenceNotice(); // tells a returning player what happened while they were away
const reactions = new Reactions((message) => send(message)); // emotes shown at the sender's seat
const motion = new TableMotion(); // card backs flying from the draw pile to whoever draws

const me = () => (view ? view.you : null);
const game = () => (view ? view.game : null);
const table = () => (view && view.game ? view.game.table : null);
const legal = () => (table() && table().legal) || [];

function nameOf(seat) {
  const p = view && view.players.find((x) => x.seat === seat);
  return p ? p.name : t("room.seat_n", { n: seat + 1 });
}

function errorText(frame, sent) {
  // A refused move says why, from the engine's refusal and the table (refusal.js); anything
  // else is worded from its code and params (errors.js), never the server's English.
  const why = sent && (sent.type === "action" || sent.type === "why") ? explainRefusal(frame.code, view, nameOf) : null;
  if (why) return why;
  return frameText(frame, nameOf);
}

function send(message) {
  if (!sync) return Promise.resolve(null);
  const p = sync.send(message);
  updateBusy();
  return p;
}

function act(action) {
  // One turn action at a time: a double tap must not send a second, doomed play.
  const racing = action.kind === "declare_uno" || action.kind === "catch";
  if (!racing && ui.inflight > 0) return Promise.resolve(null);
  ui.choosing = null;
  ui.armed = false;
  if (!racing) ui.inflight += 1;
  const p = send({ type: "action", action });
  p.then(() => { if (!racing) ui.inflight -= 1; });
  render();
  return p;
}

function updateBusy() {
  const tableEl = ui.els.table;
  if (tableEl) tableEl.dataset.busy = sync && sync.pending > 0 ? "true" : "false";
}

async function addBot() {
  if (!seatInfo) return;
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/bots`, null, { Authorization: `Bearer ${seatInfo.token}` });
  } catch (err) {
    toast(err.message);
  }
}

/** The turn clock: seconds left on the pending decision, when the room has a timer. */
function updateClock() {
  const el = ui.els && ui.els.clock;
  if (!el) return;
  const at = view && view.room.status === "playing" ? view.room.turn_deadline : null;
  if (!at) { el.textContent = ""; el.hidden = true; return; }
  const left = Math.max(0, Math.ceil(at - Date.now() / 1000));
  el.hidden = false;
  el.textContent = t("table.time_left", { n: left });
  el.classList.toggle("urgent", left <= 5);
  // The ring around the seat whose turn it is empties as its time runs out.
  const seconds = view.room.turn_seconds || 0;
  const pending = table() && table().pending;
  const chip = pending && ui.els.opponents && ui.els.opponents.querySelector(`.opponent[data-seat="${pending.seat}"]`);
  if (chip && seconds) {
    chip.classList.add("clocked");
    chip.classList.toggle("urgent", left <= 5);
    chip.style.setProperty("--left", String(Math.min(1, Math.max(0, (at - Date.now() / 1000) / seconds))));
  }
}

setInterval(updateClock, 250);

/**
 * Runs `rebuild` and, when the element that had the keyboard focus was rebuilt away, puts the
 * focus on its twin (same data-testid and data-seat), else on the first of `fallbacks` still
 * there: a waiting-room update never throws a keyboard or screen-reader user back to the top.
 */
function keepFocus(container, rebuild, fallbacks = ["start-button", "add-bot", "copy-link"]) {
  const active = document.activeElement;
  const had = active && active !== document.body && container.contains(active);
  const key = had ? { testid: active.dataset.testid, seat: active.dataset.seat } : null;
  rebuild();
  if (!had || (active.isConnected && document.activeElement === active)) return;
  const twin = key.testid ? `[data-testid="${key.testid}"]${key.seat !== undefined ? `[data-seat="${key.seat}"]` : ""}` : null;
  for (const sel of [twin, ...fallbacks.map((id) => `[data-testid="${id}"]`)]) {
    const el = sel && container.querySelector(sel);
    if (el && !el.disabled && el.getClientRects().length) { el.focus({ preventScroll: true }); return; }
  }
  const main = document.getElementById("main");
  if (main) main.focus({ preventScroll: true });
}

/** Moves the toasts' live region: into the table's announcement area, or back to the page. */
function placeToasts(parent) {
  const box = document.getElementById("toasts");
  if (!box || !parent || box.parentElement === parent) return;
  if (parent === ui.els.announce) parent.insertBefore(box, ui.els.dialog.nextSibling);
  else parent.append(box);
}

// As app.css: the side panel is a drawer on phones and small windows (not on an upright tablet).
const narrow = window.matchMedia("(max-width: 699px), (max-width: 979px) and (max-height: 899px)");

/** On a narrow screen at the table the side panel (scores, log, chat) is a drawer (app.css). */
function setDrawer(open) {
  if (!ui.layout) return;
  const was = ui.layout.classList.contains("drawer-open");
  ui.layout.classList.toggle("drawer-open", open);
  const toggle = ui.els.sideToggle;
  if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
  if (open && !was) ui.side.close.focus({ preventScroll: true });
  else if (!open && was && ui.side.el.contains(document.activeElement) && toggle) toggle.focus({ preventScroll: true });
}

function editionName(ed) {
  return t(`edition.${ed}`);
}

// ------------------------------------------------------------------ connection

function wsUrl(lastSeq) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (seatInfo && seatInfo.token) params.set("token", seatInfo.token);
  if (lastSeq != null) params.set("last_seq", String(lastSeq));
  const q = params.toString();
  return `${proto}://${location.host}/ws/rooms/${encodeURIComponent(code)}${q ? `?${q}` : ""}`;
}

function connect() {
  if (sync) sync.stop();
  view = null;
  sync = new RoomSync({
    url: wsUrl,
    WebSocket,
    onView: (v) => { view = v; render(); },
    onStatus: showStatus,
    onReply: (frame, sent) => {
      updateBusy();
      if (frame.type === "error") {
        toast(errorText(frame, sent), "error");
        if (sent && sent.type === "action") render();
      } else if (sent && sent.type === "leave") {
        forgetSeat(code);
        location.href = "/";
      }
    },
    onError: (frame) => toast(errorText(frame), "error"),
  });
  sync.connect();
}

function showStatus(status, detail) {
  banner.dataset.state = status;
  banner.hidden = status === "open";
  if (status === "connecting") banner.textContent = t("conn.connecting");
  else if (status === "reconnecting") banner.textContent = t("conn.reconnecting", { n: detail ? detail.attempt : 1 });
  else if (status === "closed") {
    const reason = detail && detail.reason;
    clear(banner);
    if (reason === "bad_token") {
      forgetSeat(code);
      seatInfo = null;
      banner.textContent = t("conn.bad_token");
      setTimeout(() => start(), 500);
    } else if (reason === "replaced") {
      banner.append(t("conn.replaced"), " ",
        h("button", { class: "btn btn-small", type: "button", onclick: () => connect(), text: t("conn.use_here") }));
    } else if (reason === "removed") {
      forgetSeat(code);
      banner.append(t("conn.removed"), " ", h("a", { href: "/", text: t("nav.home") }));
    } else if (reason === "no_room" || reason === "room_closed") {
      banner.append(t("conn.room_closed"), " ", h("a", { href: "/", text: t("nav.home") }));
    } else {
      banner.textContent = t("conn.closed");
    }
  }
}

// ------------------------------------------------------------------ entry

/** Watch without a seat; a room with a spectator delay says why its table is late. */
function watch(summary) {
  const note = delayNote(summary);
  if (note) clear(root).append(note);
  connect();
}

async function start() {
  root.setAttribute("aria-busy", "true");
  let summary;
  try {
    summary = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
  } catch (err) {
    banner.hidden = true;
    clear(root).append(h("section", { class: "panel", "data-testid": "room-missing" },
      h("h1", { text: t("missing.title") }), h("p", { text: err.status === 404 ? t("room.not_found", { code }) : err.message }),
      h("a", { class: "btn", href: "/", text: t("nav.home") })));
    root.setAttribute("aria-busy", "false");
    return;
  }
  if (!seatInfo && summary.status === "waiting" && summary.seats_free > 0 && !wantsToWatch()) {
    renderJoin(summary);
    return;
  }
  if (!seatInfo && onlyWatch(summary) && !wantsToWatch()) {
    // No seat to take: say so, and offer to watch — never a silent spectator.
    banner.hidden = true;
    clear(root).append(watchOffer(summary, () => watch(summary)));
    root.setAttribute("aria-busy", "false");
    return;
  }
  if (!seatInfo) watch(summary);
  else connect();
}

function renderJoin(summary) {
  if (sync) { sync.stop(); sync = null; } // a spectator taking a seat
  banner.hidden = true;
  ui.mode = null;
  delete document.body.dataset.roomMode;
  placeToasts(document.body);
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "join-seat-error" });
  const input = limitInput(h("input", { name: "name", required: true, autocomplete: "nickname", "data-testid": "join-name", value: fitText(storedName(), NAME_MAX) }), NAME_MAX);
  const form = h("form", { class: "panel join-seat", "data-testid": "join-seat-form", novalidate: true },
    h("h1", { text: summary.name }),
    h("p", { class: "edition-line" }, editionName(summary.variant), " · ", t("room.players_count", { n: summary.seats_taken, max: summary.max_seats })),
    summary.players.length ? h("p", { class: "muted", text: t("room.already_here", { names: summary.players.join(", ") }) }) : null,
    h("label", { class: "field" }, h("span", { text: t("home.your_name") }), input),
    error,
    h("div", { class: "button-row" },
      h("button", { class: "btn btn-primary", type: "submit", "data-testid": "join-seat-button", text: t("room.take_seat") }),
      h("button", { class: "btn", type: "button", "data-testid": "watch-button", text: t("room.watch"), onclick: () => watch(summary) })));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) { error.textContent = t("home.name_required"); input.focus(); return; }
    try {
      const seat = await api("POST", `/api/rooms/${encodeURIComponent(code)}/players`, { name });
      seatInfo = { token: seat.token, seat: seat.seat, name: seat.name };
      saveSeat(code, seatInfo);
      rememberName(name);
      connect();
    } catch (err) {
      if (err.code === "room_full" || err.code === "room_started") {
        // Taken meanwhile: say so and offer to watch, rather than seat nobody silently.
        const now = await api("GET", `/api/rooms/${encodeURIComponent(code)}`).catch(() => summary);
        clear(root).append(watchOffer(now, () => watch(now)));
        return;
      }
      error.textContent = err.message;
    }
  });
  clear(root).append(form);
  root.setAttribute("aria-busy", "false");
  input.focus();
}

// ------------------------------------------------------------------ rendering

function render() {
  if (!view) return;
  root.setAttribute("aria-busy", "false");
  const mode = view.room.status === "waiting" || !view.game ? "waiting" : "game";
  if (ui.side === null) buildSide();
  if (mode !== ui.mode) {
    ui.mode = mode;
    ui.els = {};
    ui.dialogSig = ui.summarySig = "";
    ui.handIds = null;
    ui.lastTop = null;
    const mainCol = mode === "waiting" ? buildWaiting() : buildTable();
    ui.layout = h("div", { class: `room-layout mode-${mode}` }, mainCol, ui.side.el);
    clear(root).append(ui.layout);
    // At the table the page is one screen high (app.css): the action bar and the hand never
    // fall below the fold, and the messages of the moment (toasts) join the table's one
    // announcement area instead of covering the action bar.
    document.body.dataset.roomMode = mode;
    placeToasts(mode === "game" ? ui.els.announce : document.body);
    // The chat's unread badge: in the table's head at the table (beside the drawer it opens).
    const badge = ui.side.badge.el;
    if (mode === "game") ui.els.head.append(badge);
    else if (badge.parentElement !== document.body) document.body.append(badge);
    // The sound toggle: in the table's head, or at the foot of the waiting room.
    (mode === "game" ? ui.els.head : ui.els.mine.parentElement).append(cues.toggle());
    if (mode === "game") ui.els.head.append(reactions.toggle());
    setDrawer(false);
    if (mode === "game") window.scrollTo(0, 0); // the table starts at the top, whatever was scrolled before
  }
  const tbl = table();
  const myTurn = tbl && tbl.pending && tbl.pending.seat === me() && view.room.status === "playing";
  document.title = `${myTurn ? `● ${t("table.your_turn")} · ` : ""}${view.room.name} · ${t("app.name")}`;
  cues.notice(view, myTurn);
  if (mode === "waiting") keepFocus(root, renderWaiting);
  else renderTable();
  renderSide();
  updateSpectating(view, root, ui.side.el, send);
  noticeEntries();
  absence.update(view, me(), nameOf);
  if (mode === "game") reactions.update(view, me(), nameOf);
  motion.update(view); // in every mode, so that the first deal is news when the table appears
}

// ---- the side panel (side_panel.js): kept across modes so the chat's input survives

function buildSide() {
  ui.side = new SidePanel({ send, canChat: () => canChat(view), closeDrawer: () => setDrawer(false) });
  // At the table on a narrow screen the chat is in the drawer: the badge opens it.
  ui.side.badge.el.addEventListener("click", () => {
    if (ui.mode !== "game" || !narrow.matches) return;
    setDrawer(true);
    ui.side.input.focus({ preventScroll: true });
  });
}

const renderSide = () => ui.side.render(view, game(), me(), nameOf);

/** New log entries drive the transient effects: item flashes and UNO! receipts. */
function noticeEntries() {
  const first = ui.seenEntries === null;
  if (first) ui.seenEntries = new Map();
  for (const e of view.log) {
    const sig = e.attempts ? e.attempts.length : 0;
    const known = ui.seenEntries.get(e.n);
    ui.seenEntries.set(e.n, sig);
    if (first || known === sig) continue;
    if (e.kind === "uno_race") toast(raceText(e, nameOf), "uno", 5000);
    else if (e.kind === "item") flashItem(e);
    else if (e.kind === "challenge") toast(describe(e, nameOf), "info");
  }
}

function flashItem(entry) {
  const el = ui.els.flash;
  if (!el) return;
  clear(el).append(
    h("div", { class: "flash-card" }, cardSvg(entry.card)),
    h("div", { class: "flash-text" },
      h("strong", {}, itemSvg(entry.item, 26), " ", t(`item.${entry.item}`)),
      h("span", { text: t("item.flipped", { name: nameOf(entry.seat), card: cardName(entry.card) }) }),
      h("span", { class: "muted", text: t(`itemfx.${entry.item}`) })));
  el.hidden = false;
  el.classList.remove("pop");
  void el.offsetWidth; // restart the animation
  el.classList.add("pop");
  clearTimeout(ui.flashTimer);
  ui.flashTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

// ---- waiting room

function buildWaiting() {
  const waiting = waitingRoom(code, send);
  ui.els = waiting.els;
  return waiting.el;
}

function renderWaiting() {
  showWaiting(ui.els, view, me(), { send, nameOf, addBot, renderJoin });
}

// ---- the table

function buildTable() {
  const drawPile = h("button", { class: "pile draw-pile", type: "button", "data-testid": "draw-pile" },
    h("span", { class: "pile-card" }, cardBackSvg()), h("span", { class: "pile-count", "data-testid": "draw-count" }));
  drawPile.addEventListener("click", () => doDraw());
  const els = {
    head: h("div", { class: "table-head" }),
    headInfo: h("div", { class: "head-info" }),
    opponents: h("ol", { class: "opponents", "data-testid": "opponents", "aria-label": t("table.turn_order") }),
    drawPile,
    discard: h("div", { class: "pile discard", "data-testid": "discard" }),
    colour: h("div", { class: "declared", "data-testid": "declared-colour" }),
    turn: h("div", { class: "turn-info", "data-testid": "turn-info" }),
    // The one announcement area: decisions, a revealed hand, item flashes, toasts and the
    // shortcuts list, stacked beside the piles, never over them, the hand or the action bar.
    announce: h("div", { class: "announce", "data-testid": "announce" }),
    flash: h("div", { class: "item-flash", "data-testid": "item-flash", role: "status", "aria-live": "polite", hidden: true }),
    status: h("p", { class: "status-line", "data-testid": "status-line", "aria-live": "polite" }),
    clock: h("p", { class: "turn-clock", "data-testid": "turn-clock", hidden: true }),
    // Every move, the other players' too, is read out by screen readers as it happens.
    ticker: h("p", { class: "ticker", "data-testid": "last-event", role: "status", "aria-live": "polite", "aria-atomic": "true" }),
    dialog: h("section", { class: "dialog", "data-testid": "dialog", role: "dialog", "aria-modal": "false", hidden: true }),
    revealed: h("section", { class: "revealed", "data-testid": "revealed", hidden: true }),
    keys: buildKeys(),
    meBar: h("div", { class: "me-bar", "data-testid": "me" }),
    hand: h("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("table.your_hand") }),
    uno: h("button", { class: "btn uno-button", type: "button", "data-testid": "uno-button", "aria-keyshortcuts": "U", text: t("table.uno") }),
    drawBtn: h("button", { class: "btn draw-button", type: "button", "data-testid": "draw-button", "aria-keyshortcuts": "D", text: t("table.draw") }),
    special: h("button", { class: "btn special-button", type: "button", "data-testid": "special-draw", hidden: true, text: t("table.special_draw") }),
    summary: h("section", { class: "summary", "data-testid": "round-summary", role: "dialog", "aria-labelledby": "summary-title", "aria-describedby": "summary-lead", hidden: true }),
  };
  els.keysToggle = h("button", { class: "btn btn-small head-button keys-toggle", type: "button", "data-testid": "keys-toggle", "aria-controls": "keys-help", "aria-expanded": "false", "aria-keyshortcuts": "?", "aria-label": t("keys.title"), title: t("keys.title"), text: "?", onclick: () => toggleKeys() });
  els.sideToggle = h("button", { class: "btn btn-small head-button side-toggle", type: "button", "data-testid": "side-toggle", "aria-controls": "side-panel", "aria-expanded": "false", text: t("side.toggle"), onclick: () => setDrawer(!ui.layout.classList.contains("drawer-open")) });
  els.head.append(els.headInfo, els.keysToggle, els.sideToggle);
  els.uno.addEventListener("click", () => doUno());
  els.drawBtn.addEventListener("click", () => doDraw());
  els.special.addEventListener("click", () => {
    const a = legal().find((x) => x.kind === "special_draw");
    if (a) act(a);
  });
  els.hand.addEventListener("keydown", handKeys);
  els.announce.append(els.dialog, els.revealed, els.flash, els.keys);
  els.centre = h("div", { class: "centre" },
    h("div", { class: "piles" }, els.drawPile, h("div", { class: "discard-wrap" }, els.discard, els.colour), els.turn),
    els.announce);
  els.table = h("section", { class: "table-area room-table", "data-testid": "table", "aria-label": t("table.label") },
    els.head, els.opponents, els.centre,
    h("div", { class: "table-info" }, h("div", { class: "status-row" }, els.status, els.clock), els.ticker),
    els.meBar, els.hand,
    h("div", { class: "actions" }, els.drawBtn, els.special, els.uno),
    els.summary);
  ui.els = els;
  return els.table;
}

/** The keyboard shortcuts, listed where everyone can see them (the "?" button or key). */
function buildKeys() {
  const rows = [["U", "keys.uno"], ["D", "keys.draw"], ["← →", "keys.move"], ["Home End", "keys.ends"],
    ["Enter", "keys.play"], ["Esc", "keys.cancel"], ["?", "keys.help"]];
  const list = h("dl", { class: "keys-list" });
  for (const [keys, text] of rows) {
    list.append(h("dt", {}, ...keys.split(" ").map((k) => h("kbd", { text: k }))), h("dd", { text: t(text) }));
  }
  return h("section", { class: "keys-help", id: "keys-help", "data-testid": "keys-help", "aria-labelledby": "keys-title", hidden: true },
    h("div", { class: "keys-head" }, h("h2", { id: "keys-title", text: t("keys.title") }),
      h("button", { class: "btn btn-small", type: "button", "data-testid": "keys-close", text: t("dialog.close"), onclick: () => toggleKeys(false) })),
    list);
}

function toggleKeys(open) {
  const els = ui.els;
  if (!els.keys) return;
  const show = open === undefined ? els.keys.hidden : open;
  els.keys.hidden = !show;
  els.keysToggle.setAttribute("aria-expanded", show ? "true" : "false");
  if (!show && els.keys.contains(document.activeElement)) els.keysToggle.focus({ preventScroll: true });
}

function renderTable() {
  const els = ui.els;
  const g = game();
  const tbl = g.table;
  const you = me();
  const pending = tbl.pending;
  const mine = pending && pending.seat === you;
  const over = view.room.status !== "playing";
  els.table.dataset.edition = g.edition;
  els.table.dataset.myTurn = mine && !over ? "true" : "false";
  els.table.dataset.pendingKind = mine && pending ? pending.kind : "";
  els.table.dataset.handCount = tbl.hand ? String(tbl.hand.length) : "0";
  els.table.dataset.status = view.room.status;
  updateBusy();

  // Header: edition, round, whose deal (its buttons are built once, so they keep the focus).
  const headSig = JSON.stringify([g.edition, g.round, nameOf(g.dealer), optionsText(view.room)]);
  if (els.headInfo.dataset.sig !== headSig) {
    els.headInfo.dataset.sig = headSig;
    append(clear(els.headInfo), [
      h("span", { class: "edition-tag", text: editionName(g.edition) }),
      h("span", { class: "head-round", text: t("table.round", { n: g.round }) }),
      h("span", { class: "muted head-dealer", text: t("table.dealer", { name: nameOf(g.dealer) }) }),
      h("span", { class: "muted room-code", text: code }),
      hasOptions(view.room) ? h("span", { class: "muted head-options", "data-testid": "table-options", text: optionsText(view.room) }) : null,
      h("a", { class: "rules-link", href: `/rules/${g.edition}`, target: "_blank", rel: "noopener", "data-testid": "rules-link", text: t("rules.link") })]);
  }

  renderOpponents(tbl, you);
  ui.counts = [...tbl.hand_sizes];
  // Centre: piles, declared colour, direction and turn.
  els.drawPile.querySelector(".pile-count").textContent = String(tbl.draw_pile);
  const canDraw = legal().some((a) => a.kind === "draw");
  els.drawPile.disabled = !canDraw || over;
  els.drawPile.setAttribute("aria-label", t("table.draw_pile", { n: tbl.draw_pile }));
  const topKey = `${tbl.top.id}/${tbl.discard_pile}`;
  if (ui.lastTop !== topKey) {
    const land = ui.lastTop !== null;
    ui.lastTop = topKey;
    const card = h("div", { class: "top-card", role: "img", "aria-label": t("table.top_card", { card: cardLabel(tbl.top) }) }, cardSvg(tbl.top));
    const from = land ? playedFrom(tbl.top.id) : null; // before the hand lets the card go
    clear(els.discard).append(card);
    if (land && !travel(card, from)) card.classList.add("land");
  }
  clear(els.colour);
  if (tbl.colour) {
    els.colour.dataset.colour = tbl.colour;
    els.colour.append(colourBadge(tbl.colour, 20), h("span", { text: t("table.colour_is", { colour: t(`colour.${tbl.colour}`) }) }));
  } else {
    els.colour.dataset.colour = "";
    els.colour.append(h("span", { class: "muted", text: g.edition === "all_wild" ? t("table.no_colours") : "" }));
  }
  const cw = tbl.direction === 1;
  if (els.turn.dataset.direction !== String(tbl.direction)) {
    // The arrow is a picture of the words beside it: read once, as the words.
    els.turn.dataset.direction = String(tbl.direction);
    clear(els.turn).append(
      h("span", { class: `direction ${cw ? "cw" : "ccw"}`, "data-testid": "direction", "aria-hidden": "true" }, cw ? "↻" : "↺"),
      h("span", { class: "direction-label", text: cw ? t("table.clockwise") : t("table.counter_clockwise") }));
  }

  // Status line.
  let status = "";
  if (over) status = "";
  else if (mine) status = pendingText(game().edition, pending);
  else if (pending) status = t(`pending.other.${pending.kind}`, { name: nameOf(pending.seat) });
  if (you === null) status = `${t("room.watching")} ${status}`;
  els.status.textContent = status;
  els.status.classList.toggle("mine", !!mine && !over);
  updateClock();

  // The latest event, in words (the full log is in the side panel, below the table on phones).
  const last = [...view.log].reverse().find((e) => !["scores", "final", "joined", "renamed", "left", "kicked", "commitment", "secret", "host"].includes(e.kind));
  const lastKey = last ? `${last.n}` : "";
  if (els.ticker.dataset.n !== lastKey) { // a live region: only news is read out
    els.ticker.dataset.n = lastKey;
    els.ticker.textContent = last ? describe(last, nameOf) : "";
  }

  // Me.
  clear(els.meBar);
  if (you !== null) {
    const exposed = tbl.exposed.includes(you);
    const declared = tbl.declared.includes(you);
    append(els.meBar, [h("span", { class: "me-name", text: nameOf(you) }),
      h("span", { class: "muted", text: t("table.cards", { n: tbl.hand_sizes[you] }) }),
      h("span", { class: "muted", text: t("summary.total", { n: game().scores[you] ?? 0 }) }),
      tbl.current === you && !over ? h("span", { class: "badge badge-turn", text: t("table.your_turn") }) : null,
      nextSeat(tbl.hand_sizes.length, tbl.direction, tbl.current, tbl.skips_owed) === you && tbl.current !== you && !over ? h("span", { class: "badge badge-next", "data-testid": "me-next", text: t("table.you_next") }) : null,
      declared ? h("span", { class: "badge badge-uno", text: t("table.said_uno") }) : null,
      exposed ? h("span", { class: "badge badge-warn", text: t("table.exposed_me") }) : null,
      ui.armed ? h("span", { class: "badge badge-uno", text: t("table.armed") }) : null]);
  }

  renderHand(tbl, over);
  renderActions(tbl, over);
  // In the announcement area, with the decisions: the table's grid keeps its shape.
  maybeUnoTip(els.announce, !!mine && !over && legal().some((a) => a.uno), els.dialog.nextSibling);
  renderDialog(tbl, over);
  renderRevealed(tbl);
  renderSummary(g);
}

/** Where a card just played was: a card of your hand, or the seat of the opponent who played it. */
function playedFrom(id) {
  const mine = ui.els.hand.querySelector(`[data-card-id="${id}"]`);
  if (mine) return mine;
  const entry = [...view.log].reverse().find((e) => e.kind === "play");
  if (!entry || !entry.card || entry.card.id !== id) return null;
  return ui.els.opponents.querySelector(`[data-seat="${entry.seat}"]`);
}

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** The card played flies from where it was to the pile (never with reduced motion). */
function travel(card, from) {
  if (!from || reducedMotion.matches || typeof card.animate !== "function") return false;
  const a = from.getBoundingClientRect();
  const b = card.getBoundingClientRect();
  if (!a.width || !b.width) return false;
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const scale = Math.min(1, a.height / b.height);
  const centre = ui.els.centre;
  centre.classList.add("travelling");
  const flight = card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: 340, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", id: "travel" });
  const done = () => centre.classList.remove("travelling");
  flight.addEventListener("finish", done);
  flight.addEventListener("cancel", done);
  return true;
}

function renderOpponents(tbl, you) {
  showSeats(ui.els.opponents, tbl, you, { view, game: game(), nameOf, state: ui });
  updateClock();
}

/** The actions that play card `id` now (a play, a drawn card's play, or a pass). */
function cardOptions(id) {
  const tbl = table();
  const pending = tbl && tbl.pending;
  if (pending && pending.seat === me() && pending.kind === "pass") {
    return legal().filter((a) => a.kind === "pass_card" && a.card === id);
  }
  return legal().filter((a) => (a.kind === "play" || a.kind === "play_drawn") && a.card === id);
}

function pickUno(variants) {
  // UNO! said in advance (armed) picks the variants that declare with the play.
  const withUno = variants.filter((a) => a.uno);
  const without = variants.filter((a) => !a.uno);
  return ui.armed && withUno.length ? withUno : without.length ? without : withUno;
}

function renderHand(tbl, over) {
  const els = ui.els;
  const hand = sortHand(tbl.hand || []);
  const existing = new Map([...els.hand.children].map((el) => [Number(el.dataset.cardId), el]));
  const fresh = ui.handIds !== null;
  const ids = new Set(hand.map((c) => c.id));
  // A keyboard player whose focused card was just played keeps their place in the hand.
  let refocus = -1;
  for (const [id, el] of existing) {
    if (ids.has(id)) continue;
    if (el === document.activeElement) refocus = [...els.hand.children].indexOf(el);
    el.remove();
  }
  const passing = tbl.pending && tbl.pending.seat === me() && tbl.pending.kind === "pass";
  let prev = null;
  for (const card of hand) {
    let el = existing.get(card.id);
    if (!el) {
      el = h("button", { class: `card-btn${fresh ? " enter" : ""}`, type: "button", "data-testid": "card", "data-card-id": card.id, "data-face": card.face, "data-colour": card.colour || "wild", title: cardHint(card, game().edition) }, cardSvg(card));
      // The id, not the card object: a patch may rewrite that object in place into another card.
      const id = card.id;
      el.addEventListener("click", () => onCard(id));
    }
    const playable = !over && cardOptions(card.id).length > 0;
    el.dataset.playable = playable ? "true" : "false";
    el.classList.toggle("playable", playable);
    el.classList.toggle("dim", !playable);
    el.classList.toggle("passing", playable && passing);
    el.setAttribute("aria-label", `${cardLabel(card)}${playable ? `, ${passing ? t("table.can_pass") : t("table.playable")}` : ""}`);
    el.setAttribute("aria-disabled", playable ? "false" : "true");
    const want = prev ? prev.nextSibling : els.hand.firstChild;
    if (want !== el) els.hand.insertBefore(el, want);
    prev = el;
  }
  ui.handIds = ids;
  if (refocus >= 0 && els.hand.children.length && !els.dialog.contains(document.activeElement)) {
    els.hand.children[Math.min(refocus, els.hand.children.length - 1)].focus({ preventScroll: true });
  }
  els.hand.style.setProperty("--n", String(Math.max(hand.length, 1)));
  if (!hand.length && me() !== null) els.hand.dataset.empty = "true";
  else delete els.hand.dataset.empty;
}

function handKeys(ev) {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight" && ev.key !== "Home" && ev.key !== "End") return;
  const cards = [...ui.els.hand.querySelectorAll(".card-btn")];
  const i = cards.indexOf(document.activeElement);
  if (!cards.length) return;
  let j = i;
  if (ev.key === "ArrowLeft") j = Math.max(0, i - 1);
  else if (ev.key === "ArrowRight") j = Math.min(cards.length - 1, i + 1);
  else if (ev.key === "Home") j = 0;
  else j = cards.length - 1;
  cards[j].focus();
  ev.preventDefault();
}

function onCard(id) {
  if (view.room.status !== "playing") return;
  const options = cardOptions(id);
  if (!options.length) {
    // Ask the server why (the engine's refusal, nothing played); the answer's toast explains it.
    if (me() !== null) send({ type: "why", action: { kind: "play", card: id } });
    else toast(t("hint.not_playable"), "info", 2500);
    return;
  }
  const split = unoSplit(options);
  if (!ui.armed && split.withUno.length && split.without.length) {
    // This play can leave one card: offer to say UNO! with it (C-11), before any colour or target.
    ui.choosing = { card: id, variants: options, unoChoice: true };
    render();
    return;
  }
  choose(id, pickUno(options));
}

/** Play one of `variants` of card `id`: at once, or after a colour or target is chosen. */
function choose(id, variants) {
  if (variants.length === 1) {
    act(variants[0]);
    return;
  }
  ui.choosing = { card: id, variants };
  render();
}

function doDraw() {
  const a = legal().find((x) => x.kind === "draw");
  if (a) act(a);
  else toast(t("hint.cannot_draw"), "info", 2500);
}

function unoMode() {
  const L = legal();
  const declare = L.find((a) => a.kind === "declare_uno");
  if (declare) return { mode: "declare", action: declare };
  const catches = L.filter((a) => a.kind === "catch");
  if (catches.length) return { mode: "catch", action: catches[0] };
  if (L.some((a) => a.uno)) return { mode: "arm" };
  return { mode: "idle" };
}

function doUno() {
  if (view.room.status !== "playing" || me() === null) return;
  const u = unoMode();
  if (u.mode === "declare" || u.mode === "catch") act(u.action);
  else if (u.mode === "arm") { ui.armed = !ui.armed; render(); }
  else toast(t("hint.no_uno"), "info", 2500);
}

function renderActions(tbl, over) {
  const els = ui.els;
  const spectator = me() === null;
  const u = unoMode();
  els.uno.dataset.unoMode = u.mode;
  els.uno.classList.toggle("hot", u.mode !== "idle");
  els.uno.setAttribute("aria-pressed", ui.armed ? "true" : "false");
  els.uno.disabled = spectator || over;
  els.uno.setAttribute("aria-label", u.mode === "catch" ? t("table.uno_catch", { name: nameOf(u.action.target) })
    : u.mode === "declare" ? t("table.uno_declare") : t("table.uno_label"));
  els.uno.textContent = u.mode === "catch" ? t("table.uno_catch_short") : t("table.uno");
  const canDraw = legal().some((a) => a.kind === "draw");
  els.drawBtn.disabled = !canDraw || over;
  els.drawBtn.hidden = spectator || game().edition === "all_wild"; // AW-5: no voluntary draw
  const special = legal().some((a) => a.kind === "special_draw");
  els.special.hidden = !special || over;
}

// ---- decisions

function decision(tbl) {
  const you = me();
  const pending = tbl.pending;
  if (ui.choosing) {
    const { card, variants, unoChoice } = ui.choosing;
    const c = (tbl.hand || []).find((x) => x.id === card) || tbl.drawn;
    if (!variants.every((v) => legal().some((a) => JSON.stringify(a) === JSON.stringify(v)))) {
      ui.choosing = null;
    } else if (unoChoice) {
      const { withUno, without } = unoSplit(variants);
      return {
        kind: "uno", title: cardName(c), text: t("tip.uno_title"), card: c, cancel: true,
        options: [
          { label: t("dialog.play_it"), option: "play", run: () => choose(card, without) },
          { label: t("dialog.play_uno"), option: "play-uno", primary: true, run: () => choose(card, withUno) },
        ],
      };
    } else if (variants.some((v) => v.colour)) {
      return { kind: "colour", title: t("dialog.colour"), card: c, options: variants.map((v) => colourOption(v)), cancel: true };
    } else {
      return { kind: "target", title: targetTitle(c), card: c, options: variants.map((v) => targetOption(v)), cancel: true };
    }
  }
  if (!pending || pending.seat !== you || view.room.status !== "playing") return null;
  const L = legal();
  switch (pending.kind) {
    case "colour":
      return { kind: "colour", title: t("dialog.colour"), text: pending.reason ? t(`reason.${pending.reason}`) : "", options: L.filter((a) => a.kind === "choose_colour").map(colourOption) };
    case "target":
      return { kind: "target", title: t("dialog.target_plain"), text: pending.reason ? t(`reason.${pending.reason}`) : "", options: L.filter((a) => a.kind === "choose_target").map(targetOption) };
    case "challenge": {
      const accept = L.find((a) => a.kind === "accept");
      const challenge = L.find((a) => a.kind === "challenge");
      return {
        kind: "challenge", title: t("dialog.challenge_title"),
        text: challengeText(game().edition, pending, tbl.top, nameOf),
        replaced: pending.replaced_colour || null,
        card: tbl.top,
        options: [
          accept && { label: t("dialog.accept", { n: pending.penalty ?? "" }), option: "accept", action: accept },
          challenge && { label: t("dialog.challenge"), option: "challenge", action: challenge },
        ].filter(Boolean),
      };
    }
    case "drawn":
    case "special": {
      const plays = L.filter((a) => a.kind === "play_drawn");
      const keep = L.find((a) => a.kind === "keep");
      const drawn = tbl.drawn;
      const options = [];
      if (plays.length) {
        // A drawn card whose play leaves one card can be played with UNO! said (C-11).
        const { withUno, without } = unoSplit(plays);
        const id = drawn ? drawn.id : plays[0].card;
        const plain = ui.armed && withUno.length ? withUno : without.length ? without : withUno;
        options.push({ label: t("dialog.play_it"), option: "play", run: () => choose(id, plain) });
        if (withUno.length && without.length) {
          options.push({ label: t("dialog.play_uno"), option: "play-uno", primary: true, run: () => choose(id, withUno) });
        }
      }
      if (keep) options.push({ label: t("dialog.keep"), option: "keep", action: keep });
      return { kind: pending.kind, title: t(pending.kind === "special" ? "dialog.special_title" : "dialog.drawn_title"), text: drawn ? cardLabel(drawn) : "", card: drawn, options };
    }
    case "pass": {
      const passes = L.filter((a) => a.kind === "pass_card");
      const byCard = new Map();
      // A pass that leaves one card says UNO! with it (C-11, C-12): nothing is left to catch.
      for (const a of passes) {
        if (!byCard.has(a.card)) byCard.set(a.card, unoSplit(passes.filter((x) => x.card === a.card)).withUno[0] || a);
      }
      const hand = sortHand(tbl.hand || []);
      const n = tbl.hand_sizes.length;
      const next = (you + tbl.direction + n) % n;
      return {
        kind: "pass", title: t("dialog.pass_title", { name: nameOf(next) }),
        text: passes.some((a) => a.uno) ? t("dialog.pass_uno") : "",
        options: hand.filter((c) => byCard.has(c.id)).map((c) => ({ label: cardLabel(c), card: c, option: `card-${c.id}`, action: byCard.get(c.id) })),
      };
    }
    case "stack": {
      const accept = L.find((a) => a.kind === "accept");
      const n = pending.penalty ?? "";
      return { kind: "stack", title: t("dialog.stack_title"), text: stackText(pending), options: accept ? [{ label: t("dialog.take_cards", { n }), option: "accept", action: accept }] : [] };
    }
    default:
      return null;
  }
}

function colourOption(action) {
  return { label: t(`colour.${action.colour}`), colour: action.colour, option: action.colour, action };
}

function targetOption(action) {
  const count = table().hand_sizes[action.target];
  return { label: nameOf(action.target), sub: t("table.cards", { n: count }), option: `seat-${action.target}`, action };
}

function renderDialog(tbl, over) {
  const d = over ? null : decision(tbl);
  const sig = decisionSig(d);
  if (sig === ui.dialogSig) return;
  ui.dialogSig = sig;
  showDecision(ui.els.dialog, d, { table: ui.els.table, run: (o) => (o.run ? o.run() : act(o.action)), cancel: () => { ui.choosing = null; render(); } });
}

function renderRevealed(tbl) {
  const els = ui.els;
  const r = tbl.revealed;
  const key = r ? JSON.stringify([r.seat, r.cards.map((c) => c.id)]) : "";
  if (!r || key === ui.dismissedReveal) {
    els.revealed.hidden = true;
    return;
  }
  if (els.revealed.dataset.key === key && !els.revealed.hidden) return;
  els.revealed.dataset.key = key;
  const cards = h("div", { class: "mini-hand" });
  for (const c of sortHand(r.cards)) cards.append(h("span", { class: "mini-card", role: "img", "aria-label": cardLabel(c) }, cardSvg(c)));
  clear(els.revealed).append(
    h("h2", { text: t("dialog.revealed", { name: nameOf(r.seat) }) }), cards,
    h("button", { class: "btn btn-small", type: "button", "data-testid": "revealed-close", text: t("dialog.close"), onclick: () => { ui.dismissedReveal = key; els.revealed.hidden = true; } }));
  els.revealed.hidden = false;
}

// ---- round summary and podium

function renderSummary(g) {
  const els = ui.els;
  const s = view.summary;
  const status = view.room.status;
  if (!s || (status !== "between" && status !== "over")) {
    els.summary.hidden = true;
    ui.summarySig = "";
    clearInterval(ui.countdown);
    return;
  }
  const parts = { view, you: me(), send, nameOf, state: ui };
  keepFocus(els.summary, () => buildSummary(els.summary, g, s, status, parts), ["ready-button", "rematch-button", "summary-title"]);
  // A new summary (a round's end, then the podium) takes the focus: read out as it appears.
  const shown = `${s.round}/${status}`;
  if (ui.summaryShown !== shown) {
    ui.summaryShown = shown;
    const title = els.summary.querySelector("#summary-title");
    const typing = document.activeElement && ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (title && !typing) title.focus({ preventScroll: true }); // never taken from someone typing in the chat
  }
}

// ------------------------------------------------------------------ keyboard shortcuts

document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape" && ui.layout && ui.layout.classList.contains("drawer-open")) { setDrawer(false); return; }
  const tag = document.activeElement && document.activeElement.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ui.mode !== "game") return;
  if (ev.key === "u" || ev.key === "U") { doUno(); ev.preventDefault(); }
  else if (ev.key === "d" || ev.key === "D") { doDraw(); ev.preventDefault(); }
  else if (ev.key === "?") { toggleKeys(); ev.preventDefault(); }
  else if (ev.key === "Escape" && ui.choosing) { ui.choosing = null; render(); }
  else if (ev.key === "Escape" && ui.els.keys && !ui.els.keys.hidden) toggleKeys(false);
});

window.addEventListener("online", () => { if (sync && sync.status === "reconnecting") sync.connect(); });

async function main() {
  installDefs();
  await loadCatalogue();
  initLanguagePicker();
  await start();
}

main();
