// Lobby: the public rooms open to join, refreshed every few seconds.
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, h, hasOptions, initLanguagePicker, optionsText } from "../dom.js";

const list = document.getElementById("room-list");
const empty = document.getElementById("lobby-empty");
const status = document.querySelector("[data-testid=lobby-status]");

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
          hasOptions(room) ? h("span", { class: "muted lobby-options", "data-testid": "lobby-options", text: optionsText(room) }) : null),
        h("a", { class: "btn btn-primary", href: `/r/${room.code}`, "aria-label": t("lobby.join_name", { name: room.name }), text: t("lobby.join") })));
    }
    empty.hidden = data.rooms.length > 0;
    status.classList.remove("stale");
  } catch {
    status.classList.add("stale");
  }
}

loadCatalogue().then(() => {
  initLanguagePicker();
  refresh();
  setInterval(refresh, 3000);
});
