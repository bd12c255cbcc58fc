// The table on a big screen (/r/CODE/screen?key=…): one socket with the host's screen key, which
// the server sends the public table live (RULES.md D-14; docs/PROTOCOL.md, "A big screen").
// Without a key, or once the host revokes it, the page is a spectator's view, under the room's
// spectator rules.  The screen is for looking at: nothing on it is played.  Sound is optional:
// the corner's loudspeaker turns on the table's cues (cards played, UNO! said), off until pressed.
import { RoomSync } from "../sync.js";
import { loadCatalogue, t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { installDefs } from "../cards.js";
import { TableMotion } from "../motion.js";
import { Cues } from "../cues.js";
import { derive, modeOf, namer } from "../table/model.js";
import { buildLobby, showLobby } from "../screen/lobby.js";
import { Board } from "../screen/board.js";

const body = document.body;
const code = body.dataset.code;
let key = body.dataset.screenKey || null;
const root = document.getElementById("screen-root");
const conn = document.getElementById("screen-conn");
const note = document.getElementById("screen-note");

const board = new Board();
const motion = new TableMotion();
const cues = new Cues();
let lobby = null;
let sync = null;
let view = null;

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (key) params.set("screen", key);
  const q = params.toString();
  return `${proto}://${location.host}/ws/rooms/${encodeURIComponent(code)}${q ? `?${q}` : ""}`;
}

function render(v) {
  view = v;
  body.dataset.screen = key ? "screen" : "spectator";
  const nameOf = namer(v);
  document.title = `${v.room.name} · ${t("screen.title")}`;
  if (modeOf(v) === "waiting") {
    if (!lobby) lobby = buildLobby(code, body.dataset.publicUrl || "");
    if (lobby.root.parentElement !== root) clear(root).append(lobby.root);
    body.dataset.mode = "waiting";
    showLobby(lobby, v);
  } else {
    board.mount(root);
    body.dataset.mode = "game";
    board.render(v, derive(v, { choosing: null, batch: null, armed: false, dismissedReveal: "", code }), nameOf);
  }
  motion.update(v);
  cues.notice(v, false); // a screen has no turn of its own: only what everyone hears
  showNote(v);
}

/** A spectator's page says so (and, in a room with a delay, how late its table is). */
function showNote(v) {
  if (key) { note.hidden = true; return; }
  const delay = v.room.spectator_delay || 0;
  note.textContent = delay > 0 ? `${t("screen.as_spectator")} ${t("watch.delayed", { n: delay })}` : t("screen.as_spectator");
  note.hidden = false;
}

/** The host revoked the link (or it was never right): say so; the room can still be watched. */
function revoked() {
  if (sync) { sync.stop(); sync = null; }
  clear(root).append(h("section", { class: "sc-revoked", "data-testid": "screen-revoked", role: "alert" },
    h("h1", { text: t("screen.revoked") }),
    h("p", { text: t("screen.revoked_help") }),
    h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "screen-watch", text: t("screen.watch_instead"),
      onclick: () => { key = null; lobby = null; board.els = null; connect(); } })));
  body.dataset.mode = "revoked";
}

function connect() {
  if (sync) sync.stop();
  sync = new RoomSync({
    url: wsUrl,
    WebSocket,
    onView: (v) => render(v),
    onStatus: (status, detail) => {
      conn.dataset.state = status;
      const words = { connecting: "conn.connecting", reconnecting: "conn.reconnecting", closed: "conn.closed" }[status];
      conn.textContent = words ? t(words, { n: (detail && detail.attempt) || 1 }) : "";
      conn.hidden = !words;
      if (status === "closed" && detail && detail.reason === "screen_revoked") revoked();
    },
    onError: (frame) => { if (frame.code === "screen_revoked" || frame.code === "bad_screen_key") revoked(); },
  });
  sync.connect();
}

function languagePicker() {
  const select = document.getElementById("screen-lang");
  if (!select) return;
  select.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set("lang", select.value);
    location.replace(url.toString()); // the key stays in the link
  });
}

setInterval(() => { if (view && modeOf(view) === "game") board.tick(view); }, 250);
window.addEventListener("online", () => { if (sync && sync.status === "reconnecting") sync.connect(); });

async function main() {
  installDefs();
  await loadCatalogue();
  languagePicker();
  document.querySelector(".screen-corner").append(cues.toggle());
  connect();
}

main();
