// The room page: finds the room, offers a seat or a place to watch, and keeps one connection
// (RoomSync) whose every view goes to the controller (table/controller.js), which derives the
// table model and draws the waiting room, the table, the round summary and the podium.
import { RoomSync } from "../sync.js";
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, forgetSeat, h, initLanguagePicker, loadSeat, toast } from "../dom.js";
import { installDefs } from "../cards.js";
import { frameText } from "../errors.js";
import { explainRefusal } from "../refusal.js";
import { delayNote, onlyWatch, wantsToWatch, watchOffer } from "../spectate.js";
import { showConnection } from "../banner.js";
import { joinForm } from "../join_view.js";
import { placeToasts } from "../table/focus.js";
import { RoomController } from "../table/controller.js";

const code = document.body.dataset.code;
const root = document.getElementById("room-root");
const banner = document.getElementById("conn-banner");

let seatInfo = loadSeat(code);
let sync = null;
let room = null; // the controller, made once the catalogue is loaded

function errorText(frame, sent) {
  // A refused move says why, from the engine's refusal and the table (refusal.js); anything
  // else is worded from its code and params (errors.js), never the server's English.
  const why = sent && (sent.type === "action" || sent.type === "why") ? explainRefusal(frame.code, room.view, room.nameOf) : null;
  return why || frameText(frame, room.nameOf);
}

// ------------------------------------------------------------------ connection

function wsUrl(lastSeq) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (seatInfo && seatInfo.token) params.set("token", seatInfo.token);
  if (lastSeq != null) params.set("last_seq", String(lastSeq));
  params.set("acks", "in_patch"); // a move's ack rides in the patch it caused: one frame, not two
  const q = params.toString();
  return `${proto}://${location.host}/ws/rooms/${encodeURIComponent(code)}${q ? `?${q}` : ""}`;
}

function connect() {
  if (sync) sync.stop();
  room.view = null;
  sync = new RoomSync({
    url: wsUrl,
    WebSocket,
    onView: (v) => room.render(v),
    onStatus: (status, detail) => showConnection(banner, status, detail, {
      badToken: () => { forgetSeat(code); seatInfo = null; setTimeout(() => start(), 500); },
      reconnect: () => connect(),
      forget: () => forgetSeat(code),
    }),
    onReply: (frame, sent) => {
      room.updateBusy();
      if (frame.type === "error") {
        toast(errorText(frame, sent), "error");
        if (sent && sent.type === "action") room.render();
      } else if (sent && sent.type === "leave") {
        forgetSeat(code);
        location.href = "/";
      }
    },
    onError: (frame) => toast(errorText(frame), "error"),
  });
  sync.connect();
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
  room.reset();
  delete document.body.dataset.roomMode;
  placeToasts(document.body);
  const { form, input } = joinForm(code, summary, {
    seated: (info) => { seatInfo = info; connect(); },
    watch,
    replace: (el) => clear(root).append(el),
  });
  clear(root).append(form);
  root.setAttribute("aria-busy", "false");
  input.focus();
}

// ------------------------------------------------------------------ keyboard shortcuts

document.addEventListener("keydown", (ev) => {
  if (!room || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Escape" && room.drawerOpen()) { room.setDrawer(false); return; }
  const tag = document.activeElement && document.activeElement.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (room.key(ev)) ev.preventDefault();
});

window.addEventListener("online", () => { if (sync && sync.status === "reconnecting") sync.connect(); });

async function main() {
  installDefs();
  await loadCatalogue();
  initLanguagePicker();
  room = new RoomController({ code, root, sync: () => sync, seat: () => seatInfo, renderJoin });
  await start();
}

main();
