// An edition's rules page.  Opened from a room (?room=CODE), it marks the house rules that room plays.
import { loadCatalogue } from "../i18n.js";
import { api, initLanguagePicker } from "../dom.js";
import { loadHouseSchema, rulesOn } from "../house_rules_badges.js";

async function markRoomRules() {
  const code = new URLSearchParams(location.search).get("room");
  if (!code || !/^[A-Za-z0-9]{1,16}$/.test(code)) return;
  const [schema, room] = await Promise.all([loadHouseSchema(), api("GET", `/api/rooms/${code}`)]);
  for (const { option } of rulesOn(schema, room.house_rules)) {
    const item = document.querySelector(`[data-testid=rules-house] li[data-option="${option.key}"]`);
    if (item) { item.classList.add("is-on"); item.querySelector(".house-on").hidden = false; }
  }
}

loadCatalogue().then(() => { initLanguagePicker(); markRoomRules().catch(() => {}); });
