// Lobby: the public rooms open to join, refreshed every few seconds.
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker } from "../dom.js";
import { houseRulesFold, loadHouseSchema } from "../house_rules_badges.js";

const list = document.getElementById("room-list");
const empty = document.getElementById("lobby-empty");
const status = document.querySelector("[data-testid=lobby-status]");
const unfolded = new Set(); // rooms whose house rules the reader opened: kept open across refreshes
let schema = null;

/** The room's house rules (labels; what they do on a tap) and its turn timer, or nothing for neither. */
function roomOptions(room) {
  const rules = schema ? houseRulesFold(schema, room.house_rules, room.variant, {
    open: unfolded.has(room.code), testid: "lobby-house-rules",
    ontoggle: (open) => (open ? unfolded.add(room.code) : unfolded.delete(room.code)) }) : null;
  const timer = room.turn_seconds ? h("span", { class: "muted", text: t("room.turn_timer", { n: room.turn_seconds }) }) : null;
  if (!timer && (!rules || rules.tagName !== "DETAILS")) return null;
  return h("div", { class: "lobby-options", "data-testid": "lobby-options" }, rules && rules.tagName === "DETAILS" ? rules : null, timer);
}

async function refresh() {
  try {
    const data = await api("GET", "/api/rooms");
    clear(list);
    for (const room of data.rooms) {
      list.append(h("li", { class: `room-item edition-${room.variant}`, "data-testid": "lobby-room", "data-code": room.code },
        h("div", { class: "room-main" },
          // Isolated (dir="auto"): a name's right-to-left text must not reorder the line around it.
          h("strong", { class: "room-name", dir: "auto", "data-testid": "lobby-room-name", text: room.name }),
          h("span", { class: "muted", text: `${t(`edition.${room.variant}`)} · ${t("room.players_count", { n: room.seats_taken, max: room.max_seats })}` }),
          h("span", { class: "room-players" }, room.players.map((name, i) => [i ? ", " : "", h("bdi", { text: name })])),
          roomOptions(room)),
        h("a", { class: "btn btn-primary", href: `/r/${room.code}`, "aria-label": t("lobby.join_name", { name: room.name }), text: t("lobby.join") })));
    }
    empty.hidden = data.rooms.length > 0;
    status.classList.remove("stale");
  } catch {
    status.classList.add("stale");
  }
}

loadCatalogue().then(async () => {
  initLanguagePicker();
  schema = await loadHouseSchema().catch(() => null); // without it the rooms still list, without their rules
  refresh();
  setInterval(refresh, 3000);
});
